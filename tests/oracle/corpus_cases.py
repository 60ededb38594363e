#!/usr/bin/env python3
"""Oracle for the real-architecture corpus (tests/corpus): torch 2.13 on models nobody here wrote.

Usage:  python corpus_cases.py --out DIR [--libraries LIB ...] [--only NAME ...]

--libraries picks the architectures whose code comes from those libraries
(corpus_models.Arch.library: transformers, torch.nn, timm); timm's run in the
vision venv (corpus_models' docstring). Each run replaces its own libraries'
entries of DIR/manifest.json and keeps the others'.

For every architecture of corpus_models.ARCHITECTURES, DIR/<name>/ gets what
generate_fixtures.py writes for a fixture exported with Dim.AUTO on the
architecture's batch / sequence / spatial dims (program.pt2, print.txt,
inputs.pt, outputs.pt, meta.json, functional.txt, core.txt, decomp.json,
core_outputs.pt), torch's Core ATen program saved and read back (core_program.pt2,
core_loaded.txt: str(torch.export.load(...))), plus

    modules.json  the repeated structure a reader of the model's code sees
                  (corpus_modules.py), made again when its version changes
    checks.json   torch.export's outcome for each spec of corpus_models.specs():
                  [{name, spec, status ("ok" / "violation" / "error"),
                    error_type, message, constraints_violated, violations,
                    suggested_fixes, range_constraints, input_shapes,
                    export_seconds, refined_from}]; a spec marked refine whose
                  outcome is a violation is followed by "<name>_refined",
                  torch's own suggested fixes pasted back
                  (refine_dynamic_shapes_from_suggested_fixes)
    key.txt       what the folder was made from (the architecture's source,
                  torch's version and its library's): an unchanged key skips
                  the architecture, so rebuilds do not export again.

and DIR/manifest.json lists the architectures. EXPECTED gives each spec
case's outcome; generation fails (exit 1, naming the case) when torch's
differs, so a torch or transformers upgrade that changes an outcome is seen.
"""

import argparse
import hashlib
import io
import contextlib
import json
import os
import sys
import time
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import torch  # noqa: E402

import check_cases  # noqa: E402
import corpus_models as cm  # noqa: E402
import corpus_modules  # noqa: E402
import decomp_cases  # noqa: E402
import generate_fixtures as gf  # noqa: E402

# Bumped when what this script writes changes (the key of every cached folder).
# 2: programs saved with their Python-registered ops' schemas (op_schemas.save); 3: torch's Core ATen
# program saved and printed as torch.export.load reads it (core_program.pt2, core_loaded.txt).
GENERATOR_VERSION = "3"

# torch's own lowering refuses these programs (type, start of the message).
LOWERING_REFUSES = {
    # GPT-2's attention merges heads with a view of a non-contiguous tensor under symbolic sizes
    "gpt2": {"core": ("ValueError", "Cannot view a tensor with shape")},
}
decomp_cases.TORCH_REFUSES.update(LOWERING_REFUSES)

