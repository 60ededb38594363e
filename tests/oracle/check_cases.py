#!/usr/bin/env python3
"""Oracle for `exportlens check`: torch.export's outcome for dynamic_shapes specs.

Usage:  python check_cases.py --out DIR

For every model below, the example inputs are exported once with every
dimension Dim.AUTO and saved as DIR/programs/<model>.pt2; that is the program
`exportlens check` re-solves.  For every case (a model and a spec, in the
Python syntax users write and ExportLens reads), the same model is exported
by torch with the case's spec and DIR/<case>/meta.json records:

    name, model, program, spec, description, torch_version,
    status            "ok" | "violation" | "error"
    error_type, message                (violation / error)
    constraints_violated               the names in "Constraints violated (a, b)!"
    violations                         the "  - ..." lines, stripped
    suggested_fixes                    the lines after "Suggested fixes:"
    range_constraints {expr: [lo, hi]} (ok; "int_oo" for infinity)
    input_shapes      {arg: [dims]}    (ok; user inputs, None for non-tensors)

EXPECTED gives each case's outcome; generation fails (exit 1, naming the
case) when torch's differs, or when a refine=True case gets no suggested fixes.
A case marked refine=True also gets a follow-up case "<name>_refined": torch's
own refine_dynamic_shapes_from_suggested_fixes applied to the spec, exported
again (the "paste the fixes back" check).  DIR/manifest.json lists the cases.
"""

import argparse
import dataclasses
import json
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import torch  # noqa: E402
from torch.export import Dim  # noqa: E402

import seed_models as sm  # noqa: E402

SEED = 0

# ---------------------------------------------------------------------------
# Models (with their example inputs) and cases
# ---------------------------------------------------------------------------

r = torch.randn
MODELS = {
    "example1": (sm.DynamicShapesExample1, lambda: (r(10, 10, 2),)),
    "example2": (sm.DynamicShapesExample2, lambda: (r(4, 8), r(8, 2))),
    "example3": (sm.DynamicShapesExample3, lambda: (r(8, 16), r(16, 32))),
    "derived1": (sm.DerivedDimExample1, lambda: (r(5), r(6))),
    "derived2": (sm.DerivedDimExample2, lambda: (r(4), r(10))),
    "dynamic_model": (sm.DynamicModel, lambda: (r(6, 5), r(4), r(8, 4), r(32))),
    "dynamic_model_v2": (sm.DynamicModelV2, lambda: (r(6, 5), r(4), r(8, 4), r(32))),
    "foo": (sm.FooConstraintViolation, lambda: (r(6, 4), r(6, 4))),
    "named_2dx": (sm.NamedDims2dx, lambda: (r(8, 3), r(16, 5))),
    "named_4dx": (sm.NamedDims4dx, lambda: (r(32, 3),)),
    "linear_batch1": (lambda: torch.nn.Linear(4, 3), lambda: (r(1, 4),)),
    "item_branch_checked": (sm.FooDataDependentBranchChecked, lambda: (torch.tensor(32), r(4))),
    "item_index_checked": (sm.FooItemIndexChecked, lambda: (torch.tensor(32), r(60))),
    "item_index_unchecked": (sm.FooItemIndex, lambda: (torch.tensor(32), r(60))),
    "item_repeat": (sm.FooItemRepeat, lambda: (torch.tensor(32), r(60))),
    "item_tolist": (sm.FooItemToList, lambda: (torch.tensor(1), torch.tensor([2, 3]))),
}

# Small programs over the common ops, exported with every dim Dim.AUTO, whose
# node shapes ExportLens' shape rules must reproduce (programs/op_<name>.pt2).
def _probe(fn, *shapes_or_tensors):
    def inputs():
        return tuple(torch.randn(*s) if isinstance(s, tuple) else s() for s in shapes_or_tensors)
    n = len(shapes_or_tensors)

    class Probe(torch.nn.Module):
        pass
    if n == 1:
        Probe.forward = lambda self, x: fn(x)
    elif n == 2:
        Probe.forward = lambda self, x, y: fn(x, y)
    else:
        Probe.forward = lambda self, x, y, z: fn(x, y, z)
    return Probe, inputs


