#!/usr/bin/env python3
"""Write the torch.export oracle fixtures that ExportLens' C++ tests compare against.

Usage:  python generate_fixtures.py --out DIR [--only NAME ...]

Every example of the seed documents (/work/shared/seeds/) is one fixture,
listed in FIXTURES below together with the outcome expected from the torch
this was written against (2.13.0+cpu): "ok" (export succeeds) or "error".
A torch whose behaviour differs makes the script exit non-zero and say which
fixture changed.

Per fixture NAME the folder DIR/NAME/ gets:

  status ok:
    program.pt2         torch.export.save(ep, ...) through op_schemas.save (Python-registered ops recorded)
    print.txt           str(torch.export.load(program.pt2))
    print_original.txt  str(ep) of the freshly exported program
    inputs.pt           torch.save(tuple of example inputs)
    outputs.pt          torch.save(tuple of outputs of loaded.module()(*inputs))
    meta.json           name, status, expected_status, strict, description, seed,
                        torch_version, dynamic_shapes (source text or null),
                        range_constraints {sym: [lo, hi]} ("int_oo"/"-int_oo"),
                        placeholders {name: [dim strings]}, ops (call_function
                        targets of the top-level graph, in order), graph_signature
                        {input_specs, output_specs: [{kind, name, target, ...}]},
                        print_matches_original, input_shapes, output_shapes,
                        matches_eager (loaded program vs the eager model on the
                        same inputs), optional runtime_checks / runtime_error /
                        extra_files.  Graph facts are taken from the loaded program.
  status error:
    inputs.pt           the example inputs (for reference)
    meta.json           name, status, strict, description, seed, expected_status,
                        dynamic_shapes, error_type, error_message

plus DIR/manifest.json (one object per fixture that was run).

Note: some print.txt files contain absolute paths (this directory's
seed_models.py, the venv's torch) in their "# File:" comments; that is what
torch writes and is left as is.  bad3_nonstrict bakes id(x) into its graph,
so its program/print/outputs change from run to run (that is the example's point).
"""

import argparse
import contextlib
import io
import json
import os
import sys
import time
import traceback
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
# ExportLens' own Python helpers: programs are saved as `exportlens capture` saves them,
# with the schemas of their Python-registered ops recorded beside them (op_schemas.save).
PRODUCT_PYTHON = os.path.join(HERE, "..", "..", "resources", "python")
if PRODUCT_PYTHON not in sys.path:
    sys.path.insert(0, PRODUCT_PYTHON)

import torch  # noqa: E402
from torch.export import Dim  # noqa: E402

import seed_models as sm  # noqa: E402  (also registers my_custom_library::custom_op)
from exportlens_capture import op_schemas  # noqa: E402

S000 = "000_903ea02d623534c0.txt"  # torch.export tutorial, PyTorch 2.3
S002 = "002_387698968ef3407d.txt"  # torch.export tutorial, PyTorch 2.5+
S003 = "003_d998a9d7a243f9f3.txt"  # book excerpt

SEED = 0  # torch.manual_seed(SEED) before building each fixture's model and inputs


@dataclass
class Fixture:
    name: str
    seed: str
    description: str
    model: Callable[[], torch.nn.Module]
    inputs: Callable[[], tuple]
    expect: str  # "ok" | "error"
    strict: bool = False
    # Python source that assigns `dynamic_shapes`; run with torch, Dim and
    # `inputs` (the example inputs) in scope.  None: no dynamic_shapes.
    dynamic_shapes: Optional[str] = None
    # Further calls of the loaded program's module(): (label, inputs builder).
    # Recorded in meta.json "runtime_checks" (input shapes, ok/error, output shapes).
    runtime_checks: list = field(default_factory=list)
    # Extra work on a successful export: hook(fixture, loaded_ep, out_dir, meta).
    extra: Optional[Callable[..., None]] = None
    # Also save torch's Core ATen program and print it as torch.export.load reads it back
    # (core_program.pt2, core_loaded.txt: decomp_cases.write_decompositions).
    save_lowered: bool = False


def randn(*shape):
    return lambda: torch.randn(*shape)


def ins(*builders):
    """Inputs builder: call each builder in order (so the RNG stream is fixed)."""
    return lambda: tuple(b() for b in builders)


