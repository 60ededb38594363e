#!/usr/bin/env python3
"""Export the built-in example programs the GUI opens with no file given.

Usage: python make_examples.py OUT_DIR

dynamic_model.pt2 — the seed tutorial's DynamicModel exported with every
dimension Dim.AUTO, so its graph shows symbolic shapes (w: [s0, 5],
z: [s2*s3]) and range constraints. The model code is the oracle's, so the
example and the tests cannot drift apart.
"""
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "oracle"))

import torch  # noqa: E402
from torch.export import Dim  # noqa: E402

from seed_models import DynamicModel  # noqa: E402


def main() -> None:
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    inputs = (torch.randn(6, 5), torch.randn(4), torch.randn(8, 4), torch.randn(32))
    spec = {"w": (Dim.AUTO, Dim.AUTO), "x": (Dim.AUTO,), "y": (Dim.AUTO, Dim.AUTO), "z": (Dim.AUTO,)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ep = torch.export.export(DynamicModel(), inputs, dynamic_shapes=spec)
    torch.export.save(ep, os.path.join(out, "dynamic_model.pt2"))


if __name__ == "__main__":
    main()