F = torch.nn.functional
PROBES = {
    "slice_end": _probe(lambda y: y[:, :16], (16, 32)),
    "slice_start": _probe(lambda x: x[:, 2:], (10, 10)),
    "slice_step": _probe(lambda y: y[1::3], (10,)),
    "slice_negative": _probe(lambda y: y[:-1], (10,)),
    "slice_middle": _probe(lambda y: y[2:5], (10,)),
    "select": _probe(lambda y: y[3], (10, 4)),
    "select_negative": _probe(lambda y: y[-1], (10, 4)),
    "narrow": _probe(lambda y: y.narrow(0, 1, 3), (10, 4)),
    "flatten": _probe(lambda y: y.flatten(), (8, 4)),
    "view_infer": _probe(lambda y: y.view(-1, 4), (8, 4)),
    "reshape_sym": _probe(lambda y: y.reshape(y.shape[0] * 2, -1), (8, 4)),
    "broadcast": _probe(lambda x, y: x + y, (4,), (8, 4)),
    "matmul": _probe(lambda x, y: x @ y, (4, 8), (8, 2)),
    "bmm": _probe(lambda x, y: torch.bmm(x, y), (3, 4, 8), (3, 8, 2)),
    "matmul_3d_2d": _probe(lambda x, y: x @ y, (3, 4, 8), (8, 2)),
    "matmul_batch_broadcast": _probe(lambda x, y: x @ y, (3, 4, 8), (1, 8, 2)),
    "cat": _probe(lambda x, y: torch.cat([x, y], 0), (3, 4), (5, 4)),
    "stack": _probe(lambda x, y: torch.stack([x, y]), (3, 4), (3, 4)),
    "split": _probe(lambda x: torch.split(x, 2), (6, 4)),
    "chunk": _probe(lambda x: x.chunk(3), (6, 4)),
    "unsqueeze_squeeze": _probe(lambda x: x.unsqueeze(1).squeeze(1), (6, 4)),
    "permute_transpose": _probe(lambda x: x.permute(1, 0).transpose(0, 1), (6, 4)),
    "expand": _probe(lambda x, y: x.expand(y.shape[0], -1), (1, 4), (5, 4)),
    "reductions": _probe(lambda x: (x.sum(1), x.mean(-1, keepdim=True), x.amax(0), x.argmax(1)), (6, 4)),
    "softmax_layer_norm": _probe(lambda x: F.layer_norm(x.softmax(-1), (4,)), (6, 4)),
    "embedding": _probe(lambda i, w: F.embedding(i, w), lambda: torch.randint(0, 10, (6,)), (10, 4)),
    "index": _probe(lambda x, i: x[i], (6, 4), lambda: torch.randint(0, 6, (3,))),
    "arange_full_zeros": _probe(lambda x: torch.arange(x.shape[0]) + torch.full((x.shape[0],), 2.0) + x
                                + torch.zeros(x.shape[0]), (6,)),
    "conv2d": _probe(lambda x, w: F.conv2d(x, w), (2, 3, 8, 8), (4, 3, 3, 3)),
    "conv2d_padded": _probe(lambda x, w: F.conv2d(x, w, padding=1, stride=2), (2, 3, 8, 8), (4, 3, 3, 3)),
    "pools": _probe(lambda x: (F.max_pool2d(x, 2), F.avg_pool2d(x, 3, 2, 1), F.adaptive_avg_pool2d(x, 1)),
                    (2, 3, 8, 8)),
    "batch_norm": _probe(lambda x, m, v: F.batch_norm(x, m, v), (2, 3, 8, 8), (3,), (3,)),
    "linear_3d": _probe(lambda x, w: F.linear(x, w), (2, 5, 8), (4, 8)),
    "where": _probe(lambda c, x, y: torch.where(c > 0, x, y), (6, 4), (6, 4), (4,)),
    "repeat": _probe(lambda x: x.repeat(2, 1), (6, 4)),
    "sdpa": _probe(lambda q, k, v: F.scaled_dot_product_attention(q, k, v), (2, 4, 6, 8), (2, 4, 6, 8), (2, 4, 6, 8)),
    "view_by_halves": _probe(lambda x: x.view(x.shape[0] // 2, 2, -1), (8, 4)),
    "pad_cumsum": _probe(lambda x: F.pad(x, (1, 2)).cumsum(0), (6, 4)),
}
MODELS.update({"op_" + name: probe for name, probe in PROBES.items()})


# The solver classes real architectures meet (tests/corpus), each in a program
# of a few ops, so that a regression names the class, not the architecture.
class StridedConvNorm(torch.nn.Module):
    """ConvNeXt in miniature: a stride-4 stem, then three stride-2 convs, each after a channels-last layer
    norm (permute to NHWC, layer_norm, permute back), so each conv's input and output are channels-last.
    At a 32 x 32 example the last conv's output is 1 x 1: torch's fake conv converts its output to
    channels-last and checks its stride order there (guards on Max(1, h // 32)), which decide the
    tensor_meta probe's size == 1 check without a guard of its own."""
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 8, 4, 4)
        self.norms = torch.nn.ModuleList(torch.nn.LayerNorm(8) for _ in range(3))
        self.downs = torch.nn.ModuleList(torch.nn.Conv2d(8, 8, 2, 2) for _ in range(3))

    def forward(self, x):
        x = self.stem(x)
        for norm, down in zip(self.norms, self.downs):
            x = down(norm(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2))
        return x.mean((2, 3))


class StridedLength(torch.nn.Module):
    """A stride-32 conv1d, then a linear over channels x length: the length after the conv must be 1.
    kernel 1: (1 + (L - 1) // 32) == 1, which torch solves to L <= 32; kernel 32: L // 32 == 1, which
    torch's solver specializes (to the example) unless the spec's range already satisfies it."""
    def __init__(self, kernel):
        super().__init__()
        self.conv = torch.nn.Conv1d(4, 4, kernel, 32)
        self.head = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.conv(x).flatten(1))


class PatchPositions(torch.nn.Module):
    """ViT patches with a fixed position table: (h // 8) * (w // 8) == 16; with one Dim for both sides it
    is the quadratic (h // 8)**2 == 16, solved to its positive root (h = 32)."""
    def __init__(self):
        super().__init__()
        self.patch = torch.nn.Conv2d(3, 8, 8, 8)
        self.pos = torch.nn.Parameter(torch.randn(1, 16, 8))

    def forward(self, x):
        return self.patch(x).flatten(2).transpose(1, 2) + self.pos


class TransposedGridReshape(torch.nn.Module):
    """A transposed [B, C, h*w] reshaped to a fixed 2 x 2 grid and added to the [B, C, h, w] map it came
    from (EfficientFormerV2's attention at a fixed resolution). Splitting a dim is a view whatever the
    strides, so torch's view algorithm runs on the transposed input too: it records [B, C, 2, (h*w)//2],
    and the add's broadcast guard has two symbols."""
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)

    def forward(self, x):
        y = self.conv(x)
        t = torch.relu(y.flatten(2).transpose(1, 2)).transpose(1, 2)
        return t.reshape(y.shape[0], 8, 2, 2) + y