# ---------------------------------------------------------------------------
# Extra hooks
# ---------------------------------------------------------------------------

def _bad1_fixed_neg(fx, loaded, out_dir, meta):
    """Seed: run Bad1Fixed on ones and -ones so that both cond branches run."""
    inputs_neg = (-torch.ones(3, 3),)
    torch.save(inputs_neg, os.path.join(out_dir, "inputs_neg.pt"))
    torch.save(as_tuple(loaded.module()(*inputs_neg)), os.path.join(out_dir, "outputs_neg.pt"))
    meta["extra_files"] = ["inputs_neg.pt", "outputs_neg.pt"]


def _linear_batch1_runtime_error(fx, loaded, out_dir, meta):
    """Seed: the batch-1 example specialises dim 0 to 1; a batch of 2 must fail."""
    try:
        loaded.module()(torch.randn(2, 4))
    except Exception as e:  # noqa: BLE001
        meta["runtime_error"] = {"error_type": qualname(e), "error_message": str(e)}
    else:
        meta["runtime_error"] = None
        raise AssertionError("linear_batch1: module()(randn(2, 4)) did not raise")


# ---------------------------------------------------------------------------
# The fixture table
# ---------------------------------------------------------------------------

DS_EXAMPLE1 = '''\
inp1_dim0 = Dim("inp1_dim0")
inp1_dim1 = Dim("inp1_dim1", min=4, max=18)
dynamic_shapes = {
    "x": {0: inp1_dim0, 1: inp1_dim1},
}
'''

DS_EXAMPLE1_BAD = '''\
inp1_dim0 = Dim("inp1_dim0")
inp1_dim1_bad = Dim("inp1_dim1_bad", min=11, max=18)
dynamic_shapes = {
    "x": {0: inp1_dim0, 1: inp1_dim1_bad},
}
'''

DS_EXAMPLE2 = '''\
inp2_dim0 = Dim("inp2_dim0")
inner_dim = Dim("inner_dim")
inp3_dim1 = Dim("inp3_dim1")
dynamic_shapes = {
    "x": {0: inp2_dim0, 1: inner_dim},
    "y": {0: inner_dim, 1: inp3_dim1},
}
'''

DS_EXAMPLE3 = '''\
inp4, inp5 = inputs
dynamic_shapes = {
    "x": {i: Dim(f"inp4_dim{i}") for i in range(inp4.dim())},
    "y": {i: Dim(f"inp5_dim{i}") for i in range(inp5.dim())},
}
'''

DS_EXAMPLE3_FIXED = '''\
def suggested_fixes():
    inp4_dim1 = Dim('shared_dim')
    # suggested fixes below
    inp4_dim0 = Dim('inp4_dim0', max=16)
    inp5_dim1 = Dim('inp5_dim1', min=17)
    inp5_dim0 = inp4_dim1
    # end of suggested fixes
    return {
        "x": {0: inp4_dim0, 1: inp4_dim1},
        "y": {0: inp5_dim0, 1: inp5_dim1},
    }

dynamic_shapes = suggested_fixes()
'''

DS_DERIVED1 = '''\
dimx = torch.export.Dim("dimx", min=3, max=6)
dimy = dimx + 1
dynamic_shapes = ({0: dimx}, {0: dimy})
'''

DS_DERIVED2 = '''\
dx = torch.export.Dim("dx", min=3, max=6)
dz = dx + 1
dy = dx * 3 + 1
dynamic_shapes = ({0: dz}, {0: dy})
'''

DS_AUTO = '''\
dynamic_shapes = {
    "w": (Dim.AUTO, Dim.AUTO),
    "x": (Dim.AUTO,),
    "y": (Dim.AUTO, Dim.AUTO),
    "z": (Dim.AUTO,),
}
'''

DS_AUTO_W_DYNAMIC = '''\
dynamic_shapes = {
    "w": (Dim.AUTO, Dim.DYNAMIC),
    "x": (Dim.AUTO,),
    "y": (Dim.AUTO, Dim.AUTO),
    "z": (Dim.AUTO,),
}
'''

DS_STATIC_DYNAMIC_CONFLICT = '''\
dynamic_shapes = {
    "w": (Dim.AUTO, Dim.AUTO),
    "x": (Dim.STATIC,),
    "y": (Dim.AUTO, Dim.DYNAMIC),
    "z": (Dim.AUTO,),
}
'''

