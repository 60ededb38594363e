#!/usr/bin/env python3
"""Seed corpora for the fuzz targets from the oracle fixtures.

Usage: python make_seeds.py FIXTURES_DIR CORPUS_DIR

fuzz_pt2_reader gets every fixture archive under 16 KiB as torch wrote it
(64-byte aligned entries, padding in extra fields) and every archive repacked
without the entries the reader never opens (sample inputs) and without the
padding: a few KiB each, so each execution is short. fuzz_program_json their program
JSON, fuzz_expression the srepr strings, range-constraint keys and recorded
guards in them (first byte: which parser), fuzz_spec the dynamic_shapes specs
of the check cases, fuzz_spec_json the JSON spec's forms, fuzz_inputs_file
the fixtures' torch.save'd inputs and outputs and the archives' pickles,
fuzz_trace_log the trace logs of the capture fixtures (build/fixtures_capture).
Seeds are written once; the fuzzer's own finds stay beside them.
"""
import glob
import hashlib
import io
import json
import os
import sys
import zipfile


def put(corpus, target, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    name = os.path.join(d, "seed_" + hashlib.sha1(data).hexdigest()[:16])
    if not os.path.exists(name):
        with open(name, "wb") as f:
            f.write(data)


# The JSON spec's forms (engine/ops/spec_json.h), for fuzz_spec_json.
JSON_SPECS = [
    {"form": "none"},
    {"form": "dict", "dims": {"dx": {"min": 4, "max": 256}},
     "inputs": [{"name": "x", "form": "tuple",
                 "dims": [{"index": 0, "kind": "named", "dim": "dx"},
                          {"index": 1, "kind": "derived", "dim": "dx", "coeff": 2, "offset": 1},
                          {"index": 2, "kind": "auto", "min": 2}, {"index": 3, "kind": "int", "value": 4},
                          {"index": 4, "kind": "static"}, {"index": 5, "kind": "none"}]}]},
    {"form": "tuple", "dims": {"batch": {"variable": "b"}},
     "inputs": [{"form": "dict", "dims": [{"index": 0, "kind": "named", "dim": "batch"}]}, {"form": "none"}]},
    {"form": "list", "inputs": [{"form": "list", "dims": [{"kind": "dynamic", "max": 64}]}]},
]

# run_fuzzers.sh gives fuzz_pt2_reader -max_len of this size.
MAX_READER_SEED = 16384
MAX_LOG_SEED = 65536


def repacked(pt2):
    """The archive with only what the reader reads, stored, without alignment padding."""
    buf = io.BytesIO()
    with zipfile.ZipFile(pt2) as src, zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as out:
        for info in src.infolist():
            if "/data/sample_inputs/" not in info.filename:
                out.writestr(info.filename, src.read(info.filename))
    return buf.getvalue()


def walk_exprs(value, out):
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "expr_str" and isinstance(v, str):
                out.add(v)
            else:
                walk_exprs(v, out)
    elif isinstance(value, list):
        for v in value:
            walk_exprs(v, out)


def main():
    fixtures, corpus = sys.argv[1], sys.argv[2]
    for pt2 in sorted(glob.glob(os.path.join(fixtures, "*", "program.pt2"))):
        raw = open(pt2, "rb").read()
        if len(raw) <= MAX_READER_SEED:
            put(corpus, "fuzz_pt2_reader", raw)
        compact = repacked(pt2)
        if len(compact) <= MAX_READER_SEED:
            put(corpus, "fuzz_pt2_reader", compact)
        with zipfile.ZipFile(pt2) as z:
            for n in z.namelist():
                if n.endswith(".json") and "/models/" in n:
                    text = z.read(n)
                    put(corpus, "fuzz_program_json", text)
                    doc = json.loads(text)
                    exprs = set()
                    walk_exprs(doc, exprs)
                    for e in exprs:
                        put(corpus, "fuzz_expression", b"\x00" + e.encode())
                    for key in doc.get("range_constraints", {}):
                        put(corpus, "fuzz_expression", b"\x01" + key.encode())
                    for guard in doc.get("guards_code", []) or []:
                        put(corpus, "fuzz_expression", b"\x02" + guard.encode())
                if n.endswith(".pt") or "/data/weights/" in n and not n.endswith(".json"):
                    data = z.read(n)
                    if data[:2] == b"PK":
                        put(corpus, "fuzz_inputs_file", data)
    for pt in sorted(glob.glob(os.path.join(fixtures, "*", "*.pt"))):
        data = open(pt, "rb").read()
        if len(data) < 1 << 20:
            put(corpus, "fuzz_inputs_file", data)
    specs = set()
    for meta in glob.glob(os.path.join(fixtures, "**", "*.json"), recursive=True):
        try:
            doc = json.load(open(meta))
        except (ValueError, UnicodeDecodeError):
            continue
        stack = [doc]
        while stack:
            v = stack.pop()
            if isinstance(v, dict):
                for k, x in v.items():
                    if isinstance(x, str) and "dynamic_shapes" in x and len(x) < 4000:
                        specs.add(x)
                    stack.append(x)
            elif isinstance(v, list):
                stack.extend(v)
    specs |= {"dynamic_shapes = {'x': (Dim.AUTO, None)}",
              "dx = Dim('dx', min=2, max=64)\ndynamic_shapes = {'x': (dx, 2 * dx + 1), 'y': None}",
              "batch, n = dims('batch', 'n', max=128)\ndynamic_shapes = ((batch, n), {0: batch})"}
    for s in specs:
        put(corpus, "fuzz_spec", s.encode())
    for s in JSON_SPECS:
        put(corpus, "fuzz_spec_json", json.dumps(s).encode())
    # Trace logs: the captures' per-call logs and the plain TORCH_TRACE logs the
    # capture suites make (build/fixtures_capture), their first 64 KiB each.
    captured = os.path.join(os.path.dirname(os.path.abspath(fixtures)), "fixtures_capture")
    for log in sorted(glob.glob(os.path.join(captured, "**", "*.log"), recursive=True)):
        put(corpus, "fuzz_trace_log", open(log, "rb").read()[:MAX_LOG_SEED])
    counts = {t: len(os.listdir(os.path.join(corpus, t))) for t in sorted(os.listdir(corpus))}
    print("seeds: " + ", ".join("%s %d" % kv for kv in counts.items()))


if __name__ == "__main__":
    main()
