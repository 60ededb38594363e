"""Constraint violation: a Dim the model specializes (x must match y[:10])."""
import torch
from torch.export import Dim, export

from _corpus import report


class Specialized(torch.nn.Module):
    def forward(self, x, y):
        return x + y[:10]


x, y = torch.randn(10, 3), torch.randn(20, 3)
dx = Dim("dx", max=64)
report(1, lambda: export(Specialized(), (x, y), dynamic_shapes={"x": {0: dx}, "y": None}))
