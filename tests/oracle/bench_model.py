#!/usr/bin/env python3
"""The re-solve benchmark's program: a deep stack of transformer blocks.

Usage:  python bench_model.py --out DIR [--layers N]

Writes DIR/transformer.pt2 (exported with every input dim Dim.AUTO) and
DIR/bench.json: the node count, the spec the benchmark re-solves (Python
syntax) and how long torch.export.export takes on the same model with that
spec (median of a few runs), the oracle's side of the comparison.
"""

import argparse
import json
import os
import statistics
import sys
import time
import warnings

import torch
from torch.export import Dim

D_MODEL, HEADS = 32, 4

SPEC = '''\
batch = Dim("batch", max=64)
seq = Dim("seq", min=4, max=1024)
dynamic_shapes = {"x": (batch, seq, None)}
'''


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = torch.nn.LayerNorm(D_MODEL)
        self.qkv = torch.nn.Linear(D_MODEL, 3 * D_MODEL)
        self.proj = torch.nn.Linear(D_MODEL, D_MODEL)
        self.ln2 = torch.nn.LayerNorm(D_MODEL)
        self.fc1 = torch.nn.Linear(D_MODEL, 4 * D_MODEL)
        self.fc2 = torch.nn.Linear(4 * D_MODEL, D_MODEL)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(D_MODEL, dim=-1)
        q = q.view(b, t, HEADS, d // HEADS).transpose(1, 2)
        k = k.view(b, t, HEADS, d // HEADS).transpose(1, 2)
        v = v.view(b, t, HEADS, d // HEADS).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / (d // HEADS) ** 0.5)
        att = att.softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        x = x + self.proj(y)
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln2(x))))


class Stack(torch.nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.blocks = torch.nn.ModuleList(Block() for _ in range(layers))

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return x


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--layers", type=int, default=132)  # ~38 nodes a block: >= 5,000 nodes
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore")
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    model = Stack(args.layers).eval()
    x = torch.randn(4, 16, D_MODEL)

    t0 = time.monotonic()
    ep = torch.export.export(model, (x,), dynamic_shapes=((Dim.AUTO, Dim.AUTO, Dim.AUTO),))
    auto_s = time.monotonic() - t0
    torch.export.save(ep, os.path.join(args.out, "transformer.pt2"))
    nodes = len(ep.graph.nodes)

    ns = {"Dim": Dim, "torch": torch}
    exec(SPEC, ns)
    times = []
    for _ in range(args.repeat):
        torch._dynamo.reset()
        t0 = time.monotonic()
        spec_ep = torch.export.export(model, (x,), dynamic_shapes=ns["dynamic_shapes"])
        times.append(time.monotonic() - t0)
    ranges = {str(k): [str(v.lower), str(v.upper)] for k, v in spec_ep.range_constraints.items()}
    shape = [str(d) for d in next(n for n in spec_ep.graph.nodes if n.op == "placeholder" and n.name == "x").meta["val"].shape]
    info = {"layers": args.layers, "nodes": nodes, "spec": SPEC, "torch_version": torch.__version__,
            "torch_export_auto_ms": auto_s * 1000, "torch_export_spec_ms": statistics.median(times) * 1000,
            "torch_export_spec_runs_ms": [t * 1000 for t in times],
            "range_constraints": ranges, "input_shape": shape}
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump(info, f, indent=2)
        f.write("\n")
    print(f"{nodes} nodes; torch.export with the spec: {info['torch_export_spec_ms']:.0f} ms", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
