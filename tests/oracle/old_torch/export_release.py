#!/usr/bin/env python3
"""Export the seed models with the torch this runs on (an older release).

Usage:  python export_release.py --out DIR

Run by make_old_torch_fixtures.sh, once per torch release from 2.5 to 2.12,
each in a temporary venv; its small outputs are committed under
tests/fixtures/old_torch/<release>/ and ExportLens' tests open, print and run
them (tests/engine/test_old_torch.cpp).

The models and their specs are the oracle's own (generate_fixtures.FIXTURES,
the seeds' examples only); per fixture that this release exports DIR/NAME/
gets program.pt2 (torch.export.save), print.txt (str(torch.export.load(...))
as this release prints it), inputs.pt, outputs.pt (ep.module()(*inputs) of
the loaded program) and meta.json (torch version, schema version of the
archive, range constraints, placeholders, ops, signature); a fixture this
release refuses gets only meta.json with the error.  DIR/manifest.json lists
them all.
"""

import argparse
import contextlib
import io
import json
import os
import sys
import traceback
import warnings
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.dirname(HERE)
sys.path.insert(0, ORACLE)

import torch  # noqa: E402

import decomp_cases  # noqa: E402
import generate_fixtures as gf  # noqa: E402  (the fixture table and its helpers)

# The decomposition oracle's own models are not the seeds' examples.
DECOMP_EXTRAS = {f.name for f in decomp_cases.extra_fixtures(gf.Fixture, gf.randn, gf.ins)}

SEED_DOCUMENTS = {gf.S000, gf.S002, gf.S003}
# Programs that differ from run to run, or that only run where the custom op
# is registered, are exported too; the tests know them by name.


def schema_version(pt2: str):
    with zipfile.ZipFile(pt2) as z:
        for name in z.namelist():
            if name.endswith("/models/model.json") or name.endswith("serialized_exported_program.json"):
                v = json.loads(z.read(name)).get("schema_version", {})
                return [v.get("major"), v.get("minor")]
    return None


def export_one(fx, out_root: str) -> dict:
    out_dir = os.path.join(out_root, fx.name)
    os.makedirs(out_dir, exist_ok=True)
    torch._dynamo.reset()
    torch.manual_seed(gf.SEED)
    model = fx.model()
    inputs = fx.inputs()
    # Saved before exporting: export marks the inputs' dynamic dims on the tensors themselves
    # (_dynamo_dynamic_indices, a set), which torch.save would then pickle along.
    torch.save(inputs, os.path.join(out_dir, "inputs.pt"))
    meta = {"name": fx.name, "torch_version": torch.__version__, "seed": fx.seed,
            "strict": fx.strict, "dynamic_shapes": fx.dynamic_shapes}
    try:
        dynamic_shapes = gf.build_dynamic_shapes(fx.dynamic_shapes, inputs)
        ep = torch.export.export(model, inputs, dynamic_shapes=dynamic_shapes, strict=fx.strict)
        pt2 = os.path.join(out_dir, "program.pt2")
        torch.export.save(ep, pt2)
        loaded = torch.export.load(pt2)
    except Exception as e:  # noqa: BLE001  (this release refuses the example)
        meta["status"] = "error"
        meta["error_type"] = gf.qualname(e)
        meta["error_message"] = str(e)[:4000]
        for f in os.listdir(out_dir):
            os.remove(os.path.join(out_dir, f))
        gf.write_json(os.path.join(out_dir, "meta.json"), meta)
        return meta
    meta["status"] = "ok"
    with open(os.path.join(out_dir, "print.txt"), "w") as f:
        f.write(str(loaded))
    outputs = gf.as_tuple(loaded.module()(*gf.clone_inputs(inputs)))
    torch.save(outputs, os.path.join(out_dir, "outputs.pt"))
    meta["schema_version"] = schema_version(pt2)
    meta["range_constraints"] = gf.range_constraints(loaded)
    meta["placeholders"] = gf.placeholders(loaded)
    meta["ops"] = gf.op_sequence(loaded)
    meta["graph_signature"] = gf.signature_json(loaded)
    meta["output_shapes"] = gf.shapes_of_values(outputs)
    gf.write_json(os.path.join(out_dir, "meta.json"), meta)
    return meta


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore")
    os.makedirs(args.out, exist_ok=True)
    manifest = []
    for fx in gf.FIXTURES:
        if fx.seed not in SEED_DOCUMENTS or fx.name in DECOMP_EXTRAS:
            continue
        sink = io.StringIO()
        try:
            with contextlib.redirect_stdout(sink):
                meta = export_one(fx, args.out)
        except Exception:  # noqa: BLE001  (a failure after export, loading or running it: report it, go on)
            meta = {"name": fx.name, "torch_version": torch.__version__, "status": "failed",
                    "error_message": traceback.format_exc()[-4000:]}
            folder = os.path.join(args.out, fx.name)
            for f in os.listdir(folder):
                os.remove(os.path.join(folder, f))
            gf.write_json(os.path.join(folder, "meta.json"), meta)
        manifest.append({"name": fx.name, "status": meta["status"]})
        print(f"{fx.name}: {meta['status']}", flush=True)
    gf.write_json(os.path.join(args.out, "manifest.json"),
                  {"torch_version": torch.__version__, "python": sys.version.split()[0], "fixtures": manifest})
    return 0


if __name__ == "__main__":
    sys.exit(main())
