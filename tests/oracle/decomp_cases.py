"""Decomposition oracle: what torch's ep.run_decompositions() makes of each fixture.

generate_fixtures.py calls two hooks from here:

  extra_fixtures(Fixture, randn, ins)  the models issue 5 adds (DecompExample in eval mode,
                                       a transformer block, a small CNN in eval and train mode)
  write_decompositions(fx, ep, inputs, out_dir, meta)
                                       for every fixture that exports, writes into its folder:

    functional.txt     str(ep.run_decompositions(decomp_table={}))
    core.txt           str(ep.run_decompositions())            (default_decompositions())
    core_outputs.pt    the Core ATen program's outputs on inputs.pt (deterministic programs)
    decomp.json        per level: status ("ok" / "error"), error text, ops (call_function
                       targets in graph order, subgraphs included), and for custom tables
                       (CUSTOM_TABLES) the same under "custom"
    core_<table>.txt   str(ep.run_decompositions(table)) for each custom table of the fixture

  and once per output directory, DIR/decomp_facts.json: torch's Core ATen operator set
  (ops tagged torch.Tag.core) and the composite ops export always decomposes (CIA ops that
  may alias or mutate, decomposed even by the empty table).

  write_lowering_cases(out_root)       models that only the lowering is compared on (no
                                       C++ tracer port, so not fixtures of the manifest):
                                       DIR/lowering_cases/index.json and, per case,
                                       DIR/lowering_cases/NAME/{program.pt2, functional.txt,
                                       core.txt, decomp.json, core_outputs.pt} as above, and
                                       inputs.pt / outputs.pt (the eager model's outputs)

The freshly exported program is lowered (torch cannot lower some reloaded programs, e.g.
those whose range constraints have derived keys); meta.json's print_matches_original says
whether it prints like the reloaded one.
"""

import copy
import json
import os

import torch
import torch.nn.functional as F


# ---------------------------------------------------------------------------
# Extra models
# ---------------------------------------------------------------------------

class TransformerBlock(torch.nn.Module):
    """Pre-norm block: layer norm, causal scaled-dot-product attention, GELU MLP, softmax out."""

    def __init__(self, d=16, heads=2):
        super().__init__()
        self.heads = heads
        self.ln1 = torch.nn.LayerNorm(d)
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)
        self.ln2 = torch.nn.LayerNorm(d)
        self.fc1 = torch.nn.Linear(d, 4 * d)
        self.fc2 = torch.nn.Linear(4 * d, d)
        self.drop = torch.nn.Dropout(0.1)

    def attend(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q = q.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        k = k.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        v = v.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        a = a.transpose(1, 2).contiguous().view(B, T, C)
        return x + self.drop(self.proj(a))

    def forward(self, x):
        x = self.attend(x)
        x = x + self.fc2(F.gelu(self.fc1(self.ln2(x))))
        return F.softmax(x, dim=-1)


class TransformerStack(torch.nn.Module):
    """`depth` blocks (the benchmark's large program), softmax only at the end."""

    def __init__(self, depth=40, d=16, heads=2):
        super().__init__()
        self.blocks = torch.nn.ModuleList(TransformerBlock(d, heads) for _ in range(depth))

    def forward(self, x):
        for block in self.blocks:
            x = block.attend(x)
            x = x + block.fc2(F.gelu(block.fc1(block.ln2(x))))
        return F.softmax(x, dim=-1)


class SmallCNN(torch.nn.Module):
    """conv -> batch norm -> relu -> max pool -> conv -> relu -> avg pool -> adaptive avg pool -> linear."""

    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = torch.nn.BatchNorm2d(8)
        self.conv2 = torch.nn.Conv2d(8, 16, 3)
        self.pool = torch.nn.MaxPool2d(2)
        self.avg = torch.nn.AvgPool2d(2)
        self.gap = torch.nn.AdaptiveAvgPool2d((1, 1))
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.avg(F.relu(self.conv2(x)))
        x = torch.flatten(self.gap(x), 1)
        return self.fc(x)


class _StateLate(torch.nn.Module):
    """A submodule with a buffer only (its first state comes after the parameters)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("lb", torch.ones(3))

    def forward(self, x):
        return x + self.lb


class _StateSub(torch.nn.Module):
    """A submodule with a parameter, a buffer, a non-persistent buffer, a tensor
    attribute (a constant) and a tensor made in forward (a lifted constant)."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)
        self.register_buffer("sb", torch.zeros(3))
        self.register_buffer("snp", torch.ones(3), persistent=False)
        self.c = torch.full((3,), 2.0)

    def forward(self, x):
        return self.lin(x) * torch.tensor([3.0]) + self.sb + self.snp + self.c


class _StateConstOnly(torch.nn.Module):
    """A submodule whose only state is a lifted constant."""

    def forward(self, x):
        return x - torch.tensor([1.0, 2.0, 3.0])


class LiftedStateOrder(torch.nn.Module):
    """Parameters, buffers (persistent and not), tensor attributes and lifted
    constants spread over submodules declared in another order than used:
    run_decompositions() lists them in the retraced module's order."""

    def __init__(self):
        super().__init__()
        self.k = _StateConstOnly()
        self.register_buffer("rb", torch.ones(3), persistent=False)
        self.sub = _StateSub()
        self.w = torch.nn.Parameter(torch.ones(3))
        self.late = _StateLate()
        self.register_buffer("rb2", torch.ones(3))
        self.rc = torch.ones(3)

    def forward(self, x):
        y = self.late(self.k(x) * self.w) + torch.tensor([5.0]) + self.rc
        return self.sub(y + self.rb + self.rb2)


class MutatedViewOfIntermediate(torch.nn.Module):
    """An in-place add through a view of an intermediate: functionalization
    writes it back into the intermediate and reads the view again through a
    regenerated view."""

    def forward(self, x):
        a = x + 1
        y = a.view(-1)
        y.add_(1)
        return y * 2


class MatmulResultAddedInPlace(torch.nn.Module):
    """Falcon's `mlp_output += attention_output`: an in-place add to a folded
    matmul's result, which the Core ATen matmul makes a view of its own mm."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(4, 4))

    def forward(self, x, z):
        m = x @ self.w.T
        m += z
        return m * 2


# Mutations through the view ops whose inverse is not a view op of the table
# above: torch writes them back with diagonal_scatter, as_strided_scatter, and,
# for an output of a multi-output view op taken by getitem, slice_scatter
# (split, split_with_sizes, chunk) or select_scatter (unbind).

class DiagonalOfInput(torch.nn.Module):
    """x.diagonal().add_(1) on a user input (written back with diagonal_scatter)."""

    def forward(self, x):
        x.diagonal().add_(1)
        return x * 2


class DiagonalOfIntermediate(torch.nn.Module):
    """An off-diagonal of an intermediate multiplied in place; the diagonal read after."""

    def forward(self, x):
        a = x + 1
        d = a.diagonal(1)
        d.mul_(3)
        return a * 2, d + 0


class AsStridedOfIntermediate(torch.nn.Module):
    """as_strided of an intermediate added to in place (as_strided_scatter)."""

    def forward(self, x):
        a = x + 1
        a.as_strided((2, 2), (1, 2)).add_(1)
        return a * 1


class SplitOfInput(torch.nn.Module):
    """a, b, c = x.split(2); a.add_(1): the first chunk written back into the input; the last, shorter one read again."""

    def forward(self, x):
        a, b, c = x.split(2)
        a.add_(1)
        return x * 2, c + 0


class SplitOfIntermediate(torch.nn.Module):
    """The last, shorter output of split_with_sizes and a chunk of an intermediate mutated in place."""

    def forward(self, x):
        y = x + 1
        a, b = y.split_with_sizes([3, 2], 1)
        b.mul_(2)
        c = y.chunk(2)[1]
        c.sub_(1)
        return y * 2, a + 0


class UnbindOfIntermediate(torch.nn.Module):
    """z.unbind(0)[1].copy_(y) (written back with select_scatter)."""

    def forward(self, x, y):
        z = x * 1
        z.unbind(0)[1].copy_(y)
        return z + 0


class UnbindOfInput(torch.nn.Module):
    """An output of unbind(1) of a user input added to in place, and read after."""

    def forward(self, x):
        u = x.unbind(1)
        u[2].add_(1)
        return x * 2, u[2] * 3


class UnfoldOfIntermediate(torch.nn.Module):
    """a.unfold(0, 2, 2).mul_(2): torch writes it back with unfold_backward; ExportLens refuses it."""

    def forward(self, x):
        a = x + 1
        a.unfold(0, 2, 2).mul_(2)
        return a * 1


class UnfoldReadAfterBaseChanged(torch.nn.Module):
    """Overlapping windows of an intermediate, read after a row of it was changed in place."""

    def forward(self, x):
        a = x + 1
        u = a.unfold(1, 2, 1)
        a[0].mul_(2)
        return u * 1


class ViewDtypeOfIntermediate(torch.nn.Module):
    """An intermediate's bits reinterpreted as int32 and added to in place: a dtype view, not a reshape."""

    def forward(self, x):
        h = x * 2
        h.view(torch.int32).add_(1)
        return h + 1


class ViewDtypeResized(torch.nn.Module):
    """float32 viewed as float16 (the last dim doubles), multiplied in place, both read after."""

    def forward(self, x):
        h = x * 2
        v = h.view(torch.float16)
        v.mul_(2)
        return h + 1, v


class ViewDtypeOfInput(torch.nn.Module):
    """A row of a user input's int32 view or-ed in place: through a select of a dtype view, into the input."""

    def forward(self, x):
        x.view(torch.int32)[0].bitwise_or_(1)
        return x * 2


# Mutations through a chain of views (a view of a view): torch's functionalization
# writes the new value back through every view's inverse, innermost first, from
# views made again from the root, and makes each view read later again from the
# root, view op by view op.

class ViewOfViewOfInput(torch.nn.Module):
    """A slice of a select of a user input, added to in place; both views are read after."""

    def forward(self, x):
        y = x[1]
        z = y[:, 2:4]
        z.add_(1)
        return y * 2, z + 1


class ViewOfViewOfBuffer(torch.nn.Module):
    """An unsqueeze of a transposed buffer, multiplied in place."""

    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.ones(4, 6))

    def forward(self, x):
        w = self.buf.transpose(0, 1).unsqueeze(0)
        w.mul_(x)
        return x + self.buf.sum()


