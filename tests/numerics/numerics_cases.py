#!/usr/bin/env python3
"""torch's own answers for the numerics suites (exportlens numerics).

Usage:  python numerics_cases.py --corpus CORPUS_DIR --out DIR

Writes, with the venv's torch (and torchao for the quantized case):

  DIR/bf16_real.json       per node of the corpus' BERT (CORPUS_DIR/bert): torch's max |b - a|
                           between the exported program run in bfloat16 (module.to(bf16),
                           floating inputs cast) and in float32, both through an FX interpreter
  DIR/nan/                 a program that takes the log of a negative intermediate:
                           program.pt2, inputs.pt, expected.json (the first node whose finite
                           inputs give NaN/Inf, found by running it through an FX interpreter)
  DIR/quantized/           a small conv + linear model exported in float (float.pt2) and after
                           torchao's pt2e quantization (quantized.pt2), inputs.pt, torch's outputs
                           of both (outputs.pt: (float, quantized)) and per shared node name
                           torch's max |quantized - float| (expected.json)
  DIR/reference/           the BERT's values recorded by exportlens_reference (values.pt)
"""

import argparse
import json
import os
import shutil
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "resources", "python"))
import exportlens_reference  # noqa: E402  (the hook the project ships)

# A real transformer from the corpus (transformers' BERT) that torch itself runs in
# bfloat16: programs whose rotary embeddings assert float32 metadata do not.
REAL_BLOCK = "bert"


def first_nonfinite(module, inputs):
    """The first call whose tensor inputs are all finite and whose output is not."""
    class Watch(torch.fx.Interpreter):
        found = None

        def run_node(self, n):
            out = super().run_node(n)
            if self.found is None and n.op == "call_function" and isinstance(out, torch.Tensor):
                ins = [self.env[a] for a in n.all_input_nodes if isinstance(self.env.get(a), torch.Tensor)]
                if all(bool(t.isfinite().all()) for t in ins if t.is_floating_point()) and not bool(out.isfinite().all()):
                    self.found = n.name
            return out

    w = Watch(module)
    with torch.no_grad():
        w.run(*torch.utils._pytree.tree_flatten(inputs)[0])
    return w.found


def max_abs(a, b):
    a, b = a.double(), b.double()
    both = a.isfinite() & b.isfinite()
    return float((b - a).abs().where(both, torch.zeros_like(a)).max()) if a.numel() else 0.0


def bf16_drift(corpus, out):
    ep = torch.export.load(os.path.join(corpus, REAL_BLOCK, "program.pt2"))
    inputs = torch.load(os.path.join(corpus, REAL_BLOCK, "inputs.pt"))
    a = exportlens_reference.values(ep, inputs)
    b = exportlens_reference.values(ep, inputs, dtype=torch.bfloat16)
    drift = {name: max_abs(a[name], b[name]) for name in a if name in b and a[name].shape == b[name].shape}
    with open(os.path.join(out, "bf16_real.json"), "w") as f:
        json.dump(drift, f, indent=1)


class NanOrigin(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(6, 6)

    def forward(self, x):
        h = self.lin(x)
        shifted = h - 10.0          # every element negative
        logged = torch.log(shifted)  # NaN here
        return torch.tanh(logged) + h


def nan_case(out):
    d = os.path.join(out, "nan")
    os.makedirs(d, exist_ok=True)
    torch.manual_seed(0)
    m = NanOrigin().eval()
    x = torch.rand(3, 6)
    ep = torch.export.export(m, (x,))
    torch.export.save(ep, os.path.join(d, "program.pt2"))
    torch.save((x,), os.path.join(d, "inputs.pt"))
    with open(os.path.join(d, "expected.json"), "w") as f:
        json.dump({"first_nonfinite": first_nonfinite(ep.module(), (x,))}, f)


class ConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc1 = torch.nn.Linear(8 * 8 * 8, 32)
        self.fc2 = torch.nn.Linear(32, 10)

    def forward(self, x):
        h = torch.relu(self.conv(x)).flatten(1)
        return self.fc2(torch.relu(self.fc1(h)))


def quantized_case(out):
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq

    d = os.path.join(out, "quantized")
    os.makedirs(d, exist_ok=True)
    torch.manual_seed(0)
    m = ConvNet().eval()
    x = torch.randn(2, 3, 8, 8)
    float_ep = torch.export.export(m, (x,))
    quantizer = xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config())
    prepared = prepare_pt2e(float_ep.module(), quantizer)
    for _ in range(4):
        prepared(torch.randn(2, 3, 8, 8))
    quantized_ep = torch.export.export(convert_pt2e(prepared), (x,))
    torch.export.save(float_ep, os.path.join(d, "float.pt2"))
    torch.export.save(quantized_ep, os.path.join(d, "quantized.pt2"))
    torch.save((x,), os.path.join(d, "inputs.pt"))
    with torch.no_grad():
        torch.save((float_ep.module()(x), quantized_ep.module()(x)), os.path.join(d, "outputs.pt"))
    fa = exportlens_reference.values(float_ep, (x,))
    qa = exportlens_reference.values(quantized_ep, (x,))
    shared = {n: max_abs(fa[n], qa[n]) for n in fa if n in qa and fa[n].shape == qa[n].shape}
    inserted = sorted(n for n in qa if n not in fa)
    with open(os.path.join(d, "expected.json"), "w") as f:
        json.dump({"shared": shared, "inserted": inserted}, f, indent=1)


def reference_case(corpus, out):
    d = os.path.join(out, "reference")
    os.makedirs(d, exist_ok=True)
    ep = torch.export.load(os.path.join(corpus, REAL_BLOCK, "program.pt2"))
    inputs = torch.load(os.path.join(corpus, REAL_BLOCK, "inputs.pt"))
    exportlens_reference.record(ep, inputs, path=os.path.join(d, "values.pt"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    bf16_drift(args.corpus, args.out)
    nan_case(args.out)
    quantized_case(args.out)
    reference_case(args.corpus, args.out)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump({"cases": ["bf16_real", "nan", "quantized", "reference"]}, f)


if __name__ == "__main__":
    main()
