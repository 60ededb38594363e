"""Oracle additions for the C++ tracer's gallery (engine/trace/gallery).

generate_fixtures.py calls write_gallery_extras(out_dir, fixtures) after its
own fixtures.  For every fixture the gallery ports it adds

    DIR/<fixture>/state_dict.pt   torch.save(dict(model.state_dict())): the
                                  Python original's weights (same seed as the
                                  fixture), which the C++ port loads so both
                                  trace and run the same numbers;

and one case of its own:

    DIR/gallery_example3_refixed/meta.json
        DynamicShapesExample3 with torch's own suggested fixes pasted back
        (refine_dynamic_shapes_from_suggested_fixes) until torch has none
        left: each round's message and fixes and the final status, for the
        C++ tracer's same round trip;

    DIR/gallery_layout_probe/meta.json
        small slices whose outputs have symbolic, non-contiguous strides:
        torch's ops and guards_code (make_fx's contiguity probe adds guards).
"""

import json
import os

import torch
from torch.export import Dim

import seed_models as sm

SEED = 0

# The example3 spec with a fresh Dim per dimension (what the seed builds with
# a dict comprehension), in the form the C++ gallery uses.
EXAMPLE3_SPEC = '''\
dynamic_shapes = {
    "x": {0: Dim("inp4_dim0"), 1: Dim("inp4_dim1")},
    "y": {0: Dim("inp5_dim0"), 1: Dim("inp5_dim1")},
}
'''


def _state_dicts(out_dir, fixtures):
    for fx in fixtures:
        folder = os.path.join(out_dir, fx.name)
        if not os.path.isdir(folder):
            continue
        torch.manual_seed(SEED)
        model = fx.model()
        state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        torch.save(state, os.path.join(folder, "state_dict.pt"))


def _bound(v):
    s = str(v)
    if s in ("int_oo", "oo"):
        return "int_oo"
    if s in ("-int_oo", "-oo"):
        return "-int_oo"
    return int(v)


def _example3_refixed(out_dir):
    """Paste torch's suggested fixes back until torch has none left. Here one
    round is not enough: with the fixes (inp5_dim1 min=16) torch still finds
    the guard y.shape[1] != 16 and suggests nothing, which is why the seed's
    hand-written spec says min=17."""
    from torch.export.dynamic_shapes import refine_dynamic_shapes_from_suggested_fixes
    torch.manual_seed(SEED)
    model = sm.DynamicShapesExample3()
    inputs = (torch.randn(8, 16), torch.randn(16, 32))
    ns = {"torch": torch, "Dim": Dim}
    exec(EXAMPLE3_SPEC, ns)
    spec = ns["dynamic_shapes"]
    meta = {"name": "gallery_example3_refixed", "spec": EXAMPLE3_SPEC, "rounds": []}
    for _ in range(4):
        try:
            ep = torch.export.export(model, inputs, dynamic_shapes=spec)
        except torch._dynamo.exc.UserError as e:
            message = str(e)
            head = message.split("\n\nThe error above occurred", 1)[0]
            fixes = head.split("Suggested fixes:\n", 1)[1] if "Suggested fixes:\n" in head else ""
            lines = [line.strip() for line in fixes.splitlines() if line.strip()]
            meta["rounds"].append({"message": head, "suggested_fixes": lines})
            if not lines:  # torch has nothing more to suggest: the user fixes the spec by hand
                meta["status"] = "violation"
                break
            spec = refine_dynamic_shapes_from_suggested_fixes("Suggested fixes:\n" + fixes, spec)
            continue
        meta["status"] = "ok"
        meta["refined_spec"] = repr(spec)
        meta["range_constraints"] = {str(k): [_bound(v.lower), _bound(v.upper)]
                                     for k, v in ep.range_constraints.items()}
        meta["ops"] = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
        break
    else:
        raise AssertionError("DynamicShapesExample3: torch kept suggesting fixes")
    folder = os.path.join(out_dir, meta["name"])
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")


class _SliceChannels(torch.nn.Module):
    def forward(self, x):
        return x[:, :2].relu()


class _SliceLastAdd(torch.nn.Module):
    def forward(self, x, y):
        return x[:, :4] + y


# Slices whose output strides are symbolic and not contiguous: torch's make_fx
# probes each node's contiguity (tensor_meta), which adds guards.
LAYOUT_CASES = [
    ("slice_channels", _SliceChannels, [(2, 3, 8, 8)],
     "dynamic_shapes = {'x': (Dim.AUTO, Dim.AUTO, Dim.AUTO, Dim.AUTO)}"),
    ("slice_last_add", _SliceLastAdd, [(3, 6), (3, 4)],
     "dynamic_shapes = {'x': (Dim.AUTO, Dim.AUTO), 'y': (Dim.AUTO, Dim.STATIC)}"),
]


def _layout_probe(out_dir):
    """torch's ops and guards_code for LAYOUT_CASES (the C++ tracer's contiguity probe)."""
    cases = []
    for name, model_class, shapes, spec_text in LAYOUT_CASES:
        torch.manual_seed(SEED)
        ns = {"torch": torch, "Dim": Dim}
        exec(spec_text, ns)
        inputs = tuple(torch.randn(*s) for s in shapes)
        ep = torch.export.export(model_class(), inputs, dynamic_shapes=ns["dynamic_shapes"])
        cases.append({"name": name, "shapes": [list(s) for s in shapes], "spec": spec_text,
                      "ops": [str(n.target) for n in ep.graph.nodes if n.op == "call_function"],
                      "guards_code": list(ep._guards_code)})
    folder = os.path.join(out_dir, "gallery_layout_probe")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "meta.json"), "w") as f:
        json.dump({"name": "gallery_layout_probe", "cases": cases}, f, indent=2)
        f.write("\n")


def write_gallery_extras(out_dir, fixtures):
    _state_dicts(out_dir, fixtures)
    _example3_refixed(out_dir)
    _layout_probe(out_dir)