class AssertedWindows(torch.nn.Module):
    """MaxViT's window and grid partitions: the user's asserts that the window divides each side, then a view
    splitting each side into windows. torch's view algorithm gives the window dim h // (h // 2), and reads
    that as 2 once h % 2 == 0 (the assert) and h % (h // 2) == 0 (the view's own) are known; the grid
    partition's view makes h % 2 == 0 again, which must not take the assert's place."""
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 8, 3, stride=4, padding=1)  # sides (s - 1) // 4 + 1, as MaxViT's

    def forward(self, x):
        y = self.stem(x).permute(0, 2, 3, 1).contiguous()
        B, H, W, C = y.shape
        torch._assert(H % 2 == 0, "the window must divide the height")
        torch._assert(W % 2 == 0, "the window must divide the width")
        windows = y.view(B, H // 2, 2, W // 2, 2, C).permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, 2, 2, C)
        # Then MaxViT's grid partition, whose view makes the guard W % 2 == 0 itself.
        grid = y.view(B, 2, H // 2, 2, W // 2, C).permute(0, 2, 4, 1, 3, 5).contiguous().view(-1, 2, 2, C)
        return windows * 2, grid * 2


class EvenStridedWidth(torch.nn.Module):
    """A stride-4 padded conv (width (w - 1) // 4 + 1, as MaxViT's stem) and user code that needs an even
    output width. torch rewrites (w - 1) // 4 + 1 as w/4 under w % 4 == 0, so (w/4) % 2 == 0 makes the
    width a multiple of 8: a congruence with a fractional coefficient."""
    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 8, 3, stride=4, padding=1)

    def forward(self, x):
        y = self.stem(x)
        torch._check(y.shape[3] % 2 == 0)
        return y * 2


class DtypeView(torch.nn.Module):
    """x.view(dtype) then an op on the result, so the reinterpreted shape is used."""
    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtype

    def forward(self, x):
        return x.view(self.dtype) * 2


class OneLayer(torch.nn.Module):
    """One convolution (1-D, 2-D or 3-D) or pooling layer, as torch's fake conv and pooling metas check it:
    the padded input against the dilated kernel (check_shape_forward: in + 2*pad >= dilation*(k - 1) + 1),
    the pooling output size (pool2d_shape_check / pool3d_shape_check: out >= 1), then the output sizes."""
    def __init__(self, layer):
        super().__init__()
        self.layer = layer

    def forward(self, x):
        return self.layer(x)


MODELS.update({
    "conv_kernel5": (lambda: OneLayer(torch.nn.Conv2d(3, 4, 5)), lambda: (r(2, 3, 16, 16),)),
    "conv_dilated": (lambda: OneLayer(torch.nn.Conv2d(3, 4, 3, dilation=3, padding=1)), lambda: (r(2, 3, 16, 16),)),
    "conv1d_strided": (lambda: OneLayer(torch.nn.Conv1d(4, 4, 7, stride=2)), lambda: (r(2, 4, 40),)),
    "conv3d_strided": (lambda: OneLayer(torch.nn.Conv3d(2, 4, 3, stride=2)), lambda: (r(2, 2, 9, 9, 9),)),
    "avg_pool4": (lambda: OneLayer(torch.nn.AvgPool2d(4)), lambda: (r(2, 3, 16, 16),)),
    "avg_pool3d4": (lambda: OneLayer(torch.nn.AvgPool3d(4)), lambda: (r(2, 3, 8, 8, 8),)),
    "max_pool1d2": (lambda: OneLayer(torch.nn.MaxPool1d(2)), lambda: (r(2, 4, 20),)),
    # view.dtype reinterprets the elements: the last dim scales by the element sizes' ratio.
    "view_dtype_smaller": (lambda: DtypeView(torch.float16), lambda: (r(2, 8),)),
    "view_dtype_larger": (lambda: DtypeView(torch.float32), lambda: (r(2, 8).half(),)),
    # Recurrent layers: their CPU kernels unbind the input over time, so the time dim specializes.
    "lstm_batch_first": (lambda: OneLayer(torch.nn.LSTM(8, 16, num_layers=2, batch_first=True)),
                         lambda: (r(2, 5, 8),)),
    "gru_time_first": (lambda: OneLayer(torch.nn.GRU(8, 16)), lambda: (r(5, 2, 8),)),
    "rnn_bidirectional": (lambda: OneLayer(torch.nn.RNN(8, 16, bidirectional=True, batch_first=True)),
                          lambda: (r(2, 5, 8),)),
})

MODELS.update({
    "strided_conv_norm": (StridedConvNorm, lambda: (r(2, 3, 32, 32),)),
    "strided_length_k1": (lambda: StridedLength(1), lambda: (r(2, 4, 20),)),
    "strided_length_k32": (lambda: StridedLength(32), lambda: (r(2, 4, 40),)),
    "patch_positions": (PatchPositions, lambda: (r(2, 3, 32, 32),)),
    "transposed_grid_reshape": (TransposedGridReshape, lambda: (r(2, 3, 4, 4),)),
    "asserted_windows": (AssertedWindows, lambda: (r(2, 3, 16, 16),)),
    "even_strided_width": (EvenStridedWidth, lambda: (r(2, 3, 16, 16),)),
})


# Inputs that are tuples, lists, dicts and registered dataclasses (pytree
# inputs): the spec mirrors each argument's structure.
class PairMatmul(torch.nn.Module):
    """forward(pair): pair is a tuple of two matrices."""
    def forward(self, pair):
        a, b = pair
        return a @ b


class ListSum(torch.nn.Module):
    """forward(xs): xs is a list of two tensors added together."""
    def forward(self, xs):
        return xs[0] + xs[1]


class TupleAndDict(torch.nn.Module):
    """forward(x, ys): x a tuple of two tensors, ys a dict whose "b" is a list."""
    def forward(self, x, ys):
        a, b = ys["a"], ys["b"]
        return x[0] + x[1] + a @ b[0]


@dataclasses.dataclass
class Pair:
    u: torch.Tensor
    v: torch.Tensor


torch.export.register_dataclass(Pair, serialized_type_name="check_cases.Pair")


class DataclassSum(torch.nn.Module):
    """forward(p, z): p a registered dataclass Pair(u, v)."""
    def forward(self, p, z):
        return p.u + p.v + z


class Kwargs(dict):
    """Keyword arguments, the last of a model's example inputs."""


def split_inputs(inputs):
    """(args, kwargs) of a model's example inputs."""
    if inputs and isinstance(inputs[-1], Kwargs):
        return tuple(inputs[:-1]), dict(inputs[-1])
    return tuple(inputs), {}


class KeywordsAndPair(torch.nn.Module):
    """forward(x, pair, *, scale, mask): keyword arguments (a float and a tensor) beside a tuple argument."""
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)

    def forward(self, x, pair, *, scale=1.0, mask=None):
        a, b = pair
        return (self.fc(x) * scale + a.sum() + b.mean()) * mask


MODELS.update({
    "nested_kwargs": (KeywordsAndPair, lambda: (r(8, 4), (r(3), r(2, 2)), Kwargs(scale=2.0, mask=torch.ones(8, 3)))),
    "nested_tuple": (PairMatmul, lambda: ((r(4, 8), r(8, 2)),)),
    "nested_list": (ListSum, lambda: ([r(6, 4), r(6, 4)],)),
    "nested_dict": (TupleAndDict, lambda: ((r(4, 3), r(4, 3)), {"a": r(4, 5), "b": [r(5, 3)]})),
    "nested_dataclass": (DataclassSum, lambda: (Pair(r(4, 3), r(4, 3)), r(4, 3))),
})

