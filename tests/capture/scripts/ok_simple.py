"""A successful export with a dynamic batch, kwargs and a nested tuple input."""
import torch
from torch.export import Dim, export

from _corpus import report


class Simple(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)

    def forward(self, x, pair, *, scale=1.0, mask=None):
        a, b = pair
        out = self.fc(x) * scale + a.sum() + b.mean()
        if mask is not None:
            out = out * mask
        return out


batch = Dim("batch", min=2, max=128)
x = torch.randn(8, 4)
pair = (torch.randn(3), torch.randn(2, 2))
mask = torch.ones(8, 3)
ep = report(1, lambda: export(
    Simple(), (x, pair), {"scale": 2.0, "mask": mask},
    dynamic_shapes={"x": {0: batch}, "pair": (None, None), "scale": None, "mask": {0: batch}}))
print(ep.module()(x, pair, scale=2.0, mask=mask).shape)