class ViewChainOfIntermediate(torch.nn.Module):
    """view, t and select of an intermediate, copied into; an expand of the middle view is read after,
    and the transposed view is returned."""

    def forward(self, x, s):
        a = x * 2
        y = a.view(4, 6)
        t = y.t()
        e = t.unsqueeze(0).expand(2, 6, 4)
        t[1].copy_(s)
        return a + 1, e * 3, t


class IndexPutThroughViews(torch.nn.Module):
    """index_put_ on a transposed slice of a clone."""

    def forward(self, x, idx, v):
        a = x.clone()
        w = a[1:3].transpose(0, 1)
        w.index_put_((idx,), v)
        return a * 2, w


class ViewOfMatmulResult(torch.nn.Module):
    """m = x @ w.T (a view of the mm Core ATen's matmul makes), then a slice of a select of m added to."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(4, 4))

    def forward(self, x, z):
        m = x @ self.w.T
        m[0, 1:].add_(z)
        return m * 2


class ReshapedMatmulResult(torch.nn.Module):
    """m = x @ w.T, reshaped and transposed, multiplied in place through the chain."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(4, 4))

    def forward(self, x):
        m = x @ self.w.T
        r = m.reshape(6, 4).transpose(0, 1)
        r.mul_(2)
        return m + 1, r