CASES = [
    # --- seed 000: named Dims ---------------------------------------------------
    dict(name="example1", model="example1", spec='''\
inp1_dim0 = Dim("inp1_dim0")
inp1_dim1 = Dim("inp1_dim1", min=4, max=18)
dynamic_shapes = {
    "x": {0: inp1_dim0, 1: inp1_dim1},
}
''', description="DynamicShapesExample1 x[:, 2:] with dim1 in [4, 18]"),
    dict(name="example1_bad", model="example1", spec='''\
inp1_dim0 = Dim("inp1_dim0")
inp1_dim1_bad = Dim("inp1_dim1_bad", min=11, max=18)
dynamic_shapes = {
    "x": {0: inp1_dim0, 1: inp1_dim1_bad},
}
''', description="the example (10) is outside inp1_dim1_bad's range [11, 18]"),
    dict(name="example2", model="example2", spec='''\
inp2_dim0 = Dim("inp2_dim0")
inner_dim = Dim("inner_dim")
inp3_dim1 = Dim("inp3_dim1")
dynamic_shapes = {
    "x": {0: inp2_dim0, 1: inner_dim},
    "y": {0: inner_dim, 1: inp3_dim1},
}
''', description="x @ y with a shared inner_dim"),
    dict(name="example2_unshared", model="example2", spec='''\
dynamic_shapes = {
    "x": {0: Dim("inp2_dim0"), 1: Dim("inp2_dim1")},
    "y": {0: Dim("inp3_dim0"), 1: Dim("inp3_dim1")},
}
''', description="x @ y with the inner dims as independent Dims", refine=True),
    dict(name="example3_unfixed", model="example3", spec='''\
dynamic_shapes = {
    "x": {0: Dim("inp4_dim0"), 1: Dim("inp4_dim1")},
    "y": {0: Dim("inp5_dim0"), 1: Dim("inp5_dim1")},
}
''', description="DynamicShapesExample3 (if x.shape[0] <= 16) with every dim a fresh Dim", refine=True),
    dict(name="example3_seed_fixed", model="example3", spec='''\
inp4_dim1 = Dim('shared_dim')
inp4_dim0 = Dim('inp4_dim0', max=16)
inp5_dim1 = Dim('inp5_dim1', min=17)
inp5_dim0 = inp4_dim1
dynamic_shapes = {
    "x": {0: inp4_dim0, 1: inp4_dim1},
    "y": {0: inp5_dim0, 1: inp5_dim1},
}
''', description="the seed's suggested_fixes() spec"),
    dict(name="derived1", model="derived1", spec='''\
dimx = torch.export.Dim("dimx", min=3, max=6)
dimy = dimx + 1
dynamic_shapes = ({0: dimx}, {0: dimy})
''', description="x + y[1:] with dimy = dimx + 1"),
    dict(name="derived2", model="derived2", spec='''\
dx = torch.export.Dim("dx", min=3, max=6)
dz = dx + 1
dy = dx * 3 + 1
dynamic_shapes = ({0: dz}, {0: dy})
''', description="z[1:] + y[1::3] with dz = dx + 1, dy = 3*dx + 1"),
    dict(name="derived1_independent", model="derived1", spec='''\
dynamic_shapes = ({0: Dim("dimx", min=3, max=6)}, {0: Dim("dimy")})
''', description="x + y[1:] with independent Dims: needs dimy = dimx + 1", refine=True),
    # --- seed 002: Dim.AUTO / DYNAMIC / STATIC, named dims ----------------------
    dict(name="dynamic_model_auto", model="dynamic_model", spec='''\
dynamic_shapes = {
    "w": (Dim.AUTO, Dim.AUTO),
    "x": (Dim.AUTO,),
    "y": (Dim.AUTO, Dim.AUTO),
    "z": (Dim.AUTO,),
}
''', description="DynamicModel, every dim Dim.AUTO"),
    dict(name="dynamic_model_w_dynamic", model="dynamic_model", spec='''\
dynamic_shapes = {
    "w": (Dim.AUTO, Dim.DYNAMIC),
    "x": (Dim.AUTO,),
    "y": (Dim.AUTO, Dim.AUTO),
    "z": (Dim.AUTO,),
}
''', description="w.shape[1] is Dim.DYNAMIC but the Linear specializes it to 5"),
    dict(name="dynamic_model_static_dynamic", model="dynamic_model", spec='''\
dynamic_shapes = {
    "w": (Dim.AUTO, Dim.AUTO),
    "x": (Dim.STATIC,),
    "y": (Dim.AUTO, Dim.DYNAMIC),
    "z": (Dim.AUTO,),
}
''', description="x static, y.shape[1] dynamic: x + y specializes y.shape[1] to 4"),
    dict(name="dynamic_model_named", model="dynamic_model", spec='''\
dynamic_shapes = {
    "w": (Dim("w0"), Dim("w1")),
    "x": (Dim("x0"),),
    "y": (Dim("y0"), Dim("y1")),
    "z": (Dim("z0"),),
}
''', description="DynamicModel with an independent Dim per dimension", refine=True),
    dict(name="dynamic_model_v2_auto", model="dynamic_model_v2", spec='''\
dynamic_shapes = {
    "w": (Dim.AUTO, Dim.AUTO),
    "x": (Dim.AUTO,),
    "y": (Dim.AUTO, Dim.AUTO),
    "z": (Dim.AUTO,),
}
''', description="assert / torch._check / if on sizes (user code guards), all Dim.AUTO"),
    dict(name="dynamic_model_v2_named", model="dynamic_model_v2", spec='''\
dynamic_shapes = {
    "w": (Dim("w0"), Dim("w1")),
    "x": (Dim("x0"),),
    "y": (Dim("y0"), Dim("y1")),
    "z": (Dim("z0"),),
}
''', description="DynamicModelV2 with an independent Dim per dimension", refine=True),
    dict(name="foo_dx_dy_d1", model="foo", spec='''\
dx, dy, d1 = torch.export.dims("dx", "dy", "d1")
dynamic_shapes = {
    "x": (dx, d1),
    "y": (dy, d1),
}
''', description="Foo: x + y + ones(4) needs dx == dy and d1 == 4", refine=True),
    dict(name="named_dims_2dx", model="named_2dx", spec='''\
dx = Dim("dx", min=4, max=256)
dh = Dim("dh", max=512)
dynamic_shapes = {
    "x": (dx, None),
    "y": (2 * dx, dh),
}
''', description="x: (dx, None), y: (2 * dx, dh)"),
    dict(name="named_dims_4dx", model="named_4dx", spec='''\
dx = Dim("dx", min=4, max=512)
dynamic_shapes = {
    "x": (4 * dx, None)  # x.shape[0] has range [16, 2048], and is divisible by 4.
}
''', description="x: (4 * dx, None)"),
    # --- 0/1 specialization ----------------------------------------------------
    dict(name="linear_batch1_auto", model="linear_batch1", spec='''\
dynamic_shapes = {
    "input": (Dim.AUTO, Dim.STATIC),
}
''', description="Linear(4, 3) on a batch of 1 with Dim.AUTO: 0/1 specialization"),
    dict(name="linear_batch1_dynamic", model="linear_batch1", spec='''\
dynamic_shapes = {
    "input": (Dim.DYNAMIC, Dim.STATIC),
}
''', description="Linear(4, 3) on a batch of 1 with Dim.DYNAMIC"),
    dict(name="linear_batch1_named", model="linear_batch1", spec='''\
dynamic_shapes = {
    "input": (Dim("batch"), Dim.STATIC),
}
''', description="Linear(4, 3) on a batch of 1 with a named Dim"),
    # --- data-dependent values (item(), torch._check) --------------------------
    dict(name="item_branch_checked", model="item_branch_checked", spec='''\
dynamic_shapes = {"x": None, "y": (Dim.AUTO,)}
''', description="torch._check(a >= 10), torch._check(a <= 60): u0 in [10, 60]"),
    dict(name="item_index_checked", model="item_index_checked", spec='''\
dynamic_shapes = {"x": None, "y": None}
''', description="torch._check(a >= 0), torch._check(a < y.shape[0]) then y[a]"),
    dict(name="item_index_unchecked", model="item_index_unchecked", spec='''\
dynamic_shapes = {"x": None, "y": None}
''', description="y[a] with a = x.item() and no checks"),
    dict(name="item_repeat", model="item_repeat", spec='''\
dynamic_shapes = {"x": None, "y": (Dim.AUTO,)}
''', description="y.unsqueeze(0).repeat(a, 1) + a"),
    dict(name="item_tolist", model="item_tolist", spec='''\
dynamic_shapes = {"x": None, "y": None}
''', description="x.item() and y.tolist(): three unbacked symbols"),
]


