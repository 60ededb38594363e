"""Checks `exportlens run` on the device-check programs against this
machine's torch and writes the device report (report.md, report.json).

For each program: the run succeeded; its outputs equal ep.module()'s on the
same device (torch.testing's tolerances for the dtype); the profile has one
node per top-level call_function node, each with name, op, ms, kernels and
memory, and the per-node times sum to no more than the run's time; the
CPU comparison's figures agree with torch's own difference between its
device and CPU outputs; on a GPU every node's kernels and memory are
recorded and the CUDA graph was captured (or, for a program that cannot be,
says why); the trace is Chrome trace-event JSON. Then the benchmark figures:
ExportLens's eager interpretation and CUDA-graph replay against torch eager.

usage: python check_reports.py --models DIR --runs DIR --device cuda|cpu --out DIR [--build-seconds FILE]
"""
import argparse
import json
import os
import sys

import torch


def load(path):
    return torch.load(path, weights_only=True)


def close(a, b):
    try:
        torch.testing.assert_close(a, b, equal_nan=True)
        return True, ""
    except AssertionError as e:
        return False, str(e).splitlines()[0]


def max_abs(a, b):
    return max(((x.double() - y.double()).abs().max().item() if x.numel() else 0.0) for x, y in zip(a, b))


class Check:
    def __init__(self, name):
        self.name, self.failures, self.notes = name, [], []

    def expect(self, ok, what):
        if not ok:
            self.failures.append(what)
        return ok


def check_model(name, mdir, rdir, device, facts):
    c = Check(name)
    info = facts["models"][name]
    rc = int(open(os.path.join(rdir, "rc")).read().strip())
    if not c.expect(rc == 0, f"exportlens run exited {rc}: {open(os.path.join(rdir, 'stderr.txt')).read().strip()}"):
        return c, {}
    ours = load(os.path.join(rdir, "out.pt"))
    ref_file = "device_outputs.pt" if device != "cpu" else "cpu_outputs.pt"
    ref = load(os.path.join(mdir, ref_file))
    ok, why = close(tuple(ours), tuple(ref))
    c.expect(ok, f"outputs differ from ep.module() on {device}: {why}")
    prof = json.load(open(os.path.join(rdir, "profile.json")))
    nodes = prof["nodes"]
    c.expect(len(nodes) == info["nodes"], f"profile has {len(nodes)} nodes, the program {info['nodes']}")
    for n in nodes:
        missing = [k for k in ("name", "op", "ms", "kernels", "memory") if k not in n]
        if missing:
            c.expect(False, f"node {n.get('name')} lacks {missing}")
            break
    node_sum = sum(n["ms"] for n in nodes)
    c.expect(node_sum <= prof["total_ms"] * (1 + 1e-6) + 1e-6,
             f"per-node times sum to {node_sum:.4f} ms, more than the run's {prof['total_ms']:.4f} ms")
    figures = {"nodes": len(nodes), "node_sum_ms": node_sum, "total_ms": prof["total_ms"],
               "host_total_ms": prof["host_total_ms"], "time_source": prof["time_source"]}
    cmp = prof.get("comparison")
    if c.expect(cmp is not None, "no comparison with the CPU in the profile"):
        cpu = load(os.path.join(mdir, "cpu_outputs.pt"))
        torch_diff = max_abs(ref, cpu)
        ours_diff = max(o["max_abs"] for o in cmp["outputs"])
        figures.update(cpu_all_close=cmp["all_close"], cpu_max_abs=ours_diff, torch_device_vs_cpu_max_abs=torch_diff)
        # Same kernels on each side: the reported error is torch's own device-vs-CPU difference.
        c.expect(abs(ours_diff - torch_diff) <= 1e-5 + 0.1 * torch_diff,
                 f"reported max |GPU - CPU| {ours_diff:.3g}, torch's own {torch_diff:.3g}")
        if not cmp["all_close"]:
            c.notes.append("not all outputs within float32 tolerance of the CPU: " +
                           "; ".join(f"{o['name']} max abs {o['max_abs']:.3g} max rel {o['max_rel']:.3g}"
                                     for o in cmp["outputs"]))
    trace = json.load(open(os.path.join(rdir, "trace.json")))
    events = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    c.expect(all({"name", "ts", "dur", "pid", "tid"} <= e.keys() for e in events), "trace events lack fields")
    kernels = sum(len(n["kernels"]) for n in nodes)
    c.expect(len(events) == len(nodes) + kernels, f"trace has {len(events)} events for {len(nodes)} nodes + {kernels} kernels")
    graph = prof.get("cuda_graph")
    if device != "cpu":
        c.expect(kernels > 0 and "kernels_note" not in prof, f"no kernels recorded: {prof.get('kernels_note')}")
        c.expect(all(n["memory"] is not None for n in nodes), "a node has no memory figures")
        c.expect((prof.get("peak_bytes") or 0) > 0, "no device peak memory")
        figures.update(kernels=kernels, peak_bytes=prof.get("peak_bytes"))
        if name == "cond":
            c.expect(graph and not graph["captured"] and "cond" in graph["why"], f"cond: expected a refusal naming cond, got {graph}")
        elif c.expect(graph and graph["captured"], f"CUDA graph not captured: {graph and graph.get('why')}"):
            if "replay_matches_eager" in graph:
                c.expect(graph["replay_matches_eager"], "CUDA graph replay outputs differ from eager")
            figures.update(graph_replay_ms=graph["replay_ms"], graph_eager_ms=graph["eager_ms"])
    else:
        c.expect(graph is not None and not graph["captured"], "a CPU run must say the CUDA graph needs a GPU")
    check_numerics(c, rdir, mdir, device, figures)
    if os.path.exists(os.path.join(mdir, "compiled.pt2")):
        check_compiled(c, rdir, mdir, device, figures)
    if info.get("bench") and "torch_eager_ms" in info:
        figures.update(torch_eager_ms=info["torch_eager_ms"], ep_module_ms=info["ep_module_ms"],
                       eager_speedup=info["torch_eager_ms"] / prof["host_total_ms"])
        if "graph_replay_ms" in figures:
            figures["graph_speedup"] = info["torch_eager_ms"] / figures["graph_replay_ms"]
    return c, figures


