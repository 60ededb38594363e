"""Constraint violation: a range the code contradicts (a guard x.shape[0] > 4 with min=2)."""
import torch
from torch.export import Dim, export

from _corpus import report


class Ranged(torch.nn.Module):
    def forward(self, x):
        if x.shape[0] > 4:
            return x.relu()
        return x.sin()


batch = Dim("batch", min=2, max=64)
report(1, lambda: export(Ranged(), (torch.randn(8, 3),), dynamic_shapes={"x": {0: batch}}))
