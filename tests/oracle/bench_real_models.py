#!/usr/bin/env python3
"""bench_resolve's real-architecture programs: corpus models at the depth of real checkpoints.

Usage:  python bench_real_models.py --out DIR [--only NAME ...]

For each model below (built from corpus_models.py's builders, random
weights), writes DIR/real/<name>.pt2 (exported with Dim.AUTO on its dynamic
dims) and one entry of DIR/real.json: the node count, the spec bench_resolve
re-solves (the corpus' "named" spec: every dynamic dim a fresh Dim), a
second spec for the live edit (the batch bounded), and torch's side: how long
torch.export.export takes with each spec and its outcome (status, range
constraints).
"""

import argparse
import json
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import torch  # noqa: E402

import check_cases  # noqa: E402
import corpus_models as cm  # noqa: E402

# name: (architecture, what it is)
MODELS = {
    "llama_52": (cm.lm_arch("llama_52", "Llama, 52 decoder layers (about 5,000 nodes)", cm.causal_lm(
        "LlamaConfig", "LlamaForCausalLM", num_key_value_heads=1, num_hidden_layers=52, hidden_size=16,
        intermediate_size=32, num_attention_heads=2)), "decoder LM at checkpoint depth"),
    "swin_tiny_depths": (cm.vision_arch("swin_tiny_depths", "Swin-T depths [2, 2, 6, 2], windowed attention",
                                        cm.hf_model("SwinConfig", "SwinForImageClassification",
                                                    wrapper=cm.VisionLogitsOf, image_size=32, patch_size=2,
                                                    embed_dim=8, depths=[2, 2, 6, 2], num_heads=[1, 1, 2, 2],
                                                    window_size=2, num_labels=10), size=32),
                         "windowed-attention vision transformer at Swin-T depth"),
    "resnet_50_depths": (cm.vision_arch("resnet_50_depths", "ResNet-50 depths", cm.hf_model(
        "ResNetConfig", "ResNetForImageClassification", wrapper=cm.VisionLogitsOf, embedding_size=8,
        hidden_sizes=[8, 16, 32, 64], depths=[3, 4, 6, 3], num_labels=10)), "CNN at ResNet-50 depth"),
}


def torch_outcome(arch, spec_text):
    torch._dynamo.reset()
    torch.manual_seed(0)
    model, inputs = arch.build(), arch.inputs()
    t0 = time.monotonic()
    try:
        ep = torch.export.export(model, inputs, dynamic_shapes=check_cases.build_spec(spec_text))
    except Exception as e:  # noqa: BLE001
        ms = (time.monotonic() - t0) * 1000
        return {"status": check_cases.classify(e), "message": str(e).split("\n")[0], "torch_export_ms": ms}
    ms = (time.monotonic() - t0) * 1000
    rc = {str(k): [check_cases.bound(v.lower), check_cases.bound(v.upper)] for k, v in ep.range_constraints.items()}
    return {"status": "ok", "range_constraints": rc, "torch_export_ms": ms}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--only", nargs="+")
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore")
    import logging
    for name in ("transformers", "torch"):
        logging.getLogger(name).setLevel(logging.ERROR)
    os.makedirs(os.path.join(args.out, "real"), exist_ok=True)
    index_path = os.path.join(args.out, "real.json")
    entries = json.load(open(index_path)) if os.path.exists(index_path) else {}
    for name, (arch, what) in MODELS.items():
        if args.only and name not in args.only:
            continue
        torch.manual_seed(0)
        model, inputs = arch.build(), arch.inputs()
        t0 = time.monotonic()
        ep = torch.export.export(model, inputs, dynamic_shapes=check_cases.build_spec(cm.auto_spec_text(arch, inputs)))
        auto_ms = (time.monotonic() - t0) * 1000
        torch.export.save(ep, os.path.join(args.out, "real", name + ".pt2"))
        specs = {n: s for n, s, _ in cm.specs(arch, inputs)}
        entry = {"name": name, "what": what, "nodes": len(ep.graph.nodes), "program": f"real/{name}.pt2",
                 "torch_version": torch.__version__, "torch_export_auto_ms": auto_ms, "specs": {}}
        for spec_name in ("named", "batch"):
            entry["specs"][spec_name] = {"spec": specs[spec_name], **torch_outcome(arch, specs[spec_name])}
        entries[name] = entry
        print(f"{name}: {entry['nodes']} nodes, torch.export "
              + ", ".join(f"{k} {v['torch_export_ms']:.0f} ms ({v['status']})" for k, v in entry["specs"].items()),
              file=sys.stderr, flush=True)
        with open(index_path, "w") as f:
            json.dump(entries, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
