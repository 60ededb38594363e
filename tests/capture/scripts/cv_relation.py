"""Constraint violation: a relation between two inputs (two Dims that must be equal)."""
import torch
from torch.export import Dim, export

from _corpus import report


class Relation(torch.nn.Module):
    def forward(self, x, y):
        return x + y


x, y = torch.randn(6, 4), torch.randn(6, 4)
dx, dy = Dim("dx", min=2, max=32), Dim("dy", min=2, max=32)
report(1, lambda: export(Relation(), (x, y), dynamic_shapes={"x": (dx, None), "y": (dy, None)}))
