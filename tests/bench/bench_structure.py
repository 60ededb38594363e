#!/usr/bin/env python3
"""torch's side of bench_structure: what a Python user would write to find repeated modules.

Usage:  python bench_structure.py FILE.pt2

Loads the program with torch.export.load and times (median of 5) a walk over ep.graph
that gives every module call (nn_module_stack chain) the tuple of (target, shape) of its
nodes and hashes it, then groups consecutive sibling calls with equal hashes: the
nearest thing to ExportLens's fingerprints (no wiring, attributes or weights).
Prints `torch_python_fingerprint_ms` for the training program.
"""

import statistics
import sys
import time
import warnings

import torch


def fingerprint(ep):
    seqs, parent = {}, {}
    for n in ep.graph.nodes:
        stack = n.meta.get("nn_module_stack") or {}
        keys = ()
        val = n.meta.get("val")
        item = (str(n.target), tuple(str(s) for s in val.shape) if isinstance(val, torch.Tensor) else None)
        for key in stack:
            up, keys = keys, keys + (key,)
            parent.setdefault(keys, up)
            seqs.setdefault(keys, []).append(item)
    hashes = {k: hash(tuple(v)) for k, v in seqs.items()}
    children = {}
    for k, up in parent.items():
        children.setdefault(up, []).append(k)
    runs = 0
    for kids in children.values():
        for a, b in zip(kids, kids[1:]):
            runs += hashes[a] == hashes[b]
    return runs


def main():
    warnings.filterwarnings("ignore")
    ep = torch.export.load(sys.argv[1])
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        fingerprint(ep)
        times.append((time.perf_counter() - t0) * 1000)
    print(f"torch_python_fingerprint_ms {statistics.median(times):.2f}   (training program, "
          f"{len(ep.graph.nodes)} nodes: a Python walk over ep.graph, bench_structure.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