DS_LINEAR_BATCH1 = '''\
dynamic_shapes = {
    "input": (Dim.AUTO, Dim.STATIC),
}
'''

DS_NAMED_2DX = '''\
dx = Dim("dx", min=4, max=256)
dh = Dim("dh", max=512)
dynamic_shapes = {
    "x": (dx, None),
    "y": (2 * dx, dh),
}
'''

DS_NAMED_4DX = '''\
dx = Dim("dx", min=4, max=512)
dynamic_shapes = {
    "x": (4 * dx, None)  # x.shape[0] has range [16, 2048], and is divisible by 4.
}
'''

DS_FOO_CONSTRAINT = '''\
dx, dy, d1 = torch.export.dims("dx", "dy", "d1")
dynamic_shapes = {
    "x": (dx, d1),
    "y": (dy, d1),
}
'''

DYN_MODEL_INPUTS = ins(randn(6, 5), randn(4), randn(8, 4), randn(32))
ITEM_INPUTS = lambda: (torch.tensor(32), torch.randn(60))  # noqa: E731

# strict: torch 2.13's export() defaults to strict=False (the seeds were written
# when the default was strict=True).  Where a seed calls export() without
# strict=, the fixture uses 2.13's default, False, and says so.
NS = " Exported with torch 2.13's default strict=False (the seed's export() default was strict=True)."

