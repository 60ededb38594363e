"""The corpus' programs of torch's own machinery: higher-order ops and pt2e quantization.

No model zoo has these at small size, so they are written here, each the way
torch's docs use the feature, and held to every aspect as the zoo's models are
(corpus_models.ARCHITECTURES lists them with family "hop" and "pt2e"):

  hop_while_loop     torch._higher_order_ops.while_loop: a counter and a state through a closed-over Linear
  hop_scan           torch._higher_order_ops.scan: a tanh RNN cell over the time steps
  hop_cond_in_map    torch._higher_order_ops.map over the batch, a torch.cond on each row inside
  hop_invoke_subgraph  a @torch.compiler.nested_compile_region function called twice (invoke_subgraph)
  hop_autocast       a torch.autocast("cpu", bfloat16) region (wrap_with_autocast)
  hop_no_grad        a torch.no_grad() region (wrap_with_set_grad_enabled)
  hop_mutating_op    a custom op (torch.library.custom_op) that mutates a buffer in place
  pt2e_mlp, pt2e_cnn torchao's X86InductorQuantizer (pt2e): prepared, calibrated, converted, re-exported

flex_attention is not among them: torch.export exports it, but torch.export.save
cannot write its block-mask operand (a tuple holding None) in torch 2.13, so no
.pt2 of it exists to open.
"""

import torch

WIDTH = 8


class WhileLoop(torch.nn.Module):
    """Three steps of h = tanh(fc(h)), counted by a carried int64 tensor."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(WIDTH, WIDTH)

    def forward(self, x):
        from torch._higher_order_ops.while_loop import while_loop

        def cond_fn(i, h):
            return i < 3

        def body_fn(i, h):
            return i + 1, torch.tanh(self.fc(h))

        return while_loop(cond_fn, body_fn, (torch.tensor(0), x))[1]


class Scan(torch.nn.Module):
    """h_t = tanh(x_t W + h_{t-1} U) over the steps of (batch, steps, features): carry and stacked states."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Linear(WIDTH, WIDTH)
        self.u = torch.nn.Linear(WIDTH, WIDTH, bias=False)

    def forward(self, x):
        from torch._higher_order_ops.scan import scan

        def step(h, x_t):
            h = torch.tanh(self.w(x_t) + self.u(h))
            return h, h.clone()

        h0 = torch.zeros(x.shape[0], WIDTH)
        last, states = scan(step, h0, x.transpose(0, 1))
        return last, states.transpose(0, 1)


class CondInMap(torch.nn.Module):
    """Per row of the batch (map over dim 0): double it where its sum is positive, else negate; plus a bias."""

    def __init__(self):
        super().__init__()
        self.bias = torch.nn.Parameter(torch.randn(WIDTH))

    def forward(self, x):
        from torch._higher_order_ops.map import map as hop_map

        def row(r, bias):
            return torch.cond(r.sum() > 0, lambda r, b: r * 2 + b, lambda r, b: -r + b, (r, bias))

        return hop_map(row, x, self.bias)


class InvokeSubgraph(torch.nn.Module):
    """One region compiled once, called on two inputs (torch.compiler.nested_compile_region)."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(WIDTH, WIDTH)

    def forward(self, x, y):
        @torch.compiler.nested_compile_region
        def region(a, w, b):
            return torch.nn.functional.gelu(torch.nn.functional.linear(a, w, b))

        return region(x, self.fc.weight, self.fc.bias) + region(y, self.fc.weight, self.fc.bias)


class Autocast(torch.nn.Module):
    """A linear and a matmul with a buffer under autocast to bfloat16, a float32 epilogue."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(WIDTH, WIDTH)
        self.register_buffer("proj", torch.randn(WIDTH, WIDTH))

    def forward(self, x):
        with torch.autocast("cpu", torch.bfloat16):
            y = torch.relu(self.fc(x)) @ self.proj
        return y.float() * 2


class NoGrad(torch.nn.Module):
    """A running statistic computed under torch.no_grad(), then used."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(WIDTH, WIDTH)

    def forward(self, x):
        with torch.no_grad():
            scale = self.fc(x).abs().mean(dim=-1, keepdim=True) + 1
        return self.fc(x) / scale


@torch.library.custom_op("exportlens_corpus::scale_", mutates_args=("state",))
def scale_(state: torch.Tensor, factor: float) -> None:
    state.mul_(factor)


@scale_.register_fake
def _(state, factor):
    return None


class MutatingOp(torch.nn.Module):
    """A buffer scaled in place by a custom op, then read."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(WIDTH, WIDTH)
        self.register_buffer("state", torch.ones(WIDTH))

    def forward(self, x):
        torch.ops.exportlens_corpus.scale_(self.state, 0.5)
        return self.fc(x) * self.state


@torch.library.custom_op("exportlens_corpus::accumulate_", mutates_args=("totals",))
def accumulate_(totals: list[torch.Tensor], x: torch.Tensor, weight: float = 1.0) -> torch.Tensor:
    for t in totals:
        t.add_(x.sum(0) * weight)
    return x * weight


@accumulate_.register_fake
def _(totals, x, weight=1.0):
    return torch.empty_like(x)


class MutatingListOp(torch.nn.Module):
    """Two running sums updated by one custom op that takes them as a list (and a defaulted weight) and
    also returns a tensor."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(WIDTH, WIDTH)
        self.register_buffer("total", torch.zeros(WIDTH))
        self.register_buffer("total_sq", torch.ones(WIDTH))

    def forward(self, x):
        y = torch.ops.exportlens_corpus.accumulate_([self.total, self.total_sq], self.fc(x))
        return y + self.total - self.total_sq


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).mean(dim=(2, 3)))


def pt2e_quantized(make, example):
    """torchao's X86InductorQuantizer on `make()`: prepared, calibrated on four batches, converted."""
    def build():
        from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
        import torchao.quantization.pt2e.quantizer.x86_inductor_quantizer as xiq

        model = make().eval()
        args = example()
        exported = torch.export.export(model, args)
        quantizer = xiq.X86InductorQuantizer().set_global(xiq.get_default_x86_inductor_quantization_config())
        prepared = prepare_pt2e(exported.module(), quantizer)
        for _ in range(4):
            prepared(*example())
        return convert_pt2e(prepared)
    return build
