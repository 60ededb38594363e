#!/usr/bin/env python3
"""The oracle of test_torch_load: torch.save archives of every kind of value
ExportLens reads from pickles, and what torch.load makes of each.

Usage: python torch_load_cases.py OUT_DIR

For each case it writes OUT_DIR/<case>.pt (torch.save, or LibTorch's pickler
through torch._C._pickle_save) and lists in OUT_DIR/cases.json what
torch.load(weights_only=True) returns for it, as a tree:
  {"kind": "none" | "bool" | "int" | "float" | "str", "value": ...}
  {"kind": "tuple" | "list", "items": [...]}, {"kind": "dict", "items": [[key, value], ...]}
  {"kind": "tensor", "dtype": "torch.float32", "sizes": [...], "strides": [...],
   "offset": n, "values": [...] (float64, complex as [re, im] pairs), "storage": k}
Tensors with the same "storage" number share their storage.
"""
import json
import os
import sys

import torch


def describe(value, storages):
    if value is None:
        return {"kind": "none"}
    if isinstance(value, bool):
        return {"kind": "bool", "value": value}
    if isinstance(value, int):
        return {"kind": "int", "value": value}
    if isinstance(value, float):
        return {"kind": "float", "value": value}
    if isinstance(value, str):
        return {"kind": "str", "value": value}
    if isinstance(value, (tuple, list)):
        return {"kind": "tuple" if isinstance(value, tuple) else "list", "items": [describe(v, storages) for v in value]}
    if isinstance(value, dict):
        return {"kind": "dict", "items": [[k, describe(v, storages)] for k, v in value.items()]}
    if isinstance(value, torch.Tensor):
        t = value.detach()
        key = t.untyped_storage().data_ptr() if t.untyped_storage().nbytes() else ("empty", id(t))
        storage = storages.setdefault(key, len(storages))
        flat = torch.view_as_real(t).reshape(-1, 2).tolist() if t.is_complex() else t.to(torch.float64).reshape(-1).tolist()
        return {"kind": "tensor", "dtype": str(t.dtype), "sizes": list(t.shape), "strides": list(t.stride()),
                "offset": t.storage_offset(), "values": flat, "storage": storage}
    raise TypeError("no description for " + type(value).__name__)


def cases():
    g = torch.Generator().manual_seed(0)
    base = torch.randn(4, 6, generator=g)
    nested = ()
    for _ in range(200):
        nested = (nested,)
    yield "scalars_and_containers", (torch.randn(2, 3, generator=g), 3, -2 ** 40, 2.5, True, None, "héllo",
                                     [1, [2, 3]], {"a": torch.arange(5), "b": (1.0, None)}), {}
    for protocol in (4, 5):
        yield "protocol_%d" % protocol, (torch.randn(3, generator=g), {"k": [1, 2]}, "x"), {"pickle_protocol": protocol}
    yield "dtypes", tuple(torch.arange(-3, 3).to(dt) for dt in (
        torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8,
        torch.bool, torch.complex64, torch.complex128)), {}
    # Dtypes torch.save writes as untyped storages with _rebuild_tensor_v3.
    yield "untyped_storages", (torch.arange(6).to(torch.uint16), torch.randn(4, generator=g).to(torch.float8_e4m3fn),
                               torch.randn(4, generator=g).to(torch.float8_e5m2)), {}
    yield "views", (base, base.t(), base[1:3, 2:], base[:, 1], base[0].expand(3, 6)), {}
    yield "parameters", {"w": torch.nn.Parameter(torch.randn(2, 2, generator=g)), "b": torch.zeros(2)}, {}
    yield "empty_and_scalar", (torch.zeros(0, 3), torch.tensor(7.5), torch.ones(1, 0, 2)), {}
    yield "nested_200", (nested, torch.ones(1)), {}
    yield "libtorch_pickler", (torch.randn(2, 2, generator=g), [1, 2, 3], [0.5], {"a": torch.zeros(1)}), {"libtorch": True}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    listed = {}
    for name, value, options in cases():
        path = os.path.join(out, name + ".pt")
        if options.pop("libtorch", False):
            with open(path, "wb") as f:
                f.write(torch._C._pickle_save(value))
        else:
            torch.save(value, path, **options)
        loaded = torch.load(path, weights_only=False)  # our own files (weights_only refuses protocol 4 frames)
        listed[name] = describe(loaded, {})
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(listed, f)


if __name__ == "__main__":
    main()