FIXTURES = [
    Fixture("my_module", S000,
            "MyModule: relu(lin(x + y), inplace=True) with Linear(100, 10); the inplace relu is "
            "functionalized to aten.relu.default; module() rejects randn(10, 100) (static shapes)." + NS,
            sm.MyModule, ins(randn(8, 100), randn(8, 100)), "ok",
            runtime_checks=[("static_shape_10x100", ins(randn(10, 100), randn(10, 100)))]),
    Fixture("book_mlp", S003,
            "The book's model: fc1 = Linear(10, 5), relu = ReLU(), fc2 = Linear(5, 2); in 2.13 the "
            "graph shows aten.linear.default / aten.relu.default as in the book listing." + NS,
            sm.BookMLP, ins(randn(2, 10)), "ok"),

    # --- graph breaks, strict and non-strict ---------------------------------
    Fixture("bad1_strict", S000, "Bad1 (`if x.sum() > 0`), strict=True: data-dependent control flow "
            "fails export.", sm.Bad1, ins(randn(3, 3)), "error", strict=True),
    Fixture("bad1_nonstrict", S000, "Bad1 (`if x.sum() > 0`), strict=False: still fails, "
            "non-strict tracing cannot guard on a data-dependent bool either.",
            sm.Bad1, ins(randn(3, 3)), "error", strict=False),
    Fixture("bad2_strict", S000, "Bad2 (`x.data[0, 0] = 3`), strict=True. The seeds show a graph "
            "break; torch 2.13 exports it, but the write goes to a lifted constant copy and the "
            "program returns x unchanged (differs from eager, see matches_eager).",
            sm.Bad2, ins(randn(3, 3)), "ok", strict=True,
            runtime_checks=[("ones", lambda: (torch.ones(3, 3),))]),
    Fixture("bad2_nonstrict", S000, "Bad2 (`x.data[0, 0] = 3`), strict=False. Seed 000 says this "
            "exports; torch 2.13 fails: 'We found a fake tensor in the exported program constant's list'.",
            sm.Bad2, ins(randn(3, 3)), "error", strict=False),
    Fixture("bad3_strict", S000, "Bad3 (`x + id(x)`), strict=True: id() is unsupported, export fails.",
            sm.Bad3, ins(randn(3, 3)), "error", strict=True),
    Fixture("bad3_nonstrict", S000, "Bad3 (`x + id(x)`), strict=False: id(x) is specialised to an "
            "integer constant in the graph (its value changes from run to run).",
            sm.Bad3, ins(randn(3, 3)), "ok", strict=False),
    Fixture("bad4_strict", S000, "Bad4 (try/raise/except), strict=True. Seed 000 shows a graph break; "
            "torch 2.13's dynamo traces the exception handling and exports x + 1 + 2.",
            sm.Bad4, ins(randn(3, 3)), "ok", strict=True),
    Fixture("bad4_nonstrict", S000, "Bad4 (try/raise/except), strict=False: traced through, exports.",
            sm.Bad4, ins(randn(3, 3)), "ok", strict=False),

    # --- control flow ops ----------------------------------------------------
    Fixture("bad1_fixed", S002, "Bad1Fixed: torch.cond(x.sum() > 0, sin, cos, [x]); inputs_neg.pt / "
            "outputs_neg.pt hold -ones(3, 3) so both branches are checked." + NS,
            sm.Bad1Fixed, ins(randn(3, 3)), "ok", extra=_bad1_fixed_neg),
    Fixture("map_module", S002, "MapModule: torch._higher_order_ops.map over xs (6, 4) of "
            "body(x, y, z) = x + y + z." + NS,
            sm.MapModule, lambda: (torch.ones(6, 4), torch.tensor(5), torch.tensor(4)), "ok"),

    # --- dynamic shapes with named Dims (000) ---------------------------------
    Fixture("dynamic_shapes_example1", S000, "DynamicShapesExample1 x[:, 2:] relu with "
            "dim0 unbounded, dim1 in [4, 18]; runtime checks from the seed." + NS,
            sm.DynamicShapesExample1, ins(randn(10, 10, 2)), "ok", dynamic_shapes=DS_EXAMPLE1,
            runtime_checks=[("ok_5x5x2", ins(randn(5, 5, 2))),
                            ("dim1_below_min_8x1x2", ins(randn(8, 1, 2))),
                            ("dim1_above_max_8x20x2", ins(randn(8, 20, 2))),
                            ("static_dim2_8x8x3", ins(randn(8, 8, 3)))]),
    Fixture("dynamic_shapes_example1_bad", S000, "DynamicShapesExample1 with inp1_dim1_bad in "
            "[11, 18] while the example has 10: the example input violates the spec." + NS,
            sm.DynamicShapesExample1, ins(randn(10, 10, 2)), "error", dynamic_shapes=DS_EXAMPLE1_BAD),
    Fixture("dynamic_shapes_example2", S000, "DynamicShapesExample2 x @ y with a shared inner_dim "
            "Dim; runtime checks from the seed." + NS,
            sm.DynamicShapesExample2, ins(randn(4, 8), randn(8, 2)), "ok", dynamic_shapes=DS_EXAMPLE2,
            runtime_checks=[("ok_2x16_16x4", ins(randn(2, 16), randn(16, 4))),
                            ("inner_mismatch_4x8_4x2", ins(randn(4, 8), randn(4, 2)))]),
    Fixture("dynamic_shapes_example3_unfixed", S000, "DynamicShapesExample3 with every dim a fresh "
            "Dim: constraint violations; the message holds the suggested fixes." + NS,
            sm.DynamicShapesExample3, ins(randn(8, 16), randn(16, 32)), "error",
            dynamic_shapes=DS_EXAMPLE3),
    Fixture("dynamic_shapes_example3_fixed", S000, "DynamicShapesExample3 with the seed's "
            "suggested_fixes() spec." + NS,
            sm.DynamicShapesExample3, ins(randn(8, 16), randn(16, 32)), "ok",
            dynamic_shapes=DS_EXAMPLE3_FIXED,
            runtime_checks=[("ok_4x32_32x64", ins(randn(4, 32), randn(32, 64)))]),
    Fixture("derived_dim_example1", S000, "DerivedDimExample1 x + y[1:], dimx in [3, 6], "
            "dimy = dimx + 1; runtime checks from the seed." + NS,
            sm.DerivedDimExample1, ins(randn(5), randn(6)), "ok", dynamic_shapes=DS_DERIVED1,
            runtime_checks=[("ok_4_5", ins(randn(4), randn(5))),
                            ("derived_mismatch_4_6", ins(randn(4), randn(6)))]),
    Fixture("derived_dim_example2", S000, "DerivedDimExample2 z[1:] + y[1::3], dz = dx + 1, "
            "dy = 3 * dx + 1, dx in [3, 6]; runtime check from the seed." + NS,
            sm.DerivedDimExample2, ins(randn(4), randn(10)), "ok", dynamic_shapes=DS_DERIVED2,
            runtime_checks=[("ok_7_19", ins(randn(7), randn(19)))]),

    # --- Dim.AUTO / DYNAMIC / STATIC (002) ------------------------------------
    Fixture("dynamic_model_static", S002, "DynamicModel exported with no dynamic_shapes (static); "
            "module() rejects y (3, 4), z (12)." + NS,
            sm.DynamicModel, DYN_MODEL_INPUTS, "ok",
            runtime_checks=[("static_y3x4_z12", ins(randn(6, 5), randn(4), randn(3, 4), randn(12)))]),
    Fixture("dynamic_model_auto", S002, "DynamicModel with every dim Dim.AUTO: w [s, 5], x [s2], "
            "y [s3, s2], z [s2*s3]." + NS,
            sm.DynamicModel, DYN_MODEL_INPUTS, "ok", dynamic_shapes=DS_AUTO,
            runtime_checks=[("ok_y3x4_z12", ins(randn(6, 5), randn(4), randn(3, 4), randn(12)))]),
    Fixture("dynamic_model_dynamic_error", S002, "DynamicModel with w: (AUTO, DYNAMIC); the Linear "
            "specialises w.shape[1] to 5, which Dim.DYNAMIC forbids." + NS,
            sm.DynamicModel, DYN_MODEL_INPUTS, "error", dynamic_shapes=DS_AUTO_W_DYNAMIC),
    Fixture("dynamic_model_static_dynamic_conflict", S002, "DynamicModel with x: (STATIC,), "
            "y: (AUTO, DYNAMIC); x + y makes y.shape[1] == 4, conflicting with Dim.DYNAMIC." + NS,
            sm.DynamicModel, DYN_MODEL_INPUTS, "error", dynamic_shapes=DS_STATIC_DYNAMIC_CONFLICT),
    Fixture("dynamic_model_v2_auto", S002, "DynamicModelV2 (assert w.shape[0] <= 512, "
            "_check(x.shape[0] >= 4), if w.shape[0] == x.shape[0] + 2) with all Dim.AUTO: exports, "
            "w.shape[0] becomes s + 2 and the range constraints get bounds." + NS,
            sm.DynamicModelV2, DYN_MODEL_INPUTS, "ok", dynamic_shapes=DS_AUTO),
    Fixture("linear_batch1", S002, "nn.Linear(4, 3) on randn(1, 4) with input: (AUTO, STATIC): "
            "0/1 specialisation makes dim 0 static 1; meta.json runtime_error holds what "
            "module()(randn(2, 4)) raises." + NS,
            lambda: torch.nn.Linear(4, 3), ins(randn(1, 4)), "ok", dynamic_shapes=DS_LINEAR_BATCH1,
            extra=_linear_batch1_runtime_error),

    # --- named Dims, constraint violations (002) ------------------------------
    Fixture("named_dims_2dx", S002, "Named Dims x: (dx in [4, 256], None), y: (2 * dx, dh <= 512). "
            "The seed has no model for this spec; ours returns (x.sum(1), y.sum(1))." + NS,
            sm.NamedDims2dx, ins(randn(8, 3), randn(16, 5)), "ok", dynamic_shapes=DS_NAMED_2DX,
            runtime_checks=[("ok_5x3_10x7", ins(randn(5, 3), randn(10, 7))),
                            ("not_2dx_5x3_11x7", ins(randn(5, 3), randn(11, 7)))]),
    Fixture("named_dims_4dx", S002, "Named Dims x: (4 * dx, None), dx in [4, 512] (x.shape[0] in "
            "[16, 2048], divisible by 4). The seed has no model for this spec; ours returns x + 1." + NS,
            sm.NamedDims4dx, ins(randn(32, 3)), "ok", dynamic_shapes=DS_NAMED_4DX,
            runtime_checks=[("ok_20x3", ins(randn(20, 3))),
                            ("not_divisible_18x3", ins(randn(18, 3)))]),
    Fixture("foo_constraint_violation", S002, "Foo (x + y + ones(4)) with x: (dx, d1), y: (dy, d1): "
            "the model needs dx == dy and d1 == 4; the message holds the suggested fixes." + NS,
            sm.FooConstraintViolation, ins(randn(6, 4), randn(6, 4)), "error",
            dynamic_shapes=DS_FOO_CONSTRAINT),

    # --- data-dependent values (002) -----------------------------------------
    Fixture("unbacked_item_tolist", S002, "Foo: a = x.item(), b = y.tolist(), return b + [a]; three "
            "unbacked symbols u0..u2 are returned (outputs.pt holds a tuple of ints)." + NS,
            sm.FooItemToList, lambda: (torch.tensor(1), torch.tensor([2, 3])), "ok"),
    Fixture("data_dependent_branch", S002, "Foo: `if a // 2 >= 5` on a = x.item() without checks: "
            "could not guard on a data-dependent expression." + NS,
            sm.FooDataDependentBranch, lambda: (torch.tensor(32), torch.randn(4)), "error"),
    Fixture("data_dependent_branch_checked", S002, "Foo with torch._check(a >= 10) and "
            "torch._check(a <= 60) before `if a // 2 >= 5`: exports, u0 in [10, 60]." + NS,
            sm.FooDataDependentBranchChecked, lambda: (torch.tensor(32), torch.randn(4)), "ok"),
    Fixture("item_index_unchecked", S002, "Foo: y[a] with a = x.item() and no checks. The seed says "
            "export fails (could not guard on -u0 > 60); torch 2.13 exports it (aten.select.int with "
            "an unbacked index, u0 unbounded)." + NS,
            sm.FooItemIndex, ITEM_INPUTS, "ok"),
    Fixture("item_index_checked", S002, "Foo: torch._check(a >= 0), torch._check(a < y.shape[0]) "
            "then y[a]: exports." + NS,
            sm.FooItemIndexChecked, ITEM_INPUTS, "ok"),
    Fixture("item_int_cast", S002, "Foo: torch.cat over range(a) and int(a) on a = x.item(), "
            "strict=False: could not extract a specialized integer from a data-dependent expression.",
            sm.FooItemIntCast, ITEM_INPUTS, "error", strict=False),
    Fixture("item_repeat", S002, "Foo: y.unsqueeze(0).repeat(a, 1) + a, strict=False: exports with "
            "an unbacked size.", sm.FooItemRepeat, ITEM_INPUTS, "ok", strict=False),

    # --- custom ops, decompositions, running (002, 000) ------------------------
    Fixture("custom_op", S002, "CustomOpExample: sin -> my_custom_library::custom_op (torch.library."
            "custom_op + register_fake, relu inside) -> cos. ExportLens does not have this op." + NS,
            sm.CustomOpExample, ins(randn(3, 3)), "ok"),
    Fixture("decomp_example", S002, "DecompExample Conv2d(1, 3, 1, 1) + BatchNorm2d(3) (training "
            "mode), exported with torch.export.export: export_for_training is gone in torch 2.13 "
            "and export() gives the same training IR." + NS,
            sm.DecompExample, ins(randn(1, 1, 3, 3)), "ok"),
    Fixture("m_linear", S000, "M with Linear(3, 4) (the decompositions example), input randn(2, 3)." + NS,
            sm.MLinear, ins(randn(2, 3)), "ok"),
    Fixture("m_linear3", S000, "M with Linear(3, 3) (the 'Running the Exported Program' example), on "
            "CPU instead of CUDA, input randn(2, 3)." + NS,
            sm.MLinear3, ins(randn(2, 3)), "ok"),
]

