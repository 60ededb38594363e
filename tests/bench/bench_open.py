#!/usr/bin/env python3
"""The open benchmark's program and torch's side of it: a 50,000-node program.

Usage:  python bench_open.py --out DIR [--layers N] [--repeat N]

Exports a stack of the re-solve benchmark's transformer blocks (about 38
nodes a block; 1,316 blocks make 50,000 nodes) with every input dim
Dim.AUTO, non-strict (the export takes about two minutes, once), and writes
DIR/open.pt2 and DIR/open.json: the node count and how long torch.export.load
takes to open the same file (median of --repeat runs; one run takes torch
about ten minutes of CPU, most of it turning JSON into its schema dataclasses).
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
from bench_model import D_MODEL, Stack  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--layers", type=int, default=1316)
    p.add_argument("--repeat", type=int, default=1)  # one torch.export.load of it takes minutes
    p.add_argument("--keep", action="store_true", help="reuse DIR/open.pt2 if it is there")
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore")
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "open.pt2")
    export_s = None
    if not (args.keep and os.path.exists(path)):
        torch.manual_seed(0)
        model = Stack(args.layers).eval()
        x = torch.randn(4, 16, D_MODEL)
        t0 = time.monotonic()
        ep = torch.export.export(model, (x,), dynamic_shapes=((Dim.AUTO, Dim.AUTO, Dim.AUTO),), strict=False)
        export_s = time.monotonic() - t0
        torch.export.save(ep, path)
        del ep
    nodes = None
    times, cpu = [], []
    for _ in range(args.repeat):
        t0, c0 = time.monotonic(), time.process_time()
        loaded = torch.export.load(path)
        times.append(time.monotonic() - t0)
        cpu.append(time.process_time() - c0)
        nodes = len(loaded.graph.nodes)
        del loaded
    info = {"layers": args.layers, "nodes": nodes, "bytes": os.path.getsize(path), "torch_version": torch.__version__,
            "torch_export_ms": export_s * 1000 if export_s is not None else None, "torch_load_ms": statistics.median(times) * 1000,
            "torch_load_runs_ms": [t * 1000 for t in times],
            "torch_load_cpu_ms": statistics.median(cpu) * 1000}
    with open(os.path.join(args.out, "open.json"), "w") as f:
        json.dump(info, f, indent=2)
        f.write("\n")
    print(f"{nodes} nodes; torch.export.load: {info['torch_load_ms']:.0f} ms", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
