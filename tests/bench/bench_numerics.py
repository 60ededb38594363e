#!/usr/bin/env python3
"""torch's side of bench_numerics: ep.module()(*inputs) in fp32 and in bf16 (module.to(bf16)).

Usage: python bench_numerics.py PROGRAM.pt2 INPUTS.pt [--core] [--repeat N] --out OUT.json
(--core: the program lowered with ep.run_decompositions() first, as the C++ side lowers it).
Writes the median milliseconds of each: {"fp32_ms": ..., "bf16_ms": ...}.
"""
import argparse
import json
import statistics
import time

import torch


def timed(module, inputs, repeat):
    times = []
    with torch.no_grad():
        module(*inputs)  # warm up
        for _ in range(repeat):
            start = time.perf_counter()
            module(*inputs)
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("inputs")
    ap.add_argument("--core", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    ep = torch.export.load(a.program)
    if a.core:
        ep = ep.run_decompositions()
    inputs = torch.load(a.inputs)
    fp32 = timed(ep.module(), inputs, a.repeat)
    bf16_inputs = tuple(x.to(torch.bfloat16) if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs)
    try:
        bf16 = timed(ep.module().to(torch.bfloat16), bf16_inputs, a.repeat)
    except Exception:  # noqa: BLE001 - a program torch cannot run in bf16 (float32 asserts)
        bf16 = float("nan")
    with open(a.out, "w") as f:
        json.dump({"fp32_ms": fp32, "bf16_ms": bf16}, f)


if __name__ == "__main__":
    main()