# Hook: the decomposition oracle (issue 5): its extra models, and what
# run_decompositions() makes of every fixture (written by run_fixture).
import decomp_cases  # noqa: E402
FIXTURES += decomp_cases.extra_fixtures(Fixture, randn, ins)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def qualname(e: BaseException) -> str:
    t = type(e)
    mod = t.__module__
    return t.__qualname__ if mod == "builtins" else f"{mod}.{t.__qualname__}"


def as_tuple(out: Any) -> tuple:
    """Outputs are always saved as a tuple; lists become tuples, a tensor a 1-tuple."""
    if isinstance(out, (tuple, list)):
        return tuple(tuple(o) if isinstance(o, list) else o for o in out)
    return (out,)


def bound(v) -> Any:
    s = str(v)
    if s in ("int_oo", "oo"):
        return "int_oo"
    if s in ("-int_oo", "-oo"):
        return "-int_oo"
    try:
        return int(v)
    except (TypeError, ValueError):
        return s


def range_constraints(ep) -> dict:
    return {str(sym): [bound(vr.lower), bound(vr.upper)] for sym, vr in ep.range_constraints.items()}


def shape_of(val) -> Any:
    if isinstance(val, torch.Tensor):
        return [str(s) for s in val.shape]
    if val is None:
        return None
    return str(val)  # SymInt / int / other non-tensor placeholder