def _named_dims_case(name):
    """Every dim of a probe program a fresh named Dim: torch's guards must be ExportLens' guards."""
    _, inputs_fn = MODELS["op_" + name]
    torch.manual_seed(SEED)
    args = ["x", "y", "z"]
    entries = []
    for i, t in enumerate(inputs_fn()):
        dims = ", ".join(f'Dim("{args[i]}{d}")' for d in range(t.dim()))
        entries.append(f'    "{args[i]}": ({dims}{"," if t.dim() == 1 else ""}),' if t.dim() else f'    "{args[i]}": None,')
    spec = "dynamic_shapes = {\n" + "\n".join(entries) + "\n}\n"
    return dict(name=f"op_{name}_named", model="op_" + name, spec=spec,
                description=f"probe {name} with every dim a fresh named Dim")


CASES += [_named_dims_case(name) for name in PROBES]

CASES += [
    # --- solver classes of real architectures ----------------------------------
    dict(name="strided_conv_norm_named", model="strided_conv_norm", spec='''\
dynamic_shapes = {
    "x": (Dim("batch"), None, Dim("height"), Dim("width")),
}
''', description="strided conv stack with channels-last layer norms: torch bounds height and width to [32, 63] "
                    "from the last conv's stride-order checks, without a size == 1 guard", refine=True),
    dict(name="strided_length_k1_named", model="strided_length_k1", spec='''\
dynamic_shapes = {
    "x": (Dim("batch"), None, Dim("length")),
}
''', description="(1 + (length - 1) // 32) == 1 solved to length <= 32", refine=True),
    dict(name="strided_length_k32_named", model="strided_length_k32", spec='''\
dynamic_shapes = {
    "x": (Dim("batch"), None, Dim("length")),
}
''', description="length // 32 == 1 over an unbounded Dim: torch specializes length to the example", refine=True),
    dict(name="strided_length_k32_ranged", model="strided_length_k32", spec='''\
dynamic_shapes = {
    "x": (Dim("batch"), None, Dim("length", min=32, max=63)),
}
''', description="length // 32 == 1 over [32, 63]: every value satisfies it"),
    dict(name="patch_positions_side", model="patch_positions", spec='''\
side = Dim("side")
dynamic_shapes = {
    "x": (Dim("batch"), None, side, side),
}
''', description="(side // 8)**2 == 16: the quadratic specializes side to 32", refine=True),
    dict(name="patch_positions_named", model="patch_positions", spec='''\
dynamic_shapes = {
    "x": (Dim("batch"), None, Dim("height"), Dim("width")),
}
''', description="(height // 8)*(width // 8) == 16 over two Dims"),
    dict(name="transposed_grid_reshape_named", model="transposed_grid_reshape", spec='''\
dynamic_shapes = {
    "x": (Dim("batch"), None, Dim("height"), Dim("width")),
}
''', description="a transposed h*w split into a fixed 2 x 2 grid: torch reports the single-symbol guards, "
                    "not the two-symbol broadcast ((h*w)//2 == w)"),
    dict(name="even_strided_width_named", model="even_strided_width", spec='''\
dynamic_shapes = {
    "x": (Dim("batch"), None, None, Dim("width")),
}
''', description="((width - 1) // 4 + 1) % 2 == 0 in user code: torch suggests width = 8*_width"),
]

def _x_case(name, model, dims, description, refine=False):
    """A case over a one-input model: `dims` is the spec of its input x."""
    return dict(name=name, model=model, spec=f'dynamic_shapes = {{\n    "x": ({dims}),\n}}\n',
                description=description, refine=refine)


CASES += [
    # --- the fake conv's and pooling metas' size checks ---------------------------
    _x_case("conv_kernel5_small_min", "conv_kernel5", 'Dim("batch"), None, Dim("height", min=2), Dim("width", min=2)',
            "a 5 x 5 kernel over Dims from 2: torch needs height, width >= 5 and != 5 (output 1)", refine=True),
    _x_case("conv_kernel5_ok", "conv_kernel5", 'Dim("batch"), None, Dim("height", min=6, max=64), Dim("width", min=6)',
            "a 5 x 5 kernel over Dims from 6: every size fits"),
    _x_case("conv_dilated_named", "conv_dilated", 'Dim("batch"), None, Dim("height"), Dim("width")',
            "a 3 x 3 kernel, dilation 3, padding 1: height + 2 >= 7", refine=True),
    _x_case("conv_dilated_ok", "conv_dilated", 'Dim("batch"), None, Dim("height", min=6), Dim("width", min=6, max=100)',
            "the dilated kernel over Dims from 6"),
    _x_case("conv1d_strided_named", "conv1d_strided", 'Dim("batch"), None, Dim("length")',
            "conv1d, kernel 7, stride 2: length >= 7 (the 1-D conv runs as a 2-D one)", refine=True),
    _x_case("conv1d_strided_ok", "conv1d_strided", 'Dim("batch"), None, Dim("length", min=9, max=512)',
            "conv1d over lengths from 9"),
    _x_case("conv3d_strided_named", "conv3d_strided", 'Dim("batch"), None, Dim("depth"), Dim("height"), Dim("width")',
            "conv3d, kernel 3, stride 2: each spatial size >= 3", refine=True),
    _x_case("conv3d_strided_ok", "conv3d_strided",
            'Dim("batch"), None, Dim("depth", min=5), Dim("height", min=5), Dim("width", min=5)',
            "conv3d over sizes from 5"),
    _x_case("avg_pool4_named", "avg_pool4", 'Dim("batch"), None, Dim("height"), Dim("width")',
            "avg_pool2d(4): pool2d_shape_check's output size >= 1 needs height, width >= 4", refine=True),
    _x_case("max_pool1d_named", "max_pool1d2", 'Dim("batch"), None, Dim("length")',
            "max_pool1d reads the length as an int (check_max_pool1d's guard_int): length specializes to 20"),
    _x_case("max_pool1d_batch_ok", "max_pool1d2", 'Dim("batch", max=64), None, None',
            "max_pool1d with only its batch dynamic"),
    _x_case("view_dtype_smaller_named", "view_dtype_smaller", 'Dim("batch"), Dim("features")',
            "float32 viewed as float16: the last dim doubles, no guard"),
    _x_case("view_dtype_larger_named", "view_dtype_larger", 'Dim("batch"), Dim("features")',
            "float16 viewed as float32: the last dim must be even (a guard on features % 2)"),
    _x_case("lstm_steps_named", "lstm_batch_first", 'Dim("batch"), Dim("steps"), None',
            "a two-layer batch-first LSTM: unbinding over time specializes steps to 5"),
    _x_case("lstm_batch_ok", "lstm_batch_first", 'Dim("batch", max=64), None, None',
            "the LSTM with only its batch dynamic"),
    _x_case("gru_steps_named", "gru_time_first", 'Dim("steps"), Dim("batch"), None',
            "a time-first GRU: steps (dim 0) specializes"),
    _x_case("rnn_steps_named", "rnn_bidirectional", 'Dim("batch"), Dim("steps"), None',
            "a bidirectional batch-first RNN: steps specializes"),
    _x_case("avg_pool3d4_named", "avg_pool3d4", 'Dim("batch"), None, Dim("depth"), Dim("height"), Dim("width")',
            "avg_pool3d(4): the input against the kernel, then the output size", refine=True),
]

