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

The freshly exported program is lowered (torch cannot lower some reloaded programs, e.g.
those whose range constraints have derived keys); meta.json's print_matches_original says
whether it prints like the reloaded one.
"""

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
    with open(path, "w") as f:
        json.dump({"core_aten_ops": sorted(core), "always_decomposed": sorted(always)}, f, indent=1)
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
