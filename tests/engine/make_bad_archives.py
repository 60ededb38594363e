#!/usr/bin/env python3
"""Write malformed variants of a valid .pt2 for the bad-input tests.

Usage: python make_bad_archives.py GOOD.pt2 OUT_DIR

Each file is broken in exactly one way; the C++ test checks that reading it
gives one clear error naming what is wrong.
"""
import json
import os
import sys
import zipfile

import torch


def rewrite(src, dst, transform):
    """Copy the archive entry by entry; transform(name, data) -> bytes or None (drop)."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = transform(info.filename, zin.read(info.filename))
            if data is not None:
                zout.writestr(info.filename, data)


def edit_model_json(edit):
    def transform(name, data):
        if name.endswith("models/model.json"):
            doc = json.loads(data)
            edit(doc)
            return json.dumps(doc).encode()
        return data
    return transform


def main():
    good, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    raw = open(good, "rb").read()
    open(os.path.join(out, "truncated.pt2"), "wb").write(raw[: len(raw) * 3 // 5])
    open(os.path.join(out, "empty.pt2"), "wb").write(b"")
    open(os.path.join(out, "not_a_zip.pt2"), "wb").write(b"this is not a zip archive\n" * 10)

    # Flip one byte of the first weight's data: the CRC check must catch it.
    with zipfile.ZipFile(good) as z:
        info = next(i for i in z.infolist() if "/data/weights/weight_" in i.filename)
        header = raw[info.header_offset: info.header_offset + 30]
        data_at = info.header_offset + 30 + int.from_bytes(header[26:28], "little") + int.from_bytes(header[28:30], "little")
    corrupt = bytearray(raw)
    corrupt[data_at] ^= 0xFF
    open(os.path.join(out, "corrupt_crc.pt2"), "wb").write(bytes(corrupt))

    rewrite(good, os.path.join(out, "bad_json.pt2"),
            lambda n, d: b'{"graph_module": {"graph": [1, 2,' if n.endswith("models/model.json") else d)

    def future_schema(doc):
        doc["schema_version"]["major"] = 99
    rewrite(good, os.path.join(out, "unknown_schema.pt2"), edit_model_json(future_schema))

    rewrite(good, os.path.join(out, "missing_weights.pt2"),
            lambda n, d: None if n.endswith("/data/weights/weight_0") else d)

    def dangle(doc):
        node = doc["graph_module"]["graph"]["nodes"][0]
        node["inputs"][0]["arg"] = {"as_tensor": {"name": "no_such_value"}}
    rewrite(good, os.path.join(out, "dangling_ref.pt2"), edit_model_json(dangle))

    def bad_dtype(doc):
        values = doc["graph_module"]["graph"]["tensor_values"]
        next(iter(values.values()))["dtype"] = 999
    rewrite(good, os.path.join(out, "bad_dtype.pt2"), edit_model_json(bad_dtype))

    # An op no library in any process defines: reading and printing work, running names it.
    def unknown_op(doc):
        doc["graph_module"]["graph"]["nodes"][0]["target"] = "torch.ops.nowhere_lib.not_loaded.default"
    rewrite(good, os.path.join(out, "unknown_op.pt2"), edit_model_json(unknown_op))

    torch.save((torch.randn(3, 10),), os.path.join(out, "wrong_shape_inputs.pt"))
    torch.save((torch.randn(2, 10, dtype=torch.float64),), os.path.join(out, "wrong_dtype_inputs.pt"))
    open(os.path.join(out, "not_inputs.pt"), "wb").write(b"garbage")


if __name__ == "__main__":
    main()