# torch.export's outcome for every spec case ("arch/case"): filled from torch's
# answers when the corpus was made, checked on every generation.
EXPECTED = {
    "llama/named": "ok", "llama/batch": "ok",
    "llama_deep/named": "ok", "llama_deep/batch": "ok",
    "mistral/named": "ok", "mistral/batch": "ok",
    "qwen2/named": "ok", "qwen2/batch": "ok",
    "gemma/named": "ok", "gemma/batch": "ok",
    "phi/named": "ok", "phi/batch": "ok",
    "gpt_neox/named": "ok", "gpt_neox/batch": "ok",
    "falcon/named": "ok", "falcon/batch": "ok",
    "mixtral/named": "ok", "mixtral/batch": "ok",
    "qwen2_moe/named": "ok", "qwen2_moe/batch": "ok",
    "opt/named": "ok", "opt/batch": "ok",
    # learned positions (max 64): the sequence gets an upper bound
    "bert/named": "violation", "bert/named_refined": "ok", "bert/batch": "ok",
    "distilbert/named": "violation", "distilbert/named_refined": "ok", "distilbert/batch": "ok",
    "t5/named": "ok", "t5/batch": "ok",
    # fixed image size: position embeddings specialize height and width
    "vit/named": "violation", "vit/named_refined": "ok", "vit/batch": "ok",
    "dinov2/named": "violation", "dinov2/named_refined": "ok", "dinov2/batch": "ok",
    # torch's first fixes leave guards of a second round
    "beit/named": "violation", "beit/named_refined": "violation", "beit/batch": "ok",
    "resnet/named": "violation", "resnet/named_refined": "violation", "resnet/batch": "ok",
    "swin/named": "ok", "swin/batch": "ok",
    "segformer/named": "violation", "segformer/named_refined": "violation", "segformer/batch": "ok",
    "resnet_deep/named": "violation", "resnet_deep/named_refined": "violation", "resnet_deep/batch": "ok",
    "convnext/named": "violation", "convnext/named_refined": "ok", "convnext/batch": "ok",
    "regnet/named": "violation", "regnet/named_refined": "violation", "regnet/batch": "ok",
    "mobilenet_v2/named": "violation", "mobilenet_v2/named_refined": "ok", "mobilenet_v2/batch": "ok",
    "efficientnet/named": "violation", "efficientnet/named_refined": "ok", "efficientnet/batch": "ok",
    "bit/named": "violation", "bit/named_refined": "violation", "bit/batch": "ok",
    "poolformer/named": "violation", "poolformer/named_refined": "ok", "poolformer/batch": "ok",
    "nn_transformer/named": "ok", "nn_transformer/batch": "ok",
    "gru/named": "violation", "gru/named_refined": "ok", "gru/batch": "ok",
    "gpt2/named": "ok", "gpt2/batch": "ok",
    # torch.nn.LSTM's export specializes the number of steps (steps = 5)
    "lstm/named": "violation", "lstm/named_refined": "ok", "lstm/batch": "ok",
    "gemma2/named": "ok", "gemma2/batch": "ok",
    # learned positions (max 64) / relative-position buckets: the sequence gets an upper bound
    "albert/named": "violation", "albert/named_refined": "ok", "albert/batch": "ok",
    "deberta_v2/named": "violation", "deberta_v2/named_refined": "ok", "deberta_v2/batch": "ok",
    # a fixed number of position embeddings: height and width specialize
    "clip_vision/named": "violation", "clip_vision/named_refined": "ok", "clip_vision/batch": "ok",
    "whisper_encoder/named": "ok", "whisper_encoder/batch": "ok",
    # the conv feature encoder's strides: samples get a lower bound
    "wav2vec2/named": "violation", "wav2vec2/named_refined": "ok", "wav2vec2/batch": "ok",
    # timm: static height and width (math.ceil of a size cannot be saved)
    "timm_mobilevit/named": "ok", "timm_mobilevit/batch": "ok",
    # stride-2 stages: a size that must not reach 1, no fix torch can suggest (!= 1), or a lower bound
    # for one side first and a second round of the same guards after it
    "timm_efficientvit/named": "violation", "timm_efficientvit/named_refined": "violation",
    "timm_efficientvit/batch": "ok",
    "timm_levit/named": "violation", "timm_levit/batch": "ok",
    "timm_repvgg/named": "violation", "timm_repvgg/batch": "ok",
    "timm_fastvit/named": "violation", "timm_fastvit/named_refined": "violation", "timm_fastvit/batch": "ok",
    "timm_convnextv2/named": "violation", "timm_convnextv2/named_refined": "violation",
    "timm_convnextv2/batch": "ok",
    # window and grid partitions, attention biases of a fixed resolution: lower bounds or specializations
    "timm_maxvit/named": "violation", "timm_maxvit/named_refined": "ok", "timm_maxvit/batch": "ok",
    "timm_tiny_vit/named": "violation", "timm_tiny_vit/named_refined": "ok", "timm_tiny_vit/batch": "ok",
    "timm_swin/named": "violation", "timm_swin/named_refined": "ok", "timm_swin/batch": "ok",
    "timm_efficientformerv2/named": "violation", "timm_efficientformerv2/named_refined": "ok",
    "timm_efficientformerv2/batch": "ok",
    "timm_edgenext/named": "violation", "timm_edgenext/named_refined": "ok", "timm_edgenext/batch": "ok",
    # torch's higher-order ops (corpus_programs.py)
    "hop_while_loop/named": "ok", "hop_while_loop/batch": "ok",
    "hop_scan/named": "ok", "hop_scan/batch": "ok",
    "hop_cond_in_map/named": "ok", "hop_cond_in_map/batch": "ok",
    "hop_invoke_subgraph/named": "ok", "hop_invoke_subgraph/batch": "ok",
    "hop_autocast/named": "ok", "hop_autocast/batch": "ok",
    "hop_no_grad/named": "ok", "hop_no_grad/batch": "ok",
    "hop_mutating_op/named": "ok", "hop_mutating_op/batch": "ok",
    "hop_mutating_list_op/named": "ok", "hop_mutating_list_op/batch": "ok",
    # pt2e: the converted module's graph has its example shapes written in, so the batch specializes
    "pt2e_mlp/named": "violation", "pt2e_mlp/named_refined": "ok", "pt2e_mlp/batch": "violation",
    "pt2e_cnn/named": "violation", "pt2e_cnn/named_refined": "ok", "pt2e_cnn/batch": "violation",
}


