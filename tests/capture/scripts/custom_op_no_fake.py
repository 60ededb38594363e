"""A custom op (torch.library.custom_op) without a fake kernel.

The op is defined at import; the export runs only as a script, so a test can
import this file to register the op before loading a saved program that uses it."""
import torch
from torch.export import export

from _corpus import report


@torch.library.custom_op("exportlens_corpus::scale_rows", mutates_args=())
def scale_rows(x: torch.Tensor) -> torch.Tensor:
    return x * torch.arange(1, x.shape[0] + 1, dtype=x.dtype).unsqueeze(1)


class UsesCustomOp(torch.nn.Module):
    def forward(self, x):
        return scale_rows(x).sum(1)


if __name__ == "__main__":
    report(1, lambda: export(UsesCustomOp(), (torch.randn(4, 3),)))
