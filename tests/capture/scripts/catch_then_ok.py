"""Catches the first export's error itself and goes on to a second export that succeeds."""
import torch
from torch.export import Dim, export

from _corpus import report


class Pair(torch.nn.Module):
    def forward(self, x, y):
        return (x + y).relu()


x, y = torch.randn(5, 2), torch.randn(5, 2)
dx, dy = Dim("dx", max=16), Dim("dy", max=16)
report(1, lambda: export(Pair(), (x, y), dynamic_shapes=((dx, None), (dy, None))))
# torch's suggested fix: one Dim for both
ep = report(2, lambda: export(Pair(), (x, y), dynamic_shapes=((dx, None), (dx, None))))
print("program has", len(ep.graph.nodes), "nodes")