class PermutedLinearResult(torch.nn.Module):
    """A 4-D linear (Core ATen: view, addmm, view), added to through a select of a permute of its output."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x, z):
        m = self.lin(x)
        m.permute(1, 0, 2, 3)[0].add_(z)
        return m.sum()


class FoldedMatVecAddedInPlace(torch.nn.Module):
    """m = x @ v (3-D by 1-D: Core ATen folds it into a view of mul and sum), then m[1] += z."""

    def __init__(self):
        super().__init__()
        self.v = torch.nn.Parameter(torch.randn(4))

    def forward(self, x, z):
        m = x @ self.v
        m[1].add_(z)
        return m * 2


class MatmulRequiresGrad(torch.nn.Module):
    """x @ weight.T on a non-contiguous 3-D activation: aten's matmul folds the
    batch into one mm when the 2-D operand requires grad (a parameter's view),
    else takes expand + bmm (a buffer, a value computed from the parameter,
    linear's own weight.t()), in and out of a no-grad region."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(6, 4))
        self.register_buffer("bw", torch.randn(6, 4))

    def forward(self, x):
        xt = x.transpose(0, 1)
        a = xt @ self.w.T
        b = xt @ self.bw.T
        c = xt @ (self.w * 2).T
        with torch.no_grad():
            d = xt @ self.w.T
            e = xt @ (self.w * 2).T
        f = self.w @ xt.transpose(1, 2)
        g = F.linear(xt, self.w)
        h = (x * self.w[0, :4]).transpose(0, 1) @ self.bw.T
        return a, b, c, d, e, f, g, h


# Where the Core ATen retrace puts a symbolic size (lowering's size placement,
# issue 11): torch's functional wrapper of every output compares its sizes,
# which makes a sym_size.int right after the op that made a size; the
# runtime-assert pass rebuilds it there from the inputs' sizes and keeps the
# first node in graph order of each value.

class ClassTokenCat(torch.nn.Module):
    """A patch embedding with a class token (ViT / BEiT / DINOv2): the cat's
    1 + H*W is rebuilt right after the cat, because the linear after the
    layer norm reads it; the program's own 1 + H*W (the arange) gives way."""

    def __init__(self):
        super().__init__()
        self.patch = torch.nn.Conv2d(3, 8, 4, stride=4)
        self.cls = torch.nn.Parameter(torch.randn(1, 1, 8))
        self.norm = torch.nn.LayerNorm(8)
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        y = self.patch(x).flatten(2).transpose(1, 2)
        y = torch.cat([self.cls.expand(y.shape[0], -1, -1), y], dim=1)
        position = torch.arange(y.shape[1])
        return self.fc(self.norm(y)) + position[None, :, None]


class TwoStridedConvs(torch.nn.Module):
    """A residual stage whose shortcut (1x1, stride 2) and main path (3x3,
    stride 2) compute the same spatial size (BiT): the main path's group norm
    reads the 3x3 conv's size, the group norm after `shortcut + main` the
    shortcut's (an add keeps its first operand's size), which comes first, so
    the size is rebuilt after the shortcut conv."""

    def __init__(self):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.down = torch.nn.Conv2d(8, 16, 1, stride=2, bias=False)
        self.conv = torch.nn.Conv2d(8, 16, 3, stride=2, padding=1, bias=False)
        self.norm1 = torch.nn.GroupNorm(4, 16)
        self.norm2 = torch.nn.GroupNorm(4, 16)

    def forward(self, x):
        x = self.stem(x)
        shortcut = self.down(x)
        h = self.norm1(self.conv(x))
        return self.norm2(shortcut + h)


class RoutedReshape(torch.nn.Module):
    """Mixture-of-experts routing's flattening (Mixtral): view(-1, C) of an
    RMS-normed [B, T, C] tensor, then reshape(-1, C). The view's strides are
    [Min(C, C*T), 1]; torch's is_contiguous_or_false knows that is contiguous,
    so the reshape stays a view that keeps its -1."""

    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(32))
        self.gate = torch.nn.Linear(32, 4, bias=False)

    def forward(self, x):
        h = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
        h = (self.weight * h).view(-1, x.shape[-1])
        logits = self.gate(h.reshape(-1, 32))
        return torch.nn.functional.softmax(logits, dim=-1, dtype=torch.float)


class DerivedDimPatches(torch.nn.Module):
    """A patch embedding over an input exported with a derived Dim (H = 4*h):
    no input size is h itself, so the retrace asks the conv's output for it."""

    def __init__(self):
        super().__init__()
        self.patch = torch.nn.Conv2d(3, 8, 4, stride=4)
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(self.patch(x).flatten(2).transpose(1, 2))


class ResolvedTokenAttention(torch.nn.Module):
    """Attention over a fixed token count (EfficientFormerV2): reshape(B, heads,
    -1, N) with N a constant, which the trace resolves to the symbolic H*W of
    the strided conv's output. No earlier tensor holds H*W, so the retrace
    rebuilds it right after the first view that does, not where matmul's
    decomposition first reads it; v's own depthwise conv comes in between."""

    def __init__(self):
        super().__init__()
        self.stride = torch.nn.Conv2d(3, 16, 3, stride=32, padding=1)
        self.q = torch.nn.Conv2d(16, 16, 1)
        self.k = torch.nn.Conv2d(16, 16, 1)
        self.v = torch.nn.Conv2d(16, 16, 1)
        self.v_local = torch.nn.Conv2d(16, 16, 3, padding=1, groups=16)

    def forward(self, x):
        B = x.shape[0]
        x = self.stride(x)
        H, W = x.shape[2], x.shape[3]
        q = self.q(x).reshape(B, 2, -1, 4).permute(0, 1, 3, 2)
        k = self.k(x).reshape(B, 2, -1, 4)
        v = self.v(x)
        v_local = self.v_local(v)
        v = v.reshape(B, 2, -1, 4).permute(0, 1, 3, 2)
        attn = (q @ k).softmax(dim=-1)
        return (attn @ v).transpose(2, 3).reshape(B, 16, H, W) + v_local


class PaddedWindows(torch.nn.Module):
    """TinyViT's window partition over sizes padded to the window: the
    reshape to (B * nH * nW, ws * ws, C) and the window reverse make
    products of four symbolic factors, which the retrace rebuilds from their
    sympy form, every factor before the first multiplication."""

    def __init__(self, window=4):
        super().__init__()
        self.window = window
        self.qkv = torch.nn.Linear(8, 24)

    def forward(self, x):
        B, H, W, C = x.shape
        ws = self.window
        pad_b = (ws - H % ws) % ws
        pad_r = (ws - W % ws) % ws
        x = torch.nn.functional.pad(x, (0, 0, 0, pad_r, 0, pad_b))
        pH, pW = H + pad_b, W + pad_r
        nH, nW = pH // ws, pW // ws
        x = x.view(B, nH, ws, nW, ws, C).transpose(2, 3).reshape(B * nH * nW, ws * ws, C)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        x = (q @ k.transpose(-2, -1)).softmax(dim=-1) @ v
        x = x.view(B, nH, nW, ws, ws, C).transpose(2, 3).reshape(B, pH, pW, C)
        return x[:, :H, :W].contiguous()


class SubsampledAttentionOutput(torch.nn.Module):
    """LeViT's attention-subsample output: reshape(B, -1, C) of a transposed
    (non-contiguous) tensor infers the -1 from numel, a size an earlier node
    already computes. The retrace's floordiv gives way to that node, and the
    two products it read (numel, B * C) stay in the graph unused."""

    def __init__(self):
        super().__init__()
        self.q = torch.nn.Conv2d(8, 16, 1, stride=2)
        self.kv = torch.nn.Conv2d(8, 32, 1)

    def forward(self, x):
        B = x.shape[0]
        q = self.q(x).flatten(2).reshape(B, 2, 8, -1).transpose(2, 3)
        k, v = self.kv(x).flatten(2).reshape(B, 2, 16, -1).split([8, 8], dim=2)
        attn = (q @ k).softmax(dim=-1)
        return (attn @ v.transpose(2, 3)).transpose(1, 2).reshape(B, -1, 16)


# Decomposition classes real models showed (T5, BART, Swin, ConvNeXt-V2):
# each the op a model writes, small.
class AddcmulResponseNorm(torch.nn.Module):
    """ConvNeXt-V2's global response norm ends in addcmul; with value=1 and
    another value: torch lowers each to mul, mul and add; addcdiv beside it
    (optimizer-style updates) to mul, div and add."""

    def forward(self, x, g, n):
        return torch.addcmul(x, g, n), torch.addcmul(x, g, n, value=0.5), torch.addcdiv(x, g, n.exp(), value=2)


class CausalTriangles(torch.nn.Module):
    """Causal and relative-position masks (T5, BART): triu and tril with a
    diagonal, on a float and an int tensor."""

    def forward(self, x):
        ones = torch.ones(x.shape[-2], x.shape[-1], dtype=torch.int64)
        return torch.triu(x, 1), torch.tril(x, -1), torch.triu(ones) * 2


class ShiftedWindows(torch.nn.Module):
    """Swin's cyclic shift: roll over two dims and back over one."""

    def forward(self, x):
        shifted = torch.roll(x, shifts=(-2, -2), dims=(1, 2))
        return torch.roll(shifted * 2, shifts=3, dims=1)


class MaskedAttentionLayouts(torch.nn.Module):
    """scaled_dot_product_attention with masks of three shapes, each output merged back
    to (batch, tokens, width) by transpose + reshape: torch's CPU flash path (output laid
    out as the query, the reshape a view) takes only a 2-D or 4-D mask; with a 3-D one (TinyViT's
    per-head biases) it runs the math kernel, whose contiguous output the reshape must copy."""

    def forward(self, q, k, v, bias3, bias4, bias2):
        b, h, n, d = q.shape
        outs = []
        for mask in (bias3, bias4, bias2):
            o = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
            outs.append(o.transpose(1, 2).reshape(b, n, h * d))
        return tuple(outs)


class WindowMaskFills(torch.nn.Module):
    """Swin's attention mask and BART's masks: scalars written into slices and
    a select of a fresh tensor and of a clone, and masked_fill."""

    def forward(self, x, m):
        mask = torch.zeros(x.shape[0], x.shape[1])
        count = 0
        for h in (slice(0, 2), slice(2, None)):
            mask[h, 1:3] = count
            count += 1
        y = x.clone()
        y[:, 2] = 1.5
        return x + mask, y, x.masked_fill(m, -1.0)


class CountedLoop(torch.nn.Module):
    """torch._higher_order_ops.while_loop: a counter and an accumulator carried
    while the counter is below a size of another input."""

    def forward(self, x, n):
        from torch._higher_order_ops.while_loop import while_loop

        def cond_fn(i, acc):
            return i < n.size(0)

        def body_fn(i, acc):
            return i + 1, acc * 2 + n[:3]

        return while_loop(cond_fn, body_fn, (torch.tensor(0), x))


class ScannedCell(torch.nn.Module):
    """torch._higher_order_ops.scan: a tanh cell over the steps of xs, a
    parameter closed over, the carry and a per-step sum out."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(4, 4))

    def forward(self, init, xs):
        from torch._higher_order_ops.scan import scan

        def step(c, x):
            h = torch.tanh(c @ self.w + x)
            return h, h.sum(-1)

        return scan(step, init, xs)


class WeightNormed(torch.nn.Module):
    """torch.nn.utils.parametrizations.weight_norm on a Linear (dim 0, the
    default) and on a Conv1d over its last dim (Wav2Vec2's positional conv):
    both reach _weight_norm's fused path, _weight_norm_interface."""

    def __init__(self):
        super().__init__()
        wn = torch.nn.utils.parametrizations.weight_norm
        self.fc = wn(torch.nn.Linear(6, 4))
        self.conv = wn(torch.nn.Conv1d(4, 4, 3, padding=1), dim=2)

    def forward(self, x):
        return self.conv(self.fc(x).transpose(1, 2))


class AutocastRegion(torch.nn.Module):
    """A linear, a matmul with a buffer and a conv under torch.autocast("cpu",
    bfloat16), an op outside the list inside it, and a float64 operand the
    region leaves alone: torch's lowering casts each listed op's floating
    operands to bfloat16 (one _to_copy each, last argument first)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(6, 6)
        self.conv = torch.nn.Conv2d(2, 2, 3, padding=1)
        self.register_buffer("proj", torch.randn(6, 6))

    def forward(self, x, img, d):
        with torch.autocast("cpu", torch.bfloat16):
            h = self.fc(x).relu()
            m = h @ self.proj
            c = self.conv(img)
            dd = d @ d
        return m.float() * 2, c.float(), dd


def _eval(model_class, *args):
    return lambda: model_class(*args).eval()


def _train(model_class, *args):
    return lambda: model_class(*args).train()


def extra_fixtures(Fixture, randn, ins):
    """The issue-5 models, as fixtures of generate_fixtures.py."""
    import seed_models as sm  # the fixture generator's models (DecompExample)

    S002 = "002_387698968ef3407d.txt"
    note = " Added for the decomposition oracle (issue 5)."
    return [
        Fixture("decomp_example_eval", S002, "DecompExample (Conv2d + BatchNorm2d) in eval mode: batch norm "
                "lowers to _native_batch_norm_legit_no_training, nothing is mutated." + note,
                _eval(sm.DecompExample), ins(randn(1, 1, 3, 3)), "ok"),
        Fixture("transformer_block", S002, "A pre-norm transformer block in eval mode: layer norm, causal "
                "scaled_dot_product_attention, dropout, GELU MLP, softmax." + note,
                _eval(TransformerBlock), ins(randn(2, 5, 16)), "ok"),
        Fixture("small_cnn", S002, "A small CNN in eval mode: conv2d, batch norm, relu, max_pool2d, "
                "avg_pool2d, adaptive_avg_pool2d, flatten, linear." + note,
                _eval(SmallCNN), ins(randn(2, 3, 16, 16)), "ok"),
        Fixture("small_cnn_train", S002, "The small CNN in train mode: batch norm updates its running "
                "statistics (BUFFER_MUTATION outputs after functionalization)." + note,
                _train(SmallCNN), ins(randn(2, 3, 16, 16)), "ok"),
    ]


# ---------------------------------------------------------------------------
# Custom tables (seed 002, "IR/Decompositions")
# ---------------------------------------------------------------------------

def my_awesome_custom_conv2d_function(x, weight, bias, stride=[1, 1], padding=[0, 0], dilation=[1, 1], groups=1):
    return 2 * torch.ops.aten.convolution(x, weight, bias, stride, padding, dilation, False, [0, 0], groups)


def _double_conv2d_table():
    table = torch.export.default_decompositions()
    table[torch.ops.aten.conv2d.default] = my_awesome_custom_conv2d_function
    return table


# fixture -> {ExportLens table name: torch table builder}
CUSTOM_TABLES = {"decomp_example": {"double_conv2d": _double_conv2d_table}}

# Programs whose outputs change from run to run (dropout in train mode, id()).
NONDETERMINISTIC = {"bad3_nonstrict"}

# The expected outcome of torch's own lowering: every fixture lowers at both
# levels except these, which torch 2.13 refuses with this error (type and the
# start of its message). Anything else is a surprise and fails the generation,
# so a torch upgrade that changes either way is noticed.
TORCH_REFUSES = {
    # fixture: {level: (error type, message start)}
    "bad2_strict": {level: ("RuntimeError", "Constant lifted_tensor_1 is mutated in the forward method")
                    for level in ("functional", "core")},
}


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def _ops(ep):
    out = []

    def walk(gm):
        for n in gm.graph.nodes:
            if n.op == "call_function":
                out.append(str(n.target))
        for _, sub in gm.named_children():
            if isinstance(sub, torch.fx.GraphModule):
                walk(sub)

    walk(ep.graph_module)
    return out


def _as_tuple(out):
    if isinstance(out, (tuple, list)):
        return tuple(tuple(o) if isinstance(o, list) else o for o in out)
    return (out,)


def _lower(ep, table, path):
    """(status record, lowered program or None); writes print(lowered) to `path`."""
    try:
        lowered = ep.run_decompositions() if table is None else ep.run_decompositions(table)
    except Exception as e:  # noqa: BLE001  (torch refuses some programs; that is an answer too)
        return {"status": "error", "error_type": type(e).__name__, "error": str(e)}, None
    with open(path, "w") as f:
        f.write(str(lowered))
    return {"status": "ok", "ops": _ops(lowered)}, lowered


def write_facts(out_root):
    path = os.path.join(out_root, "decomp_facts.json")
    if os.path.exists(path):
        return
    from torch._export.utils import _collect_all_valid_cia_ops_for_aten_namespace, _is_cia_op

    core, always = [], []
    for name in dir(torch.ops.aten):
        packet = getattr(torch.ops.aten, name, None)
        if not isinstance(packet, torch._ops.OpOverloadPacket):
            continue
        for overload in packet.overloads():
            op = getattr(packet, overload)
            if torch.Tag.core in op.tags:
                core.append(str(op))
    preservable = _collect_all_valid_cia_ops_for_aten_namespace()
    for name in dir(torch.ops.aten):
        packet = getattr(torch.ops.aten, name, None)
        if not isinstance(packet, torch._ops.OpOverloadPacket):
            continue
        for overload in packet.overloads():
            op = getattr(packet, overload)
            try:
                cia = _is_cia_op(op)
            except RuntimeError:  # Python-only overloads (aten::__and__.bool) have no dispatcher entry
                continue
            if cia and op not in preservable:
                always.append(str(op))
    # View ops: the first result aliases an argument, which it does not write.
    # Every registered schema (dir(torch.ops.aten) lists only the ops loaded so far).
    views = []
    for schema in torch._C._jit_get_all_schemas():
        if not schema.name.startswith("aten::"):
            continue
        alias = schema.returns[0].alias_info if schema.returns else None
        if alias is not None and not alias.is_write:
            views.append(f"{schema.name[len('aten::'):]}.{schema.overload_name or 'default'}")
    with open(path, "w") as f:
        json.dump({"core_aten_ops": sorted(core), "always_decomposed": sorted(always), "view_overloads": sorted(set(views))},
                  f, indent=1)
        f.write("\n")


def _check_expected(fixture, level, record):
    """Raises when torch's lowering of `fixture` at `level` is not what TORCH_REFUSES expects."""
    expected = TORCH_REFUSES.get(fixture, {}).get(level)
    if record["status"] == "ok" and expected:
        raise RuntimeError(f"{fixture}/{level}: torch now lowers it; drop it from TORCH_REFUSES")
    if record["status"] == "error":
        got = (record["error_type"], record["error"])
        if not expected or got[0] != expected[0] or not got[1].startswith(expected[1]):
            raise RuntimeError(f"{fixture}/{level}: unexpected torch lowering error {got[0]}: {got[1][:500]}")


def _save_lowered(core, out_dir):
    """torch's Core ATen program saved (as the fixtures are: op_schemas.save) and printed as
    torch.export.load reads it back, for the suite that reads torch's saved lowerings."""
    from exportlens_capture import op_schemas  # on sys.path: generate_fixtures puts resources/python there

    try:
        op_schemas.save(core, os.path.join(out_dir, "core_program.pt2"))
        with open(os.path.join(out_dir, "core_loaded.txt"), "w") as f:
            f.write(str(torch.export.load(os.path.join(out_dir, "core_program.pt2"))))
    except Exception as e:  # noqa: BLE001  (torch cannot always read back what it saved)
        return {"error": f"{type(e).__name__}: {str(e)[:300]}"}
    return {"program": "core_program.pt2", "print": "core_loaded.txt"}


def write_decompositions(fx, ep, inputs, out_dir, meta):
    write_facts(os.path.dirname(out_dir))
    record = {}
    record["functional"], _ = _lower(ep, {}, os.path.join(out_dir, "functional.txt"))
    record["core"], core = _lower(ep, None, os.path.join(out_dir, "core.txt"))
    for level in ("functional", "core"):
        _check_expected(fx.name, level, record[level])
    if core is not None and fx.name not in NONDETERMINISTIC:
        try:
            args = tuple(i.clone() if isinstance(i, torch.Tensor) else i for i in inputs)
            torch.manual_seed(0)
            torch.save(_as_tuple(core.module()(*args)), os.path.join(out_dir, "core_outputs.pt"))
            record["core"]["outputs"] = "core_outputs.pt"
        except Exception as e:  # noqa: BLE001
            record["core"]["outputs_error"] = f"{type(e).__name__}: {e}"
    if core is not None and getattr(fx, "save_lowered", False):
        record["core"]["saved"] = _save_lowered(core, out_dir)
    custom = {}
    for name, build in CUSTOM_TABLES.get(fx.name, {}).items():
        custom[name], lowered = _lower(ep, build(), os.path.join(out_dir, f"core_{name}.txt"))
        _check_expected(fx.name, f"core_{name}", custom[name])
        if lowered is not None:  # what the custom table's program computes, by torch
            args = tuple(i.clone() if isinstance(i, torch.Tensor) else i for i in inputs)
            torch.save(_as_tuple(lowered.module()(*args)), os.path.join(out_dir, f"core_{name}_outputs.pt"))
            custom[name]["outputs"] = f"core_{name}_outputs.pt"
    if custom:
        record["custom"] = custom
    with open(os.path.join(out_dir, "decomp.json"), "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    meta["decompositions"] = "decomp.json"


# ---------------------------------------------------------------------------
# Lowering-only cases (issue 11): what run_decompositions() makes of state
# order and of matmul folding, compared by tests/passes/test_decompositions.
# ---------------------------------------------------------------------------

def _dims(axes):
    """The input x's dynamic_shapes, {axis: (name, min, max)}, built when exported."""
    return lambda: {"x": {a: torch.export.Dim(n, min=lo, max=hi) for a, (n, lo, hi) in axes.items()}}


# (name, description, model factory, example inputs builder, strict[, dynamic_shapes builder])
LOWERING_CASES = [
    ("lifted_state_order", "Parameters, buffers (one non-persistent), tensor attributes and lifted constants over "
     "submodules declared in another order than used: the order of the lowered program's inputs.",
     _eval(LiftedStateOrder), lambda: (torch.randn(2, 3),), False),
    ("lifted_state_order_strict", "LiftedStateOrder exported with strict=True, whose signature lists the state in "
     "Dynamo's order (buffers and constants interleaved).",
     _eval(LiftedStateOrder), lambda: (torch.randn(2, 3),), True),
    ("matmul_requires_grad", "x @ weight.T on a transposed activation with a parameter, a buffer and computed "
     "weights, in and out of torch.no_grad(), and linear without bias: which matmuls fold into mm.",
     _eval(MatmulRequiresGrad), lambda: (torch.randn(2, 5, 4),), False),
    # Functionalization of a mutation through a view.
    ("mutated_view_of_intermediate", "y = (x + 1).view(-1); y.add_(1); y * 2: the add is written back into the "
     "intermediate (view(add_1, [2, 3])) and y is read again through a regenerated view.",
     _eval(MutatedViewOfIntermediate), lambda: (torch.randn(2, 3),), False),
    ("matmul_result_added_in_place", "m = x @ w.T; m += z (Falcon's residual): Core ATen's matmul makes m a view "
     "of its mm, so the add is written back into the mm and m read again through a regenerated view.",
     _eval(MatmulResultAddedInPlace), lambda: (torch.randn(2, 3, 4), torch.randn(2, 3, 4)), False),
    ("view_of_view_of_input", "A slice of a select of a user input added to in place: written back through "
     "slice_scatter into a select made again, then select_scatter into the input; both views read again.",
     _eval(ViewOfViewOfInput), lambda: (torch.randn(3, 4, 5),), False),
    ("view_of_view_of_buffer", "An unsqueeze of a transposed buffer multiplied in place (a buffer mutation "
     "through two views).",
     _eval(ViewOfViewOfBuffer), lambda: (torch.randn(1, 6, 4),), False),
    ("view_chain_of_intermediate", "copy_ into a select of a t of a view of an intermediate; an expand of the t "
     "and the t itself are read again from the intermediate, view op by view op.",
     _eval(ViewChainOfIntermediate), lambda: (torch.randn(2, 3, 4), torch.randn(4)), False),
    ("view_chain_of_intermediate_strict", "ViewChainOfIntermediate exported with strict=True.",
     _eval(ViewChainOfIntermediate), lambda: (torch.randn(2, 3, 4), torch.randn(4)), True),
    ("index_put_through_views", "index_put_ on a transposed slice of a clone.",
     _eval(IndexPutThroughViews), lambda: (torch.randn(4, 5), torch.tensor([0, 3]), torch.randn(2, 2)), False),
    ("view_of_matmul_result", "m = x @ w.T; m[0, 1:] += z: a view of a view of the view Core ATen's matmul makes "
     "of its mm, written back into the mm.",
     _eval(ViewOfMatmulResult), lambda: (torch.randn(2, 3, 4), torch.randn(2, 4)), False),
    ("reshaped_matmul_result", "m = x @ w.T; r = m.reshape(6, 4).transpose(0, 1); r *= 2: three views down "
     "to the mm.",
     _eval(ReshapedMatmulResult), lambda: (torch.randn(2, 3, 4),), False),
    ("permuted_linear_result", "A 4-D linear's output added to through a select of a permute (Core ATen: a view "
     "of the addmm).",
     _eval(PermutedLinearResult), lambda: (torch.randn(2, 3, 5, 4), torch.randn(5, 4)), False),
    ("permuted_linear_result_strict", "PermutedLinearResult exported with strict=True.",
     _eval(PermutedLinearResult), lambda: (torch.randn(2, 3, 5, 4), torch.randn(5, 4)), True),
    ("folded_matvec_added_in_place", "m = x @ v (3-D by 1-D); m[1] += z: written back into the sum Core ATen's "
     "matmul views.",
     _eval(FoldedMatVecAddedInPlace), lambda: (torch.randn(2, 3, 4), torch.randn(3)), False),
    ("diagonal_of_input", "x.diagonal().add_(1) on a user input: written back with diagonal_scatter.",
     _eval(DiagonalOfInput), lambda: (torch.randn(3, 3),), False),
    ("diagonal_of_intermediate", "a.diagonal(1).mul_(3) on an intermediate; a and the diagonal read after.",
     _eval(DiagonalOfIntermediate), lambda: (torch.randn(3, 4),), False),
    ("as_strided_of_intermediate", "a.as_strided((2, 2), (1, 2)).add_(1): written back with as_strided_scatter.",
     _eval(AsStridedOfIntermediate), lambda: (torch.randn(3, 3),), False),
    ("split_of_input", "a, b, c = x.split(2) of 5 rows; a.add_(1): slice_scatter into the input; c read "
     "again through a split made again.",
     _eval(SplitOfInput), lambda: (torch.randn(5, 3),), False),
    ("split_of_intermediate", "The last output of split_with_sizes([3, 2], 1) and chunk(2)[1] of an "
     "intermediate mutated in place.",
     _eval(SplitOfIntermediate), lambda: (torch.randn(4, 5),), False),
    ("unbind_of_intermediate", "z.unbind(0)[1].copy_(y): written back with select_scatter (Core ATen: its "
     "arange/eq/where).",
     _eval(UnbindOfIntermediate), lambda: (torch.randn(3, 4), torch.randn(4)), False),
    ("unbind_of_input", "x.unbind(1)[2].add_(1) on a user input, read after.",
     _eval(UnbindOfInput), lambda: (torch.randn(2, 3),), False),
    ("unfold_of_intermediate", "a.unfold(0, 2, 2).mul_(2): torch writes it back with unfold_backward, "
     "which ExportLens refuses (known_differences.h).",
     _eval(UnfoldOfIntermediate), lambda: (torch.randn(6, 3),), False),
    ("unfold_read_after_base_changed", "u = a.unfold(1, 2, 1); a[0].mul_(2); u * 1: the windows made again from "
     "the changed intermediate.",
     _eval(UnfoldReadAfterBaseChanged), lambda: (torch.randn(3, 4),), False),
    ("view_dtype_of_intermediate", "h.view(torch.int32).add_(1) on an intermediate: written back with "
     "view.dtype to the base's float32, not a reshape; every dtype view is followed by a detach.",
     _eval(ViewDtypeOfIntermediate), lambda: (torch.randn(3, 4),), False),
    ("view_dtype_of_intermediate_strict", "ViewDtypeOfIntermediate exported with strict=True.",
     _eval(ViewDtypeOfIntermediate), lambda: (torch.randn(3, 4),), True),
    # Inputs exact in float16, so that no half of a float32 reads as a float16 NaN or overflows.
    ("view_dtype_resized", "h.view(torch.float16).mul_(2): the view's last dim is twice the base's; h and the "
     "view read after (the view made again from the written-back h).",
     _eval(ViewDtypeResized), lambda: (torch.randn(3, 4).half().float(),), False),
    ("view_dtype_resized_strict", "ViewDtypeResized exported with strict=True.",
     _eval(ViewDtypeResized), lambda: (torch.randn(3, 4).half().float(),), True),
    ("view_dtype_of_input", "x.view(torch.int32)[0].bitwise_or_(1) on a user input: select_scatter into a dtype "
     "view made again, view.dtype back into the input.",
     _eval(ViewDtypeOfInput), lambda: (torch.randn(3, 4),), False),
    # Decomposition classes of real models (torch's Core ATen: mul/add, arange/ge/where, arange/fmod/index_select, copy).
    ("addcmul_response_norm", "addcmul with value=1 and value=0.5 (ConvNeXt-V2's global response norm), addcdiv.",
     _eval(AddcmulResponseNorm), lambda: (torch.randn(2, 4, 4), torch.randn(4), torch.randn(2, 4, 4)), False),
    ("causal_triangles", "triu(x, 1), tril(x, -1) and triu of an int64 ones tensor (T5 and BART masks).",
     _eval(CausalTriangles), lambda: (torch.randn(4, 5),), False),
    ("causal_triangles_dynamic", "CausalTriangles with both sizes dynamic.",
     _eval(CausalTriangles), lambda: (torch.randn(4, 5),), False,
     _dims({0: ("rows", 2, 64), 1: ("cols", 2, 64)})),
    ("shifted_windows", "roll over (1, 2) by (-2, -2), then over 1 by 3 (Swin's cyclic shift), static shapes.",
     _eval(ShiftedWindows), lambda: (torch.randn(2, 6, 6, 3),), False),
    ("shifted_windows_dynamic", "ShiftedWindows with a dynamic batch.",
     _eval(ShiftedWindows), lambda: (torch.randn(2, 6, 6, 3),), False, _dims({0: ("batch", None, None)})),
    ("window_mask_fills", "Scalars written into slices of a fresh tensor and into a select of a clone, and "
     "masked_fill (Swin's window mask, BART's causal mask).",
     _eval(WindowMaskFills), lambda: (torch.randn(4, 6), torch.rand(4, 6) > 0.5), False),
    ("masked_attention_layouts", "scaled_dot_product_attention with a 3-D (heads, L, S), a 4-D (1, heads, L, S) "
     "and a 2-D (L, S) additive mask, each output transposed and reshaped: the flash path's layout and a view, or "
     "the math kernel's and a copy.",
     _eval(MaskedAttentionLayouts),
     lambda: (torch.randn(2, 4, 6, 8), torch.randn(2, 4, 6, 8), torch.randn(2, 4, 6, 8), torch.randn(4, 6, 6),
              torch.randn(1, 4, 6, 6), torch.randn(6, 6)), False),
    ("autocast_region", "linear, matmul (with a buffer) and conv2d under torch.autocast('cpu', bfloat16), relu "
     "inside the region and a float64 matmul: the casts torch's retrace inserts.",
     _eval(AutocastRegion), lambda: (torch.randn(3, 6), torch.randn(1, 2, 5, 5), torch.randn(3, 3, dtype=torch.float64)),
     False),
    ("weight_norm", "weight_norm parametrizations of a Linear (dim 0) and a Conv1d (its last dim): _weight_norm "
     "lowered to linalg_vector_norm, div and mul.",
     _eval(WeightNormed), lambda: (torch.randn(2, 5, 6),), False),
    # Loops as higher-order ops: the lowering inside their subgraphs, and the runtime running them.
    ("while_loop_counter", "while_loop carrying an int64 counter and a tensor, the bound a size of another input.",
     _eval(CountedLoop), lambda: (torch.randn(3), torch.randn(5)), False),
    ("scan_tanh_cell", "scan of a tanh cell (matmul with a closed-over parameter) over 6 steps: carry and stacked sums.",
     _eval(ScannedCell), lambda: (torch.randn(2, 4), torch.randn(6, 2, 4)), False),
    # Where the retrace puts a symbolic size (one case per class the corpus showed).
    ("sizes_class_token_cat", "A class token cat after a patch embedding (ViT / BEiT / DINOv2): the lowering "
     "rebuilds the cat's 1 + H*W right after the cat, and the program's own 1 + H*W gives way to it.",
     _eval(ClassTokenCat), lambda: (torch.randn(2, 3, 32, 32),), False,
     _dims({0: ("batch", None, None), 2: ("height", 8, 64), 3: ("width", 8, 64)})),
    ("sizes_two_strided_convs", "Two stride-2 convs compute one size (BiT): it is rebuilt after the one whose "
     "size the residual add keeps.",
     _eval(TwoStridedConvs), lambda: (torch.randn(2, 3, 32, 32),), False,
     _dims({0: ("batch", None, None), 2: ("height", 16, 64), 3: ("width", 16, 64)})),
    ("sizes_routed_reshape", "Mixture-of-experts routing's flattening (Mixtral): reshape(-1, C) of a view whose "
     "stride is Min(C, C*T) stays a view with its -1; softmax to its own dtype casts nothing.",
     _eval(RoutedReshape), lambda: (torch.randn(2, 8, 32),), False,
     _dims({0: ("batch", None, None), 1: ("seq", None, 64)})),
    ("sizes_resolved_view", "Attention over a fixed token count (EfficientFormerV2): the H*W its view's trace "
     "resolved is rebuilt right after that view, with the H and W it needs.",
     _eval(ResolvedTokenAttention), lambda: (torch.randn(2, 3, 64, 64),), False,
     lambda: {"x": (torch.export.Dim.AUTO, torch.export.Dim.STATIC, torch.export.Dim.AUTO, torch.export.Dim.AUTO)}),
    ("sizes_padded_windows", "TinyViT's window partition over padded sizes: a product of four symbolic factors is "
     "rebuilt factors first, then multiplied left to right.",
     _eval(PaddedWindows), lambda: (torch.randn(2, 10, 7, 8),), False,
     lambda: {"x": (torch.export.Dim.AUTO, torch.export.Dim.AUTO, torch.export.Dim.AUTO, torch.export.Dim.STATIC)}),
    ("sizes_inferred_known", "LeViT's attention-subsample output: the -1 of a non-contiguous reshape is a size "
     "already computed; the numel and B * C products the retrace read for it stay, unused.",
     _eval(SubsampledAttentionOutput), lambda: (torch.randn(2, 8, 8, 8),), False,
     _dims({0: ("batch", None, None), 2: ("height", 4, 64), 3: ("width", 4, 64)})),
    ("sizes_derived_dim", "A patch embedding over H = W = 4*h (a derived Dim): h is no input's size, so it is "
     "read from the conv's output, right after the conv.",
     _eval(DerivedDimPatches), lambda: (torch.randn(2, 3, 32, 32),), False,
     lambda: (lambda h: {"x": {2: 4 * h, 3: 4 * h}})(torch.export.Dim("h", min=2, max=16))),
]


def write_lowering_cases(out_root):
    root = os.path.join(out_root, "lowering_cases")
    index = []
    for name, description, make, inputs, strict, *dims in LOWERING_CASES:
        torch.manual_seed(0)
        model, args = make(), inputs()
        ep = torch.export.export(model, args, strict=strict, dynamic_shapes=dims[0]() if dims else None)
        out_dir = os.path.join(root, name)
        os.makedirs(out_dir, exist_ok=True)
        torch.export.save(ep, os.path.join(out_dir, "program.pt2"))
        with open(os.path.join(out_dir, "print.txt"), "w") as f:
            f.write(str(ep))
        record = {}
        record["functional"], _ = _lower(ep, {}, os.path.join(out_dir, "functional.txt"))
        record["core"], core = _lower(ep, None, os.path.join(out_dir, "core.txt"))
        for level in ("functional", "core"):
            if record[level]["status"] != "ok":
                raise RuntimeError(f"lowering case {name}/{level}: torch fails: {record[level]['error']}")
        # Values, for comparing the lowered program's run with torch's: the
        # inputs, the eager model's outputs and the Core ATen program's, each
        # run on copies (a buffer the program mutates is shared with the model).
        torch.save(args, os.path.join(out_dir, "inputs.pt"))
        for program, file in ((copy.deepcopy(model), "outputs.pt"), (copy.deepcopy(core).module(), "core_outputs.pt")):
            torch.save(_as_tuple(program(*[a.clone() for a in args])), os.path.join(out_dir, file))
        record["core"]["outputs"] = "core_outputs.pt"
        with open(os.path.join(out_dir, "decomp.json"), "w") as f:
            json.dump(record, f, indent=1)
            f.write("\n")
        index.append({"name": name, "description": description, "strict": strict})
    with open(os.path.join(root, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