def key_of(arch) -> str:
    text = "\n".join([GENERATOR_VERSION, torch.__version__, cm.library_version(arch.library), arch.source_key()])
    return hashlib.sha256(text.encode()).hexdigest()


def export_spec(arch, spec_text):
    """torch.export's outcome for the spec (check_cases' record) and how long export took."""
    torch._dynamo.reset()
    torch.manual_seed(gf.SEED)
    model = arch.build()
    inputs = arch.inputs()
    spec = check_cases.build_spec(spec_text)
    t0 = time.monotonic()
    try:
        ep = torch.export.export(model, inputs, dynamic_shapes=spec)
    except Exception as e:  # noqa: BLE001
        seconds = time.monotonic() - t0
        msg = str(e).split("\n\nThe error above occurred when calling torch.export.export")[0]
        rec = {"status": check_cases.classify(e), "error_type": type(e).__name__, "message": msg}
        rec.update(check_cases.parse_message(msg))
        return rec, spec, seconds
    seconds = time.monotonic() - t0
    rc = {str(k): [check_cases.bound(v.lower), check_cases.bound(v.upper)] for k, v in ep.range_constraints.items()}
    return {"status": "ok", "range_constraints": rc, "input_shapes": check_cases.user_input_shapes(ep)}, spec, seconds


def run_checks(arch, inputs, problems):
    cases = [dict(name=n, spec=s, refine=r) for n, s, r in cm.specs(arch, inputs)]
    out = []
    i = 0
    while i < len(cases):
        case = cases[i]
        i += 1
        rec, spec, seconds = export_spec(arch, case["spec"])
        entry = {"name": case["name"], "spec": case["spec"]}
        entry.update(rec)
        entry["export_seconds"] = round(seconds, 3)
        if case.get("refined_from"):
            entry["refined_from"] = case["refined_from"]
        if case.get("refine") and rec["status"] == "violation" and rec.get("suggested_fixes"):
            fixed = torch.export.dynamic_shapes.refine_dynamic_shapes_from_suggested_fixes(rec["message"], spec)
            cases.insert(i, dict(name=case["name"] + "_refined", spec=check_cases.spec_text_of(fixed),
                                 refined_from=case["name"]))
        out.append(entry)
    return out


def check_expected(arch, checks, problems):
    """Each spec case's outcome against EXPECTED (cached folders too)."""
    for c in checks:
        key = f"{arch.name}/{c['name']}"
        expected = EXPECTED.get(key)
        if expected is None:
            problems.append(f"{key}: no expected outcome (torch says {c['status']}); add it to EXPECTED")
        elif c["status"] != expected:
            problems.append(f"{key}: expected {expected}, torch says {c['status']}"
                            + (f" ({c.get('error_type')}: {c.get('message', '')[:500]})" if c["status"] != "ok" else ""))


def write_modules(arch, out_dir):
    """modules.json (corpus_modules.py): the reader's runs, made again when its version changed."""
    path = os.path.join(out_dir, "modules.json")
    if os.path.exists(path):
        with open(path) as f:
            if json.load(f).get("version") == corpus_modules.MODULES_VERSION:
                return
    torch.manual_seed(gf.SEED)
    gf.write_json(path, corpus_modules.read_runs(arch.build()))


