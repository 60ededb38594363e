"""Unsupported Python in strict mode (zlib.crc32, a C function dynamo cannot
trace); the same model exported non-strict succeeds: the call runs eagerly on
the example's shape and its value is baked in as a constant."""
import zlib

import torch
from torch.export import export

from _corpus import report


class Checksum(torch.nn.Module):
    def forward(self, x):
        salt = zlib.crc32(repr(tuple(x.shape)).encode()) % 7
        return x + salt


x = torch.arange(6.0).reshape(2, 3)
report(1, lambda: export(Checksum(), (x,), strict=True))
report(2, lambda: export(Checksum(), (x,), strict=False))