_X = "((dx, None), (dx, None))"
_NESTED_DIMS = 'dx = Dim("dx")\ndy = Dim("dy")\n'


def _nested_case(name, model, body, description, refine=False):
    """A case over a model with pytree inputs; `body` is the dynamic_shapes value (dx and dy are declared)."""
    return dict(name=name, model=model, spec=_NESTED_DIMS + "dynamic_shapes = " + body + "\n",
                description=description, refine=refine)


CASES += [
    # --- pytree inputs: tuples, lists, dicts, dataclasses -------------------------
    _nested_case("nested_tuple_named", "nested_tuple", '{"pair": ((Dim("m"), dx), (dx, Dim("n")))}',
                 "a tuple argument: a tuple of the two matrices' specs, the inner dim shared"),
    _nested_case("nested_tuple_positional", "nested_tuple", '(((Dim("m"), dx), (dx, Dim("n"))),)',
                 "the same spec by position"),
    _nested_case("nested_tuple_unshared", "nested_tuple", '{"pair": ((Dim("m"), Dim("k1")), (Dim("k2"), Dim("n")))}',
                 "the inner dims as independent Dims: torch needs k2 = k1", refine=True),
    _nested_case("nested_list_auto", "nested_list", '{"xs": [(Dim.AUTO, Dim.AUTO), (Dim.AUTO, Dim.STATIC)]}',
                 "a list argument with hints per dimension"),
    _nested_case("nested_list_dicts", "nested_list", '{"xs": [{0: Dim("b", max=64)}, {0: Dim("b", max=64)}]}',
                 "a list argument, each tensor's dims as a dict"),
    _nested_case("nested_list_none_item", "nested_list", '{"xs": [None, (Dim.DYNAMIC, None)]}',
                 "None for one tensor of the list: xs[0] static, so xs[1].shape[0] specializes"),
    _nested_case("nested_dict_shared", "nested_dict",
                 '{"x": ' + _X + ', "ys": {"a": (dx, dy), "b": [(dy, None)]}}',
                 "a tuple and a dict holding a list, Dims shared across them"),
    _nested_case("nested_dict_keys_reordered", "nested_dict",
                 '{"ys": {"b": [(dy, Dim.AUTO)], "a": (dx, dy)}, "x": ((dx, Dim.AUTO), (dx, Dim.AUTO))}',
                 "the dict spec's keys in another order than the input's"),
    _nested_case("nested_dict_fresh", "nested_dict",
                 '{"x": ' + _X + ', "ys": {"a": (Dim("p"), None), "b": [(Dim("q"), None)]}}',
                 "fresh Dims inside the dict: torch needs p = dx and q = 5", refine=True),
    _nested_case("nested_dict_list_as_dims", "nested_dict",
                 '{"x": (None, None), "ys": {"a": None, "b": [[None, None]]}}',
                 "(None, None) for the tuple (one None per tensor) and a list of dims for ys['b'][0]"),
    _nested_case("nested_dataclass_shared", "nested_dataclass", '{"p": [(dx, None), (dx, None)], "z": (dx, None)}',
                 "a registered dataclass: the list of its fields' specs"),
    _nested_case("nested_dataclass_fresh", "nested_dataclass",
                 '{"p": [(dx, None), (Dim("q"), None)], "z": (dx, None)}',
                 "a fresh Dim for p.v: torch needs q = dx", refine=True),
    _nested_case("nested_kwargs_ranged", "nested_kwargs",
                 '{"x": {0: Dim("batch", min=2, max=128)}, "pair": ((Dim("p"),), None), "scale": None, '
                 '"mask": {0: Dim("batch", min=2, max=128)}}',
                 "keyword arguments (a float, a tensor) beside a tuple whose first tensor has a Dim"),
    _nested_case("nested_kwargs_positional", "nested_kwargs", '({0: dx}, (None, None), None, {0: dx})',
                 "the same program's spec by position, keyword arguments after the positional ones"),
    # refused: the spec does not mirror the input
    _nested_case("nested_bad_tuple_for_dict", "nested_dict", '{"x": ' + _X + ', "ys": ((None, None), [None])}',
                 "a tuple spec for a dict input"),
    _nested_case("nested_bad_list_for_tuple", "nested_dict", '{"x": [(dx, None), (dx, None)], "ys": {"a": None, "b": [None]}}',
                 "a list spec for a tuple input"),
    _nested_case("nested_bad_length", "nested_dict", '{"x": ((dx, None),), "ys": {"a": None, "b": [None]}}',
                 "one spec for a tuple of two tensors"),
    _nested_case("nested_bad_key", "nested_dict", '{"x": ' + _X + ', "ys": {"a": None, "c": None}}',
                 "an unknown key in the dict spec"),
    _nested_case("nested_bad_none_for_dict", "nested_dict", '{"x": ' + _X + ', "ys": None}',
                 "None for a whole dict: torch needs the structure"),
    _nested_case("nested_bad_top_length", "nested_dict", '(' + _X + ',)',
                 "a positional spec for one of two arguments"),
    _nested_case("nested_bad_tensor_rank", "nested_dict", '{"x": ' + _X + ', "ys": {"a": None, "b": [(None, None, None)]}}',
                 "three dims for a 2-d tensor inside the dict"),
    _nested_case("nested_bad_dim_for_tensor", "nested_dict", '{"x": ' + _X + ', "ys": {"a": None, "b": [dx]}}',
                 "a bare Dim where a tensor's shape spec is expected"),
    _nested_case("nested_bad_hint_for_tensor", "nested_dict", '{"x": (Dim.AUTO, None), "ys": {"a": None, "b": [None]}}',
                 "Dim.AUTO for a whole tensor of the tuple"),
    _nested_case("nested_bad_dataclass_tuple", "nested_dataclass", '{"p": ((dx, None), (dx, None)), "z": (dx, None)}',
                 "a tuple for a dataclass (torch maps its fields as a list)"),
    _nested_case("nested_bad_dataclass_arity", "nested_dataclass", '{"p": [(dx, None)], "z": (dx, None)}',
                 "one spec for a dataclass of two fields"),
    _nested_case("nested_bad_kwargs_list", "nested_kwargs", '{"x": None, "pair": [None, None], "scale": None, "mask": None}',
                 "a list spec for the tuple beside keyword arguments"),
    _nested_case("nested_bad_dataclass_rank", "nested_dataclass", '{"p": [(dx, None), (dx, None, None)], "z": (dx, None)}',
                 "three dims for a field (the path is the field's position)"),
]

