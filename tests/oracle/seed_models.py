"""Model classes for the ExportLens oracle fixtures.

Each class mirrors the code of one example in the seed documents
(/work/shared/seeds/): 000 = torch.export tutorial as of PyTorch 2.3,
002 = the same tutorial as of PyTorch 2.5+, 003 = the book excerpt.
The seeds reuse names such as ``Foo`` and ``DynamicModel``; here every class
has its own name, but the bodies of ``forward`` follow the seed text line by
line (the exported programs' ``# File:`` comments point at these lines).

Importing this module registers the custom operator
``my_custom_library::custom_op`` (seed 002, "Custom Ops").
"""

import torch
from torch._higher_order_ops.map import map as torch_map


# ---------------------------------------------------------------------------
# Basic usage (000, 002) and the book (003)
# ---------------------------------------------------------------------------

class MyModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(100, 10)

    def forward(self, x, y):
        return torch.nn.functional.relu(self.lin(x + y), inplace=True)


class BookMLP(torch.nn.Module):
    """Seed 003: Linear(10, 5) -> ReLU -> Linear(5, 2)."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(10, 5)
        self.relu = torch.nn.ReLU()
        self.fc2 = torch.nn.Linear(5, 2)

    def forward(self, x):
        x = self.fc1(x)
        x = self.relu(x)
        x = self.fc2(x)
        return x


# ---------------------------------------------------------------------------
# Graph breaks / non-strict export (000, 002)
# ---------------------------------------------------------------------------

class Bad1(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return torch.sin(x)
        return torch.cos(x)


class Bad2(torch.nn.Module):
    def forward(self, x):
        x.data[0, 0] = 3
        return x


class Bad3(torch.nn.Module):
    def forward(self, x):
        x = x + 1
        return x + id(x)


class Bad4(torch.nn.Module):
    def forward(self, x):
        try:
            x = x + 1
            raise RuntimeError("bad")
        except:  # noqa: E722  (the seed's bare except)
            x = x + 2
        return x


# ---------------------------------------------------------------------------
# Control flow ops (000, 002)
# ---------------------------------------------------------------------------

class Bad1Fixed(torch.nn.Module):
    def forward(self, x):
        def true_fn(x):
            return torch.sin(x)
        def false_fn(x):
            return torch.cos(x)
        return torch.cond(x.sum() > 0, true_fn, false_fn, [x])


class MapModule(torch.nn.Module):
    def forward(self, xs, y, z):
        def body(x, y, z):
            return x + y + z

        return torch_map(body, xs, y, z)


# ---------------------------------------------------------------------------
# Dynamic shapes with named Dims (000)
# ---------------------------------------------------------------------------

class DynamicShapesExample1(torch.nn.Module):
    def forward(self, x):
        x = x[:, 2:]
        return torch.relu(x)


class DynamicShapesExample2(torch.nn.Module):
    def forward(self, x, y):
        return x @ y


class DerivedDimExample1(torch.nn.Module):
    def forward(self, x, y):
        return x + y[1:]


class DerivedDimExample2(torch.nn.Module):
    def forward(self, z, y):
        return z[1:] + y[1::3]


class DynamicShapesExample3(torch.nn.Module):
    def forward(self, x, y):
        if x.shape[0] <= 16:
            return x @ y[:, :16]
        return y


# ---------------------------------------------------------------------------
# Dim.AUTO / DYNAMIC / STATIC, guards (002)
# ---------------------------------------------------------------------------

class DynamicModel(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(5, 3)

    def forward(
        self,
        w: torch.Tensor,  # [6, 5]
        x: torch.Tensor,  # [4]
        y: torch.Tensor,  # [8, 4]
        z: torch.Tensor,  # [32]
    ):
        x0 = x + y  # [8, 4]
        x1 = self.l(w)  # [6, 3]
        x2 = x0.flatten()  # [32]
        x3 = x2 + z  # [32]
        return x1, x3


class DynamicModelV2(torch.nn.Module):
    """The second DynamicModel of seed 002: assert, torch._check and if/else."""

    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(5, 3)

    def forward(self, w, x, y, z):
        assert w.shape[0] <= 512
        torch._check(x.shape[0] >= 4)
        if w.shape[0] == x.shape[0] + 2:
            x0 = x + y
            x1 = self.l(w)
            x2 = x0.flatten()
            x3 = x2 + z
            return x1, x3
        else:
            return w


# ---------------------------------------------------------------------------
# Named Dims (002).  The seed gives only the dynamic_shapes specs, no models;
# these two small models are ours, written to fit those specs.
# ---------------------------------------------------------------------------

class NamedDims2dx(torch.nn.Module):
    """x: [dx, static], y: [2*dx, dh] -> (x.sum(1): [dx], y.sum(1): [2*dx])."""

    def forward(self, x, y):
        return x.sum(dim=1), y.sum(dim=1)


class NamedDims4dx(torch.nn.Module):
    """x: [4*dx, static] -> x + 1."""

    def forward(self, x):
        return x + 1


class FooConstraintViolation(torch.nn.Module):
    """Seed 002 'Constraint violations, suggested fixes' Foo."""

    def forward(self, x, y):
        w = x + y
        return w + torch.ones(4)


# ---------------------------------------------------------------------------
# Data-dependent values (002)
# ---------------------------------------------------------------------------

class FooItemToList(torch.nn.Module):
    def forward(self, x, y):
        a = x.item()
        b = y.tolist()
        return b + [a]


class FooDataDependentBranch(torch.nn.Module):
    def forward(self, x, y):
        a = x.item()
        if a // 2 >= 5:
            return y + 2
        else:
            return y * 5


class FooDataDependentBranchChecked(torch.nn.Module):
    def forward(self, x, y):
        a = x.item()
        torch._check(a >= 10)
        torch._check(a <= 60)
        if a // 2 >= 5:
            return y + 2
        else:
            return y * 5


class FooItemIndex(torch.nn.Module):
    def forward(self, x, y):
        a = x.item()
        return y[a]


class FooItemIndexChecked(torch.nn.Module):
    def forward(self, x, y):
        a = x.item()
        torch._check(a >= 0)
        torch._check(a < y.shape[0])
        return y[a]


class FooItemIntCast(torch.nn.Module):
    def forward(self, x, y):
        a = x.item()
        b = torch.cat([y for y in range(a)], dim=0)
        return b + int(a)


class FooItemRepeat(torch.nn.Module):
    def forward(self, x, y):
        a = x.item()
        b = y.unsqueeze(0).repeat(a, 1)
        return b + a


# ---------------------------------------------------------------------------
# Custom ops (002)
# ---------------------------------------------------------------------------

@torch.library.custom_op("my_custom_library::custom_op", mutates_args={})
def custom_op(x: torch.Tensor) -> torch.Tensor:
    print("custom_op called!")
    return torch.relu(x)


@custom_op.register_fake
def custom_op_meta(x):
    # Returns an empty tensor with the same shape as the expected output
    return torch.empty_like(x)


class CustomOpExample(torch.nn.Module):
    def forward(self, x):
        x = torch.sin(x)
        x = torch.ops.my_custom_library.custom_op(x)
        x = torch.cos(x)
        return x


# ---------------------------------------------------------------------------
# IR / decompositions (000, 002) and running the exported program (000, 002)
# ---------------------------------------------------------------------------

class DecompExample(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 3, 1, 1)
        self.bn = torch.nn.BatchNorm2d(3)

    def forward(self, x):
        x = self.conv(x)
        x = self.bn(x)
        return (x,)


class MLinear(torch.nn.Module):
    """'Decompositions' M: Linear(3, 4)."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 4)

    def forward(self, x):
        return self.linear(x)


class MLinear3(torch.nn.Module):
    """'Running the Exported Program' M: Linear(3, 3) (CPU here, not CUDA)."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 3)

    def forward(self, x):
        x = self.linear(x)
        return x
