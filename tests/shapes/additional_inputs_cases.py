#!/usr/bin/env python3
"""torch.export.AdditionalInputs on the seed models: the oracle of ExportLens'
`check/trace/example --additional-inputs` and the spec editor's "From Example Inputs…".

Usage:  python additional_inputs_cases.py --out DIR

Per case DIR/NAME/ gets program.pt2 (the model exported with every dim
Dim.AUTO: what `check` re-solves), example.pt (the example inputs),
extra_<k>.pt (each additional set, torch.save'd tuples) and torch.json:
  inferred     {arg: ["DYNAMIC" | null, ...] per tensor, null per other} from
               AdditionalInputs.dynamic_shapes(model, args)
  status       "ok" / "error" of torch.export.export(model, args, dynamic_shapes=AdditionalInputs)
  error_type, error_message (errors)
  range_constraints {sym: [lo, hi]}, placeholders {name: [dims]} (ok)
plus DIR/manifest.json.  EXPECTED pins the outcome of each case.
"""

import argparse
import json
import logging
import os
import sys
import warnings

ORACLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "oracle")
sys.path.insert(0, ORACLE)

import torch  # noqa: E402
from torch.export import Dim  # noqa: E402

import seed_models as sm  # noqa: E402
import generate_fixtures as gf  # noqa: E402  (helpers: range_constraints, placeholders, qualname)

R = torch.randn

# name: (gallery port / model, example builder, [additional set builders], expected status)
CASES = {
    "book_mlp_batch": (sm.BookMLP, lambda: (R(2, 10),), [lambda: (R(5, 10),), lambda: (R(7, 10),)], "ok"),
    "dynamic_model_all": (sm.DynamicModel, lambda: (R(6, 5), R(4), R(8, 4), R(32)),
                          [lambda: (R(7, 5), R(3), R(5, 3), R(15))], "ok"),
    "dynamic_model_some": (sm.DynamicModel, lambda: (R(6, 5), R(4), R(8, 4), R(32)),
                           [lambda: (R(9, 5), R(4), R(3, 4), R(12))], "ok"),
    "example2_matmul": (sm.DynamicShapesExample2, lambda: (R(4, 8), R(8, 2)),
                        [lambda: (R(2, 16), R(16, 4)), lambda: (R(3, 5), R(5, 6))], "ok"),
    # y stays 6, so y[1:] fixes x to 5: the DYNAMIC x is specialized, export fails.
    "derived_specialized": (sm.DerivedDimExample1, lambda: (R(5), R(6)), [lambda: (R(4), R(6))], "error"),
    # dim 0 of size 1 in an additional set: the range starts at 2, yet torch's input check lets a
    # backed dim be 0 or 1 at run time (only a lower bound above 2 is checked), so verify passes.
    "example1_size_one": (sm.DynamicShapesExample1, lambda: (R(10, 10, 2),), [lambda: (R(1, 10, 2),)], "ok"),
    # an additional set whose dim 1 breaks the model's own slicing-free guard: x @ y needs x.shape[1] == y.shape[0].
    "example2_mismatch": (sm.DynamicShapesExample2, lambda: (R(4, 8), R(8, 2)), [lambda: (R(2, 16), R(8, 4))], "error"),
    # another rank: the inputs cannot be compared.
    "book_mlp_rank": (sm.BookMLP, lambda: (R(2, 10),), [lambda: (R(2, 3, 10),)], "error"),
}


def inferred_json(spec):
    out = {}
    for name, v in spec.items():
        if isinstance(v, (tuple, list)):
            out[name] = ["DYNAMIC" if d is Dim.DYNAMIC else None for d in v]
        else:
            out[name] = None if v is None else str(v)
    return out


def run_case(name, out_root):
    model_cls, example, extras, expected = CASES[name]
    out = os.path.join(out_root, name)
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = model_cls()
    args = example()
    sets = [e() for e in extras]
    torch.save(args, os.path.join(out, "example.pt"))
    for k, s in enumerate(sets):
        torch.save(s, os.path.join(out, f"extra_{k}.pt"))
    auto = tuple(tuple(Dim.AUTO for _ in a.shape) for a in args)
    torch.export.save(torch.export.export(model, args, dynamic_shapes=auto), os.path.join(out, "program.pt2"))
    ai = torch.export.AdditionalInputs()
    for s in sets:
        ai.add(s)
    result = {"name": name, "expected": expected}
    try:
        result["inferred"] = inferred_json(ai.dynamic_shapes(model, args))
    except Exception as e:  # noqa: BLE001
        result["inferred"] = None
        result["inferred_error"] = str(e)
    try:
        ep = torch.export.export(model, args, dynamic_shapes=ai)
    except Exception as e:  # noqa: BLE001
        result.update(status="error", error_type=gf.qualname(e), error_message=str(e)[:3000])
    else:
        result.update(status="ok", range_constraints=gf.range_constraints(ep), placeholders=gf.placeholders(ep))
    with open(os.path.join(out, "torch.json"), "w") as f:
        json.dump(result, f, indent=1)
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    a = p.parse_args()
    warnings.filterwarnings("ignore")
    logging.disable(logging.WARNING)  # torch's deprecation notes for None dims (what AdditionalInputs itself writes)
    os.makedirs(a.out, exist_ok=True)
    manifest, problems = [], []
    for name in CASES:
        r = run_case(name, a.out)
        manifest.append({"name": name, "status": r["status"]})
        if r["status"] != r["expected"]:
            problems.append(f"{name}: expected {r['expected']}, torch gives {r['status']}: {r.get('error_message', '')}")
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    for pr in problems:
        print(pr, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
