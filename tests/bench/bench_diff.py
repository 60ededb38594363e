#!/usr/bin/env python3
"""bench_diff's programs: bench_model.py's stack of transformer blocks exported twice.

Usage:  python bench_diff.py --out DIR [--layers N]

Writes DIR/a.pt2 (N blocks, every input dim Dim.AUTO, as bench_model.py exports them) and
DIR/b.pt2: the same model with one block's GELU replaced by ReLU (block N/2, still a Block)
and a bottleneck adapter inserted at N/4, so the diff has something to find in a program of
the same size. The
benchmark lowers both to Core ATen (about 66 nodes a block) and diffs them.
"""

import argparse
import copy
import os
import sys
import types
import warnings

import torch
from torch.export import Dim

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
import bench_model  # noqa: E402


def relu_forward(self, x):
    """Block.forward with ReLU for GELU: bound to one block, which stays a Block."""
    b, t, d = x.shape
    q, k, v = self.qkv(self.ln1(x)).split(bench_model.D_MODEL, dim=-1)
    heads = bench_model.HEADS
    q = q.view(b, t, heads, d // heads).transpose(1, 2)
    k = k.view(b, t, heads, d // heads).transpose(1, 2)
    v = v.view(b, t, heads, d // heads).transpose(1, 2)
    att = (q @ k.transpose(-2, -1)) * (1.0 / (d // heads) ** 0.5)
    y = (att.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, t, d)
    x = x + self.proj(y)
    return x + self.fc2(torch.relu(self.fc1(self.ln2(x))))


class Adapter(torch.nn.Module):
    """A bottleneck adapter with a residual: a block of another class inserted into the stack."""

    def __init__(self, d=bench_model.D_MODEL, r=8):
        super().__init__()
        self.down = torch.nn.Linear(d, r)
        self.up = torch.nn.Linear(r, d)

    def forward(self, x):
        return x + self.up(torch.relu(self.down(x)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--layers", type=int, default=160)
    args = p.parse_args()
    warnings.filterwarnings("ignore")
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    a = bench_model.Stack(args.layers).eval()
    b = copy.deepcopy(a)
    changed = b.blocks[args.layers // 2]
    changed.forward = types.MethodType(relu_forward, changed)
    b.blocks.insert(args.layers // 4, Adapter())
    x = torch.randn(4, 16, bench_model.D_MODEL)
    shapes = ((Dim.AUTO, Dim.AUTO, Dim.AUTO),)
    for name, model in (("a", a), ("b", b)):
        ep = torch.export.export(model.eval(), (x,), dynamic_shapes=shapes)
        torch.export.save(ep, os.path.join(args.out, name + ".pt2"))
        print(f"{name}.pt2: {len(ep.graph.nodes)} nodes")


if __name__ == "__main__":
    main()
