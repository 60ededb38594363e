"""Data-dependent: a nonzero() size used as a shape, then a split whose number of
pieces depends on it (torch 2.13 defers a reshape's checks, a split needs a guard)."""
import torch
from torch.export import export

from _corpus import report


class NonzeroShape(torch.nn.Module):
    def forward(self, x):
        nz = x.nonzero()
        z = torch.zeros(nz.shape[0] * 2)
        return z.split(4)


report(1, lambda: export(NonzeroShape(), (torch.tensor([1.0, 0.0, 2.0, 3.0, 0.0, 4.0]),)))