def placeholders(ep) -> dict:
    return {n.name: shape_of(n.meta.get("val")) for n in ep.graph.nodes if n.op == "placeholder"}


def op_sequence(ep) -> list:
    return [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]


def spec_json(spec) -> dict:
    arg = spec.arg
    d = {"kind": spec.kind.name, "name": getattr(arg, "name", None), "target": spec.target,
         "arg_type": type(arg).__name__}
    if hasattr(arg, "value"):
        d["value"] = repr(arg.value)
    if getattr(spec, "persistent", None) is not None:
        d["persistent"] = spec.persistent
    return d


def signature_json(ep) -> dict:
    sig = ep.graph_signature
    return {"input_specs": [spec_json(s) for s in sig.input_specs],
            "output_specs": [spec_json(s) for s in sig.output_specs]}


def shapes_of_values(vals) -> list:
    return [shape_of(v) if isinstance(v, torch.Tensor) else repr(v) for v in vals]


def output_stats(vals) -> list:
    """Per output: what the GUI's Run dock shows of it (dtype, shape, min, max, mean), as torch computes it."""
    out = []
    for v in vals:
        if isinstance(v, torch.Tensor) and v.numel() and (v.is_floating_point() or v.dtype in (torch.int32, torch.int64)):
            f = v.double()
            out.append({"dtype": str(v.dtype), "shape": list(v.shape), "min": f.min().item(),
                        "max": f.max().item(), "mean": f.mean().item()})
        else:
            out.append(None)
    return out