# torch.export's expected outcome for every case ("ok", "violation", "error");
# a "<case>_refined" case (torch's fixes pasted back) is expected to be ok.
# Generation fails when torch says otherwise, so a stray error never becomes
# the expectation silently and a torch upgrade that changes an outcome is seen.
EXPECTED = {
    "example1": "ok",
    "example1_bad": "violation",
    "example2": "ok",
    "example2_unshared": "violation",
    "example3_unfixed": "violation",
    "example3_seed_fixed": "ok",
    "derived1": "ok",
    "derived2": "ok",
    "derived1_independent": "violation",
    "dynamic_model_auto": "ok",
    "dynamic_model_w_dynamic": "violation",
    "dynamic_model_static_dynamic": "violation",
    "dynamic_model_named": "violation",
    "dynamic_model_v2_auto": "ok",
    "dynamic_model_v2_named": "violation",
    "foo_dx_dy_d1": "violation",
    "named_dims_2dx": "ok",
    "named_dims_4dx": "ok",
    "linear_batch1_auto": "ok",
    "linear_batch1_dynamic": "violation",
    "linear_batch1_named": "violation",
    "item_branch_checked": "ok",
    "item_index_checked": "ok",
    "item_index_unchecked": "ok",
    "item_repeat": "ok",
    "item_tolist": "ok",
    # torch's first fixes for example3 leave the != 16 guard of a second round
    "example3_unfixed_refined": "violation",
    "strided_conv_norm_named": "violation",
    "strided_length_k1_named": "violation",
    "strided_length_k32_named": "violation",
    "strided_length_k32_ranged": "ok",
    "patch_positions_side": "violation",
    "patch_positions_named": "violation",
    "transposed_grid_reshape_named": "violation",
    "even_strided_width_named": "violation",
    "conv_kernel5_small_min": "violation",
    "conv_kernel5_ok": "ok",
    "conv_dilated_named": "violation",
    "conv_dilated_ok": "ok",
    "conv1d_strided_named": "violation",
    "conv1d_strided_ok": "ok",
    "conv3d_strided_named": "violation",
    "conv3d_strided_ok": "ok",
    "avg_pool4_named": "violation",
    "avg_pool3d4_named": "violation",
    "max_pool1d_named": "violation",
    "max_pool1d_batch_ok": "ok",
    "view_dtype_smaller_named": "ok",
    "view_dtype_larger_named": "violation",
    "lstm_steps_named": "violation",
    "lstm_batch_ok": "ok",
    "gru_steps_named": "violation",
    "rnn_steps_named": "violation",
    # torch's fixes give the kernel's minimum; an output of size 1 (the tensor_meta probe's != 1) still fails
    **{f"{name}_refined": "violation" for name in ("conv_kernel5_small_min", "conv_dilated_named", "conv1d_strided_named",
                                                  "conv3d_strided_named", "avg_pool4_named", "avg_pool3d4_named")},
}
EXPECTED.update({
    "nested_tuple_named": "ok",
    "nested_tuple_positional": "ok",
    "nested_tuple_unshared": "violation",
    "nested_list_auto": "ok",
    "nested_list_dicts": "ok",
    "nested_list_none_item": "violation",
    "nested_dict_shared": "ok",
    "nested_dict_keys_reordered": "ok",
    "nested_dict_fresh": "violation",
    "nested_dict_list_as_dims": "ok",
    "nested_dataclass_shared": "ok",
    "nested_dataclass_fresh": "violation",
    "nested_kwargs_ranged": "ok",
    "nested_kwargs_positional": "ok",
    **{name: "error" for name in (
        "nested_bad_kwargs_list",
        "nested_bad_tuple_for_dict", "nested_bad_list_for_tuple", "nested_bad_length", "nested_bad_key",
        "nested_bad_none_for_dict", "nested_bad_top_length", "nested_bad_tensor_rank", "nested_bad_dim_for_tensor",
        "nested_bad_hint_for_tensor", "nested_bad_dataclass_tuple", "nested_bad_dataclass_arity",
        "nested_bad_dataclass_rank")},
})
# The op probes with a fresh Dim per dimension: these export as they are;
# every other probe's ops relate or specialize its dims (a violation with fixes).
PROBES_THAT_EXPORT = {"arange_full_zeros", "embedding", "flatten", "index", "pad_cumsum", "permute_transpose", "reductions", "repeat", "select_negative", "unsqueeze_squeeze"}
EXPECTED.update({f"op_{name}_named": "ok" if name in PROBES_THAT_EXPORT else "violation" for name in PROBES})

# ---------------------------------------------------------------------------


def bound(v):
    s = str(v)
    if s in ("int_oo", "oo"):
        return "int_oo"
    if s in ("-int_oo", "-oo"):
        return "-int_oo"
    try:
        return int(v)
    except (TypeError, ValueError):
        return s


def build_spec(text):
    ns = {"torch": torch, "Dim": Dim}
    exec(compile(text, "<dynamic_shapes>", "exec"), ns)
    return ns["dynamic_shapes"]


def auto_spec(inputs):  # (keyword arguments' specs after the positional ones', in order)
    def mirror(t):
        if isinstance(t, torch.Tensor):
            return tuple(Dim.AUTO for _ in t.shape)
        if isinstance(t, (tuple, list)):
            return type(t)(mirror(x) for x in t)
        if isinstance(t, dict):
            return {k: mirror(v) for k, v in t.items()}
        if dataclasses.is_dataclass(t):  # a registered dataclass: the list of its fields
            return [mirror(getattr(t, f.name)) for f in dataclasses.fields(t)]
        return None
    args, kwargs = split_inputs(inputs)
    return tuple(mirror(t) for t in args + tuple(kwargs.values()))


def classify(e):
    msg = str(e)
    name = type(e).__name__
    if "Constraints violated" in msg or "Specializations unexpectedly required" in msg:
        return "violation"
    if name == "ConstraintViolationError" or "conflicts between user-specified ranges" in msg:
        return "violation"
    return "error"


def parse_message(msg):
    lines = msg.split("\n")
    out = {"constraints_violated": [], "violations": [], "suggested_fixes": []}
    head = lines[0]
    for marker in ("Constraints violated (", "Specializations unexpectedly required ("):
        if head.startswith(marker):
            out["constraints_violated"] = head[len(marker):head.index(")!")].split(", ")
    in_fixes = False
    for line in lines[1:]:
        if line.startswith("Suggested fixes:"):
            in_fixes = True
            continue
        if in_fixes:
            if line.startswith("  ") and line.strip():
                out["suggested_fixes"].append(line.strip())
            else:
                in_fixes = False
        elif line.startswith("  - "):
            out["violations"].append(line[4:])
    return out


