"""Data-dependent: .item() in control flow."""
import torch
from torch.export import export

from _corpus import report


class ItemBranch(torch.nn.Module):
    def forward(self, x):
        if x.sum().item() > 0:
            return x * 2
        return x - 1


report(1, lambda: export(ItemBranch(), (torch.ones(4, 3),)))