def check_compiled(c, rdir, mdir, device, figures):
    """exportlens run --compiled: the package's model ran on the device, its outputs are
    torch's own aoti_load_package outputs, close to the program as interpreted, kernels timed."""
    rc = int(open(os.path.join(rdir, "compiled_rc")).read().strip())
    if not c.expect(rc == 0, f"exportlens run --compiled exited {rc}: "
                    f"{open(os.path.join(rdir, 'compiled_stderr.txt')).read().strip()[:400]}"):
        return
    ok, why = close(tuple(load(os.path.join(rdir, "compiled_out.pt"))),
                    tuple(load(os.path.join(mdir, "compiled_outputs.pt"))))
    c.expect(ok, f"compiled model's outputs differ from torch's aoti_load_package on {device}: {why}")
    report = json.load(open(os.path.join(rdir, "compiled.json")))
    text = json.dumps(report)
    c.expect('"kernels"' in text, "the compiled run reported no kernel times")
    figures.update(compiled_report_bytes=len(text))


def check_numerics(c, rdir, mdir, device, figures):
    """exportlens numerics, A on the CPU against B on the device: it ran, compared
    every node, and its outputs' error is torch's own device-vs-CPU difference."""
    rc = int(open(os.path.join(rdir, "numerics_rc")).read().strip())
    if not c.expect(rc in (0, 1), f"exportlens numerics exited {rc}: "
                    f"{open(os.path.join(rdir, 'numerics_stderr.txt')).read().strip()[:400]}"):
        return
    report = json.load(open(os.path.join(rdir, "numerics.json")))
    c.expect(len(report["nodes"]) > 0, "numerics compared no node")
    c.expect(report["first_nonfinite_b"] is None, f"numerics: NaN/Inf made at {report['first_nonfinite_b']} on {device}")
    figures.update(numerics_nodes=len(report["nodes"]), numerics_seconds=report["seconds"],
                   numerics_first_divergent=report["first_divergent"])
    if device == "cpu":
        return
    ours = max((o["stats"]["max_abs"] for o in report["outputs"]), default=0.0)
    torch_diff = max_abs(load(os.path.join(mdir, "device_outputs.pt")), load(os.path.join(mdir, "cpu_outputs.pt")))
    figures.update(numerics_output_max_abs=ours)
    c.expect(abs(ours - torch_diff) <= 1e-5 + 0.1 * torch_diff,
             f"numerics: outputs' max |GPU - CPU| {ours:.3g}, torch's own {torch_diff:.3g}")
    if report["first_divergent"]:
        c.notes.append(f"numerics: first node beyond tolerance on {device}: {report['first_divergent']} "
                       f"(first to introduce error: {report['first_introducing']})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", required=True)
    ap.add_argument("--runs", required=True)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--out", required=True)
    ap.add_argument("--build-seconds", help="file holding the headless build's seconds (absent: not built here)")
    args = ap.parse_args()
    facts = json.load(open(os.path.join(args.models, "torch_facts.json")))
    if args.build_seconds and os.path.exists(args.build_seconds):
        facts["build_seconds"] = int(open(args.build_seconds).read().strip())
    results, lines = {}, []
    lines.append(f"# Device check on {facts['device_name']} (torch {facts['torch']}, CUDA {facts['cuda']})\n")
    if "build_seconds" in facts:
        lines.append(f"Headless CLI built here in {facts['build_seconds']} s.\n")
    lines.append("| program | result | nodes | run ms | node sum ms | host ms | torch eager ms | eager speedup | graph replay ms | graph speedup | kernels | peak MiB | max abs vs CPU |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    failed = False
    for name in facts["models"]:
        c, f = check_model(name, os.path.join(args.models, name), os.path.join(args.runs, name), args.device, facts)
        failed = failed or bool(c.failures)
        results[name] = {"failures": c.failures, "notes": c.notes, "figures": f}
        g = lambda k, fmt="{:.3f}": fmt.format(f[k]) if f.get(k) is not None else "–"
        peak = f"{f['peak_bytes'] / 2**20:.1f}" if f.get("peak_bytes") else "–"
        lines.append(f"| {name} | {'FAIL' if c.failures else 'ok'} | {g('nodes', '{}')} | {g('total_ms')} | {g('node_sum_ms')} | "
                     f"{g('host_total_ms')} | {g('torch_eager_ms')} | {g('eager_speedup', '{:.2f}x')} | {g('graph_replay_ms')} | "
                     f"{g('graph_speedup', '{:.2f}x')} | {g('kernels', '{}')} | {peak} | {g('cpu_max_abs', '{:.3g}')} |")
    for name, r in results.items():
        for what in r["failures"]:
            lines.append(f"- **{name}: FAIL** {what}")
        for what in r["notes"]:
            lines.append(f"- {name}: {what}")
    lines.append("\nResult: " + ("FAILED" if failed else "all checks passed"))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "report.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    with open(os.path.join(args.out, "report.json"), "w") as fh:
        json.dump({"facts": facts, "results": results, "passed": not failed}, fh, indent=1)
    print("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
