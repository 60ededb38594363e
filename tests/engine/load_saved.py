#!/usr/bin/env python3
"""torch.export.load every .pt2 ExportLens wrote, and record what torch makes of it.

Usage:  python load_saved.py CASES.json

CASES.json lists {"pt2": path, "inputs": path or null (then ep.example_inputs
are the inputs), "out": folder}. Per case
the folder gets result.json: {"loaded": bool, "error": text, "example_inputs":
"matches" / "missing" / "differs" (against the inputs file: ep.example_inputs
must be ((inputs...), {})), "runs": bool, "run_error": text} and, when it
loads, print.txt (str(ep), as print(ep) shows it) and, when it runs,
outputs.pt (ep.module()(*inputs) as a tuple, as the oracle fixtures hold
outputs) and, for a program run on its example inputs, inputs_used.pt. One process for every case: importing torch is the slow part.
"""

import io
import json
import os
import sys
import traceback
import warnings
import zipfile
import contextlib

ORACLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "oracle")
sys.path.insert(0, ORACLE)

import torch  # noqa: E402

import seed_models  # noqa: E402,F401  (registers my_custom_library::custom_op, as the oracle did)


def as_tuple(out):
    if isinstance(out, (tuple, list)):
        return tuple(tuple(o) if isinstance(o, list) else o for o in out)
    return (out,)


def same(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def run_case(case):
    out = case["out"]
    os.makedirs(out, exist_ok=True)
    result = {"loaded": False, "runs": False}
    try:
        ep = torch.export.load(case["pt2"])
    except Exception:  # noqa: BLE001
        result["error"] = traceback.format_exc()[-3000:]
        return result
    result["loaded"] = True
    result["guards_code"] = list(getattr(ep, "_guards_code", []) or [])
    with open(os.path.join(out, "print.txt"), "w") as f:
        f.write(str(ep))
    inputs = torch.load(case["inputs"]) if case.get("inputs") else None
    if inputs is not None:
        inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    # torch.load(weights_only=True) must read the example inputs itself (torch
    # falls back to weights_only=False with a warning otherwise).
    with zipfile.ZipFile(case["pt2"]) as z:
        sample = [n for n in z.namelist() if n.endswith("/data/sample_inputs/model.pt")]
        data = z.read(sample[0]) if sample else b""
    if data:
        try:
            torch.load(io.BytesIO(data), weights_only=True)
            result["example_inputs_weights_only"] = True
        except Exception as e:  # noqa: BLE001
            result["example_inputs_weights_only"] = False
            result["example_inputs_error"] = str(e)[:500]
    ex = ep.example_inputs
    if ex is None:
        result["example_inputs"] = "missing"
    elif inputs is not None:
        result["example_inputs"] = "matches" if same(ex, (inputs, {})) else "differs"
    if inputs is None and ex is not None:  # a traced program: run it on its own example inputs
        inputs = tuple(ex[0])
        torch.save(inputs, os.path.join(out, "inputs_used.pt"))
    if inputs is not None:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                outputs = as_tuple(ep.module()(*[i.clone() if isinstance(i, torch.Tensor) else i for i in inputs]))
            torch.save(outputs, os.path.join(out, "outputs.pt"))
            result["runs"] = True
        except Exception:  # noqa: BLE001
            result["run_error"] = traceback.format_exc()[-3000:]
    return result


def main():
    warnings.filterwarnings("ignore")
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    for case in cases:
        result = run_case(case)
        with open(os.path.join(case["out"], "result.json"), "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
