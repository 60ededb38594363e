#!/usr/bin/env python3
"""torch.export's side of bench_trace: how long export takes on the Python
originals of the C++ tracer's ports, in the same run as the C++ side.

Usage:  python bench_trace.py [--repeat N] [--blocks N] [--only NAME ...]

Prints one JSON object: {"examples": {fixture: {"ms": median, "status": ...}},
"transformer": {"ms": median, "nodes": n, "blocks": n}}.  The seed examples
are the oracle's fixtures (tests/oracle/generate_fixtures.py); the
transformer stack mirrors bench_trace.cpp's TransformerStack line for line.
Failing examples are timed until torch raises (that is what export costs).
"""

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "oracle"))

import torch  # noqa: E402
from torch.export import Dim  # noqa: E402

import generate_fixtures as gf  # noqa: E402

D_MODEL, HEADS = 32, 4


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
        b, t = x.shape[0], x.shape[1]
        q, k, v = self.qkv(self.ln1(x)).split(D_MODEL, dim=-1)
        q = q.view(b, t, HEADS, D_MODEL // HEADS).transpose(1, 2)
        k = k.view(b, t, HEADS, D_MODEL // HEADS).transpose(1, 2)
        v = v.view(b, t, HEADS, D_MODEL // HEADS).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / (D_MODEL // HEADS) ** 0.5)
        y = att.softmax(dim=-1) @ v
        y = y.transpose(1, 2).reshape(b, t, D_MODEL)
        x = x + self.proj(y)
        x = x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln2(x))))
        return x


class TransformerStack(torch.nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.blocks = torch.nn.ModuleList([Block() for _ in range(blocks)])

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


TRANSFORMER_SPEC = {"x": (Dim.AUTO, Dim.AUTO, None)}


def timed(fn, repeat):
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), result


def export_fixture(fx):
    torch._dynamo.reset()
    torch.manual_seed(gf.SEED)
    model, inputs = fx.model(), fx.inputs()
    spec = gf.build_dynamic_shapes(fx.dynamic_shapes, inputs)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            torch.export.export(model, inputs, dynamic_shapes=spec, strict=fx.strict)
        return "ok"
    except Exception:  # noqa: BLE001  (timed until torch raises)
        return "error"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--blocks", type=int, default=40)
    p.add_argument("--only", nargs="*")
    args = p.parse_args()
    warnings.filterwarnings("ignore")
    out = {"torch_version": torch.__version__, "examples": {}}
    for fx in gf.FIXTURES:
        if args.only and fx.name not in args.only:
            continue
        ms, status = timed(lambda: export_fixture(fx), args.repeat)
        out["examples"][fx.name] = {"ms": ms, "status": status}
    torch.manual_seed(0)
    stack = TransformerStack(args.blocks)
    x = torch.randn(2, 16, D_MODEL)
    ms, ep = timed(lambda: torch.export.export(stack, (x,), dynamic_shapes=TRANSFORMER_SPEC), args.repeat)
    nodes = sum(1 for n in ep.graph.nodes if n.op == "call_function")
    out["transformer"] = {"ms": ms, "nodes": nodes, "blocks": args.blocks}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
