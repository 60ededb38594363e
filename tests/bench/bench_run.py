#!/usr/bin/env python3
"""Torch's side of bench_run: small-op programs exported and timed with
ep.module()(*inputs) on the CPU.

Usage:  python bench_run.py --out DIR [--repeat R]

Exports each program to DIR/<name>/program.pt2 with its inputs.pt, then
times ep.module()(*inputs) of the loaded program (torch.no_grad, 20 warm-up
calls, the median of R calls) and writes {name: {"ms": median, "nodes": n}}
to DIR/torch_times.json.
"""
import argparse
import json
import os
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class PointwiseChain(nn.Module):
    """200 elementwise ops on a 16x16 tensor: pure per-op overhead."""

    def forward(self, x):
        for i in range(50):
            x = torch.tanh(x * 1.01 + 0.1) - x * 0.5
        return x


class TinyMLP(nn.Module):
    """8 linear + relu layers, width 32, batch 4."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(32, 32) for _ in range(8))

    def forward(self, x):
        for layer in self.layers:
            x = F.relu(layer(x))
        return x


class TinyAttention(nn.Module):
    """Attention + MLP on 8 tokens of width 32, with layer norms and a residual."""

    def __init__(self, d=32):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj, self.fc1, self.fc2 = nn.Linear(d, 3 * d), nn.Linear(d, d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        a = torch.softmax(q @ k.transpose(-2, -1) / 32 ** 0.5, dim=-1) @ v
        x = x + self.proj(a)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class IndexingMix(nn.Module):
    """Views, slicing, cat, reductions and comparisons on small tensors."""

    def forward(self, x, y):
        a = x[:, 1:].reshape(-1) * 2
        b = torch.cat([a, y.flatten()])
        c = b.view(4, -1).sum(dim=0).clamp(min=0)
        d = torch.where(c > 1, c, -c)
        return d.mean() + d.max(), d.cumsum(0)


def programs():
    torch.manual_seed(0)
    return {
        "pointwise_chain": (PointwiseChain(), (torch.randn(16, 16),)),
        "tiny_mlp": (TinyMLP().eval(), (torch.randn(4, 32),)),
        "tiny_attention": (TinyAttention().eval(), (torch.randn(1, 8, 32),)),
        "indexing_mix": (IndexingMix(), (torch.randn(4, 5), torch.randn(4, 4))),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--repeat", type=int, default=500)
    args = ap.parse_args()
    torch.set_num_threads(1)
    times = {}
    for name, (model, inputs) in programs().items():
        d = os.path.join(args.out, name)
        os.makedirs(d, exist_ok=True)
        torch.export.save(torch.export.export(model, inputs), os.path.join(d, "program.pt2"))
        torch.save(inputs, os.path.join(d, "inputs.pt"))
        ep = torch.export.load(os.path.join(d, "program.pt2"))
        m = ep.module()
        with torch.no_grad():
            for _ in range(20):
                m(*inputs)
            samples = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                m(*inputs)
                samples.append((time.perf_counter() - start) * 1000)
        times[name] = {"ms": statistics.median(samples),
                       "nodes": sum(1 for n in ep.graph.nodes if n.op == "call_function")}
        print(f"bench_run.py: {name}: {times[name]['nodes']} nodes, torch {times[name]['ms']:.4f} ms", flush=True)
    with open(os.path.join(args.out, "torch_times.json"), "w") as f:
        json.dump(times, f, indent=1)


if __name__ == "__main__":
    main()