def run_arch(arch, out_root, problems):
    out_dir = os.path.join(out_root, arch.name)
    key = key_of(arch)
    key_path = os.path.join(out_dir, "key.txt")
    if os.path.exists(key_path) and open(key_path).read().strip() == key \
            and os.path.exists(os.path.join(out_dir, "checks.json")):
        with open(os.path.join(out_dir, "meta.json")) as f:
            meta = json.load(f)
        with open(os.path.join(out_dir, "checks.json")) as f:
            check_expected(arch, json.load(f), problems)
        write_modules(arch, out_dir)
        return meta, True
    problems_before = len(problems)
    torch.manual_seed(gf.SEED)
    probe_inputs = arch.inputs()
    fx = gf.Fixture(arch.name, "corpus", f"{arch.description} ({arch.family}; {arch.library}, random "
                    "weights, small widths)", arch.build, arch.inputs, "ok",
                    dynamic_shapes=cm.auto_spec_text(arch, probe_inputs), save_lowered=True)
    meta = gf.run_fixture(fx, out_root)  # clears the folder first
    meta["family"] = arch.family
    meta["arg_names"] = list(arch.arg_names)
    if meta["status"] != "ok":
        problems.append(f"{arch.name}: torch.export with Dim.AUTO failed: {meta.get('error_type')}: "
                        f"{meta.get('error_message', '')[:500]}")
    else:
        checks = run_checks(arch, probe_inputs, problems)
        gf.write_json(os.path.join(out_dir, "checks.json"), checks)
    gf.write_json(os.path.join(out_dir, "meta.json"), meta)
    write_modules(arch, out_dir)
    if len(problems) == problems_before:  # a folder that failed is made again next time
        with open(key_path, "w") as f:
            f.write(key + "\n")
        check_expected(arch, checks, problems)  # an unexpected outcome is reported, the export kept
    return meta, False


def write_manifest(path, entries, libraries):
    """This run's entries, in corpus order, after the other libraries' entries of an earlier run."""
    library_of = {a.name: a.library for a in cm.ARCHITECTURES}
    kept = []
    if os.path.exists(path):
        with open(path) as f:
            kept = [e for e in json.load(f) if e["name"] in library_of and library_of[e["name"]] not in libraries]
    order = {a.name: i for i, a in enumerate(cm.ARCHITECTURES)}
    gf.write_json(path, sorted(kept + entries, key=lambda e: order[e["name"]]))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--libraries", nargs="+", metavar="LIB", default=sorted({a.library for a in cm.ARCHITECTURES}))
    p.add_argument("--only", nargs="+", metavar="NAME")
    args = p.parse_args(argv)
    for library in args.libraries:
        try:
            cm.library_version(library)
        except ImportError as e:
            print(f"corpus_cases: {e}: packaging/setup.sh installs {library} (timm: into the vision venv)",
                  file=sys.stderr)
            return 1
    selected = [a for a in cm.ARCHITECTURES if a.library in args.libraries]
    if args.only:
        unknown = [n for n in args.only if not cm.by_name(n)]
        if unknown:
            p.error(f"unknown architecture(s): {', '.join(unknown)}")
        selected = [cm.by_name(n) for n in args.only]
    os.makedirs(args.out, exist_ok=True)
    warnings.filterwarnings("ignore")
    import logging
    for name in ("transformers", "torch"):
        logging.getLogger(name).setLevel(logging.ERROR)
    manifest, problems = [], []
    t_all = time.monotonic()
    for arch in selected:
        t0 = time.monotonic()
        sink = io.StringIO()
        try:
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                meta, cached = run_arch(arch, args.out, problems)
        except Exception:  # noqa: BLE001
            problems.append(f"{arch.name}: failed:\n{traceback.format_exc()}")
            print(f"{arch.name}: FAILED (see below)", flush=True)
            continue
        manifest.append({"name": arch.name, "family": arch.family, "library": arch.library,
                         "status": meta["status"], "description": arch.description})
        print(f"{arch.name}: {meta['status']} ({'cached' if cached else f'{time.monotonic() - t0:.1f}s'})", flush=True)
    if not args.only:
        write_manifest(os.path.join(args.out, "manifest.json"), manifest, set(args.libraries))
    print(f"{len(manifest)} architectures in {time.monotonic() - t_all:.1f}s -> {args.out}", file=sys.stderr)
    if problems:
        print(f"\n{len(problems)} problem(s):", flush=True)
        for pr in problems:
            print(pr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