def same_values(a, b) -> bool:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and a.dtype == b.dtype and torch.allclose(a, b, equal_nan=True)
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same_values(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def clone_inputs(inputs: tuple) -> tuple:
    return tuple(i.clone() if isinstance(i, torch.Tensor) else i for i in inputs)


def write_json(path: str, obj: Any) -> None:
    with open(path, "w") as f:
        json.dump(obj, f, indent=2, sort_keys=False)
        f.write("\n")


def build_dynamic_shapes(src: Optional[str], inputs: tuple):
    if src is None:
        return None
    ns = {"torch": torch, "Dim": Dim, "inputs": inputs}
    exec(compile(src, "<dynamic_shapes>", "exec"), ns)
    return ns["dynamic_shapes"]


# ---------------------------------------------------------------------------
# Running one fixture
# ---------------------------------------------------------------------------

def run_fixture(fx: Fixture, out_root: str) -> dict:
    out_dir = os.path.join(out_root, fx.name)
    os.makedirs(out_dir, exist_ok=True)
    for stale in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, stale))

    torch._dynamo.reset()
    torch.manual_seed(SEED)
    model = fx.model()
    inputs = fx.inputs()
    torch.save(inputs, os.path.join(out_dir, "inputs.pt"))
    dynamic_shapes = build_dynamic_shapes(fx.dynamic_shapes, inputs)

    meta = {"name": fx.name, "status": None, "expected_status": fx.expect, "strict": fx.strict,
            "description": fx.description, "seed": fx.seed, "torch_version": torch.__version__,
            "dynamic_shapes": fx.dynamic_shapes}

    try:
        ep = torch.export.export(model, inputs, dynamic_shapes=dynamic_shapes, strict=fx.strict)
    except Exception as e:  # noqa: BLE001
        meta["status"] = "error"
        meta["error_type"] = qualname(e)
        meta["error_message"] = str(e)
        write_json(os.path.join(out_dir, "meta.json"), meta)
        return meta

    meta["status"] = "ok"
    model_state = {k: v.clone() for k, v in model.state_dict().items()}
    pt2 = os.path.join(out_dir, "program.pt2")
    op_schemas.save(ep, pt2)
    loaded = torch.export.load(pt2)
    printed, printed_orig = str(loaded), str(ep)
    with open(os.path.join(out_dir, "print.txt"), "w") as f:
        f.write(printed)
    with open(os.path.join(out_dir, "print_original.txt"), "w") as f:
        f.write(printed_orig)

    outputs = as_tuple(loaded.module()(*clone_inputs(inputs)))
    torch.save(outputs, os.path.join(out_dir, "outputs.pt"))
    # The eager model on the same inputs (its state as it was at export time).
    model.load_state_dict(model_state)
    eager = as_tuple(model(*clone_inputs(inputs)))
    # ep shares the model's buffers: a forward that mutates one (a custom op writing a buffer) must not reach
    # the lowered programs run below (write_decompositions' core outputs), which start from the exported state.
    model.load_state_dict(model_state)

    meta["range_constraints"] = range_constraints(loaded)
    meta["placeholders"] = placeholders(loaded)
    meta["ops"] = op_sequence(loaded)
    meta["graph_signature"] = signature_json(loaded)
    meta["print_matches_original"] = printed == printed_orig
    meta["input_shapes"] = shapes_of_values(inputs)
    meta["output_shapes"] = shapes_of_values(outputs)
    meta["output_stats"] = output_stats(outputs)
    meta["matches_eager"] = same_values(outputs, eager)

    checks = []
    for label, builder in fx.runtime_checks:
        torch.manual_seed(SEED)
        args = builder()
        rec = {"label": label, "input_shapes": shapes_of_values(args)}
        try:
            res = as_tuple(loaded.module()(*args))
        except Exception as e:  # noqa: BLE001
            rec.update(status="error", error_type=qualname(e), error_message=str(e))
        else:
            rec.update(status="ok", output_shapes=shapes_of_values(res))
        checks.append(rec)
    if checks:
        meta["runtime_checks"] = checks

    if fx.extra is not None:
        fx.extra(fx, loaded, out_dir, meta)
    decomp_cases.write_decompositions(fx, ep, inputs, out_dir, meta)
    write_json(os.path.join(out_dir, "meta.json"), meta)
    return meta


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--only", nargs="+", metavar="NAME", help="run only these fixtures")
    args = p.parse_args(argv)

    by_name = {fx.name: fx for fx in FIXTURES}
    assert len(by_name) == len(FIXTURES), "duplicate fixture names"
    if args.only:
        unknown = [n for n in args.only if n not in by_name]
        if unknown:
            p.error(f"unknown fixture(s): {', '.join(unknown)}")
        selected = [by_name[n] for n in args.only]
    else:
        selected = FIXTURES

    os.makedirs(args.out, exist_ok=True)
    warnings.filterwarnings("ignore")  # keep the run quiet; nothing here depends on them
    manifest, problems = [], []
    t_all = time.monotonic()
    for fx in selected:
        t0 = time.monotonic()
        sink = io.StringIO()  # the custom op prints; keep stdout to one line per fixture
        try:
            with contextlib.redirect_stdout(sink):
                meta = run_fixture(fx, args.out)
        except Exception:  # noqa: BLE001  (a failure outside export itself)
            problems.append(f"{fx.name}: failed after export:\n{traceback.format_exc()}")
            print(f"{fx.name}: FAILED (see below)", flush=True)
            continue
        status = meta["status"]
        manifest.append({"name": fx.name, "status": status, "strict": fx.strict,
                         "description": fx.description, "seed": fx.seed})
        note = ""
        if status != fx.expect:
            why = meta.get("error_type", "") + ": " + meta.get("error_message", "")[:2000] \
                if status == "error" else "export succeeded"
            problems.append(f"{fx.name}: expected {fx.expect}, got {status} ({why})")
            note = f"  MISMATCH: expected {fx.expect}"
        print(f"{fx.name}: {status} ({time.monotonic() - t0:.1f}s){note}", flush=True)

    write_json(os.path.join(args.out, "manifest.json"), manifest)
    decomp_cases.write_lowering_cases(args.out)  # lowering-only models (no tracer port)
    # Hook: the C++ tracer gallery's extras (state dicts, suggested-fix round trip).
    import gallery_cases  # noqa: E402
    gallery_cases.write_gallery_extras(args.out, selected)
    print(f"{len(manifest)} fixtures in {time.monotonic() - t_all:.1f}s -> {args.out}", file=sys.stderr)
    if problems:
        print(f"\n{len(problems)} problem(s):", flush=True)
        for pr in problems:
            print(pr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