def leaf_names(ep):
    """Each user input's name: its argument and, inside a tuple, list, dict or dataclass argument, the path to
    it as keystr writes it ("x[0]", "ys['b'][0]", "p.u"); None when every argument is a plain input."""
    from torch.utils import _pytree as pytree

    call = ep.module_call_graph[0].signature
    spec = call.in_spec
    tree = pytree.tree_unflatten(list(range(spec.num_leaves)), spec)
    paths = [p for p, _ in pytree.tree_flatten_with_path(tree)[0]]
    if all(len(p) == 2 for p in paths):
        return None
    names = []
    for p in paths:
        argument = call.forward_arg_names[p[1].idx] if p[0].idx == 0 else p[1].key
        names.append(argument + pytree.keystr(p[2:]))
    return names


def user_input_shapes(ep):
    sig = ep.graph_signature
    names = set(sig.user_inputs)
    leaves = leaf_names(ep)
    shapes = {}
    for n in ep.graph.nodes:
        if n.op == "placeholder" and n.name in names:
            val = n.meta.get("val")
            key = leaves[list(sig.user_inputs).index(n.name)] if leaves else n.name
            shapes[key] = [str(s) for s in val.shape] if isinstance(val, torch.Tensor) else None
    if leaves:  # a constant input (a float keyword argument) has no placeholder: not a tensor
        for i, u in enumerate(sig.user_inputs):
            if not isinstance(u, str):
                shapes[leaves[i]] = None
    return shapes


def export_case(model_name, spec_text):
    builder, inputs_fn = MODELS[model_name]
    torch._dynamo.reset()
    torch.manual_seed(SEED)
    model = builder()
    inputs = inputs_fn()
    spec = build_spec(spec_text)
    args, kwargs = split_inputs(inputs)
    try:
        ep = torch.export.export(model, args, kwargs, dynamic_shapes=spec)
    except Exception as e:  # noqa: BLE001
        msg = str(e).split("\n\nThe error above occurred when calling torch.export.export")[0]
        rec = {"status": classify(e), "error_type": type(e).__name__, "message": msg}
        rec.update(parse_message(msg))
        return rec, spec
    rc = {str(k): [bound(v.lower), bound(v.upper)] for k, v in ep.range_constraints.items()}
    return {"status": "ok", "range_constraints": rc, "input_shapes": user_input_shapes(ep)}, spec


def spec_text_of(spec):
    """A Python-syntax rendering of a refined torch spec (Dims, derived dims, ints, hints)."""
    from torch.export.dynamic_shapes import _DerivedDim, _DimHint

    decls = {}

    def dim(d):
        if d is None:
            return "None"
        if isinstance(d, int):
            return str(d)
        if isinstance(d, _DimHint):
            return "Dim." + d.type.name
        if isinstance(d, _DerivedDim):
            root = d.root
            decls[root.__name__] = root
            return d.__name__
        decls[d.__name__] = d
        return d.__name__

    def shape(s):
        if s is None:
            return "None"
        nested = any(isinstance(v, (tuple, list, dict)) or v is None for v in (s.values() if isinstance(s, dict) else s))
        if isinstance(s, dict):
            if any(isinstance(k, str) for k in s):  # a dict argument: its items' specs
                return "{" + ", ".join(f'"{k}": {shape(v)}' for k, v in s.items()) + "}"
            return "{" + ", ".join(f"{k}: {dim(v)}" for k, v in s.items()) + "}"
        if nested and any(isinstance(v, (tuple, list, dict)) for v in s):  # a tuple/list argument
            items = [shape(v) for v in s]
        else:
            items = [dim(v) for v in s]
        open_, close = ("[", "]") if isinstance(s, list) else ("(", ")")
        return open_ + ", ".join(items) + ("," if len(items) == 1 and open_ == "(" else "") + close

    if isinstance(spec, dict):
        body = "{\n" + "".join(f'    "{k}": {shape(v)},\n' for k, v in spec.items()) + "}"
    else:
        body = "(" + ", ".join(shape(v) for v in spec) + ("," if len(spec) == 1 else "") + ")"
    head = ""
    for name, d in decls.items():
        args = [f'"{name}"']
        if d.min not in (0, None):
            args.append(f"min={d.min}")
        if str(d.max) != "int_oo":
            args.append(f"max={d.max}")
        head += f"{name} = Dim({', '.join(args)})\n"
    return head + "dynamic_shapes = " + body + "\n"


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore")
    os.makedirs(os.path.join(args.out, "programs"), exist_ok=True)
    t0 = time.monotonic()

    for name, (builder, inputs_fn) in MODELS.items():
        torch._dynamo.reset()
        torch.manual_seed(SEED)
        model, inputs = builder(), inputs_fn()
        positional, keywords = split_inputs(inputs)
        ep = torch.export.export(model, positional, keywords, dynamic_shapes=auto_spec(inputs))
        torch.export.save(ep, os.path.join(args.out, "programs", name + ".pt2"))

    manifest, problems = [], []
    cases = list(CASES)
    i = 0
    while i < len(cases):
        case = cases[i]
        i += 1
        rec, spec = export_case(case["model"], case["spec"])
        meta = {"name": case["name"], "model": case["model"], "program": f"programs/{case['model']}.pt2",
                "spec": case["spec"], "description": case["description"], "torch_version": torch.__version__}
        meta.update(rec)
        expected = case.get("expect") or EXPECTED.get(case["name"])
        if expected is None and case.get("refined_from"):
            expected = "ok"  # torch's own fixes, pasted back, must export
        if rec["status"] != expected:
            problems.append(f"{case['name']}: expected {expected}, torch says {rec['status']}"
                            + (f" ({rec.get('error_type')}: {rec.get('message', '')[:500]})" if rec["status"] != "ok" else ""))
        if case.get("refine") and not rec.get("suggested_fixes"):
            problems.append(f"{case['name']}: expected torch to suggest fixes, it suggests none")
        if case.get("refine") and rec["status"] == "violation" and rec.get("suggested_fixes"):
            fixed = torch.export.dynamic_shapes.refine_dynamic_shapes_from_suggested_fixes(rec["message"], spec)
            cases.insert(i, dict(name=case["name"] + "_refined", model=case["model"], spec=spec_text_of(fixed),
                                 description=case["description"] + ", with torch's suggested fixes applied",
                                 refined_from=case["name"]))
        if case.get("refined_from"):
            meta["refined_from"] = case["refined_from"]
        out_dir = os.path.join(args.out, case["name"])
        os.makedirs(out_dir, exist_ok=True)
        write_json(os.path.join(out_dir, "meta.json"), meta)
        manifest.append({"name": case["name"], "status": meta["status"]})
        print(f"{case['name']}: {meta['status']}", flush=True)
    write_json(os.path.join(args.out, "manifest.json"), manifest)
    print(f"{len(manifest)} check cases in {time.monotonic() - t0:.1f}s -> {args.out}", file=sys.stderr)
    if problems:
        print(f"\n{len(problems)} case(s) not as expected:", file=sys.stderr)
        for pr in problems:
            print("  " + pr, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
