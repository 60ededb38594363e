#!/usr/bin/env python3
"""Torch's side of bench_decompose: ep.run_decompositions() timed on .pt2 files.

Usage:  python bench_decompose.py --stack STACK.pt2 [--depth N] --out TIMES.json [--repeat R] PROGRAM.pt2 ...

Exports the transformer stack (tests/oracle/decomp_cases.py's TransformerStack)
to STACK.pt2 first if that file does not exist, then loads every program
(the stack included) with torch.export.load and times ep.run_decompositions()
(the default Core ATen table): one warm-up call, then the median of R calls.
Writes {path: {"seconds": s, "nodes": n} | {"error": text}} to TIMES.json.
"""

import argparse
import json
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))

import torch  # noqa: E402

import seed_models  # noqa: E402,F401  (registers the custom op some fixtures call)


def export_stack(path, depth):
    import decomp_cases  # noqa: E402

    torch.manual_seed(0)
    model = decomp_cases.TransformerStack(depth).eval()
    ep = torch.export.export(model, (torch.randn(2, 8, 16),))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    torch.export.save(ep, path)


def count_nodes(ep):
    return sum(1 for n in ep.graph.nodes if n.op == "call_function")


def time_program(path, repeat):
    ep = torch.export.load(path)
    ep.run_decompositions()  # warm-up: torch collects its op tables once
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        ep.run_decompositions()
        times.append(time.perf_counter() - t0)
    return {"seconds": statistics.median(times), "nodes": count_nodes(ep)}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--stack", required=True)
    p.add_argument("--depth", type=int, default=44)
    p.add_argument("--out", required=True)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("programs", nargs="*")
    args = p.parse_args()
    warnings.filterwarnings("ignore")
    if not os.path.exists(args.stack):
        export_stack(args.stack, args.depth)
    results = {}
    for path in list(args.programs) + [args.stack]:
        try:
            results[path] = time_program(path, args.repeat)
        except Exception as e:  # noqa: BLE001  (some reloaded programs torch cannot lower)
            results[path] = {"error": f"{type(e).__name__}: {e}"[:300]}
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
