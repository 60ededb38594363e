#!/usr/bin/env python3
"""The repeated-structure oracle: stacks of identical modules, and odd instances planted in them.

Usage:  python structure_models.py --out DIR

For each model below, writes DIR/<name>/:

  program.pt2      torch.export.save of the exported program (eval mode)
  structure.json   what the model is made of and what torch recorded about it:
    "expected_stacks"  the runs of repeated module calls the model is built from, from its
                       own construction (ModuleList / Sequential lengths, the loops of its
                       forward): parent call path, the instances (one list of module paths per
                       repetition: one path for a plain stack, several for a repeated group);
                       "varied": its instances are built with other settings (stages of
                       another depth and width), so none is odd
    "planted"          the instances built to differ from their siblings: path -> kind
                       ("activation", "width", "extra_op", "specialization") and a sentence
    "settings"         per varied stack (by its parent's path): each setting of the
                       model's construction per instance ("width", "depth", a submodule's class
                       or "" where an instance has none)
    "levels"           per IR level ("training": the program as exported, "core":
                       ep.run_decompositions()): every module call (chain of nn_module_stack
                       keys, the root module left out) with its path, class, and the
                       call_function nodes inside (nested calls included) as
                       [target, is_size_expression] in graph order; and
                       "weights": placeholder -> {target, shape, dtype} for parameters and buffers
    "range_constraints", "input_shapes"   of the exported program

  A size expression is a node whose value is a symbolic or plain integer computed from sizes
  (aten.sym_size.int and Python arithmetic on its results): torch makes one per size the
  first time the trace asks for it, so it sits in whichever instance asked first.

The oracle checks itself: the instances of each expected stack that are neither planted nor varied must have
equal op sequences (size expressions left out) and equal weight shapes in torch's program, and
each planted instance must differ from them; otherwise generation fails naming the stack.
"""

import argparse
import json
import os
import sys
import warnings
from collections import Counter

import torch
import torch.nn.functional as F
from torch.export import Dim

from transformer_models import TransformerStack  # shared with the other oracle


# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------

class ConvBlock(torch.nn.Module):
    """A residual 3x3 conv block (ResNet-like)."""

    def __init__(self, c):
        super().__init__()
        self.conv = torch.nn.Conv2d(c, c, 3, 1, 1, bias=False)
        self.bn = torch.nn.BatchNorm2d(c)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.relu(x + self.bn(self.conv(x)))


class Mixer(torch.nn.Module):
    """A 1x1 conv mixing the channels between groups of blocks."""

    def __init__(self, c, extra_op=False):
        super().__init__()
        self.conv = torch.nn.Conv2d(c, c, 1)
        self.bn = torch.nn.BatchNorm2d(c)
        self.extra_op = extra_op

    def forward(self, x):
        y = self.bn(self.conv(x))
        return y * 0.5 if self.extra_op else y


class Stage(torch.nn.Module):
    """`groups` times: `per_group` blocks, then a mixer (no module groups them)."""

    def __init__(self, c, groups, per_group):
        super().__init__()
        self.per_group = per_group
        self.blocks = torch.nn.ModuleList(ConvBlock(c) for _ in range(groups * per_group))
        self.mixers = torch.nn.ModuleList(Mixer(c) for _ in range(groups))

    def forward(self, x):
        for g, mixer in enumerate(self.mixers):
            for block in self.blocks[g * self.per_group:(g + 1) * self.per_group]:
                x = block(x)
            x = mixer(x)
        return x


class StagedCNN(torch.nn.Module):
    def __init__(self, stages, groups, per_group, c=4):
        super().__init__()
        self.stem = torch.nn.Conv2d(3, c, 3, 1, 1)
        self.stages = torch.nn.ModuleList(Stage(c, groups, per_group) for _ in range(stages))
        self.pool = torch.nn.AdaptiveAvgPool2d((1, 1))
        self.fc = torch.nn.Linear(c, 10)

    def forward(self, x):
        x = self.stem(x)
        for stage in self.stages:
            x = stage(x)
        return self.fc(torch.flatten(self.pool(x), 1))


class ResBlock(torch.nn.Module):
    """x + fc2(act(fc1(ln(x + pos)))): the layer the odd instances are planted in."""

    def __init__(self, d=16, hidden=64, act=None, extra_op=False, pos_len=1):
        super().__init__()
        self.pos = torch.nn.Parameter(torch.randn(pos_len, d) * 0.02)
        self.ln = torch.nn.LayerNorm(d)
        self.fc1 = torch.nn.Linear(d, hidden)
        self.act = act if act is not None else torch.nn.GELU()
        self.fc2 = torch.nn.Linear(hidden, d)
        self.extra_op = extra_op

    def forward(self, x):
        y = x + self.fc2(self.act(self.fc1(self.ln(x + self.pos))))
        return y * 0.5 if self.extra_op else y


# The odd instances of OddBlocks, by index: kind, how the block is built, what it does.
ODD = {
    1: ("activation", dict(act=torch.nn.ReLU()), "ReLU instead of GELU"),
    3: ("width", dict(hidden=32), "hidden width 32 instead of 64 (fc1, fc2)"),
    5: ("extra_op", dict(extra_op=True), "an extra multiplication by 0.5 at the end"),
    6: ("specialization", dict(pos_len=6), "a positional table of length 6: adding it "
        "broadcasts the sequence dim against 6, which specializes the Dim.AUTO sequence "
        "length to 6"),
}


class OddBlocks(torch.nn.Module):
    def __init__(self, depth=8):
        super().__init__()
        self.blocks = torch.nn.ModuleList(ResBlock(**ODD.get(i, (None, {}, None))[1]) for i in range(depth))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class PatchEmbed(torch.nn.Module):
    """Swin's features.0 as timm writes it: a strided conv, channels last, a layer norm."""

    def __init__(self, d=16):
        super().__init__()
        self.proj = torch.nn.Conv2d(3, d, 4, stride=4)
        self.norm = torch.nn.LayerNorm(d)

    def forward(self, x):
        return self.norm(self.proj(x).permute(0, 2, 3, 1)).flatten(1, 2)


class Downsample(torch.nn.Module):
    """Patch merging at toy size: a strided 2x2 conv widening the channels."""

    def __init__(self, c_in, c_out):
        super().__init__()
        self.conv = torch.nn.Conv2d(c_in, c_out, 2, stride=2)
        self.bn = torch.nn.BatchNorm2d(c_out)

    def forward(self, x):
        return self.bn(self.conv(x))


class VariedStage(torch.nn.Module):
    """One stage as timm builds them: a downsample (none in the first), then `depth` blocks."""

    def __init__(self, c_in, c, depth):
        super().__init__()
        self.downsample = Downsample(c_in, c) if c_in != c else torch.nn.Identity()
        self.blocks = torch.nn.Sequential(*(ConvBlock(c) for _ in range(depth)))

    def forward(self, x):
        return self.blocks(self.downsample(x))


# Stages each built with its own depth and width: one layer with other settings, no odd instance.
VARIED_DEPTHS, VARIED_WIDTHS = (2, 3, 2), (8, 16, 32)


def _varied_stages():
    class VariedStages(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = torch.nn.Conv2d(3, VARIED_WIDTHS[0], 3, 1, 1)
            ins = (VARIED_WIDTHS[0],) + VARIED_WIDTHS[:-1]
            self.stages = torch.nn.Sequential(*(VariedStage(i, c, d) for i, c, d in
                                                zip(ins, VARIED_WIDTHS, VARIED_DEPTHS)))

        def forward(self, x):
            return self.stages(self.stem(x))
    return VariedStages()


def _swin_like():
    """Swin's layout at toy size: one Sequential of unlike entries — a patch
    embedding (conv, permute, layer norm), then stages of 2, 6 and 2 blocks.
    Only the blocks inside each stage are stacks: the entries share a class and
    nothing else, and stages of other depths are other layers."""
    def stage(n):
        return torch.nn.Sequential(*(ResBlock() for _ in range(n)))
    return torch.nn.Sequential(PatchEmbed(), stage(2), stage(6), stage(2)).eval()


# ---------------------------------------------------------------------------
# The table: model, inputs, dynamic shapes, expected stacks, planted instances
# ---------------------------------------------------------------------------

def _run(parent, prefix, n, varied=False):
    run = {"parent": parent, "instances": [[f"{prefix}.{i}"] for i in range(n)]}
    if varied:  # its instances are built with other settings: not alike, none odd
        run["varied"] = True
    return run


def _transformer(depth):
    return [_run("", "blocks", depth)]


def _staged(stages, groups, per_group):
    out = [_run("", "stages", stages)]
    for s in range(stages):
        p = f"stages.{s}"
        if groups > 1:
            out.append({"parent": p, "instances": [
                [f"{p}.blocks.{g * per_group + b}" for b in range(per_group)] + [f"{p}.mixers.{g}"]
                for g in range(groups)]})
        if per_group > 1:
            for g in range(groups):
                out.append({"parent": p, "instances": [[f"{p}.blocks.{g * per_group + b}"]
                                                        for b in range(per_group)]})
    return out


def _odd_group():
    """One stage of 3 x [2 x ConvBlock, Mixer], the second group's mixer planted odd."""
    model = StagedCNN(1, 3, 2)
    model.stages[0].mixers[1] = Mixer(4, extra_op=True)
    return model


AUTO_BT = ((Dim.AUTO, Dim.AUTO, Dim.STATIC),)

MODELS = {
    # 6 identical transformer layers, batch and sequence length Dim.AUTO (symbolic shapes).
    "transformer_stack": dict(make=lambda: TransformerStack(6), inputs=lambda: (torch.randn(2, 6, 8),),
                              dynamic_shapes=AUTO_BT, stacks=_transformer(6), planted={}),
    # 3 identical stages, each [4 x ConvBlock, Mixer] (a ResNet-like nesting).
    "nested_stages": dict(make=lambda: StagedCNN(3, 1, 4), inputs=lambda: (torch.randn(2, 3, 8, 8),),
                          dynamic_shapes=None, stacks=_staged(3, 1, 4), planted={}),
    # 2 identical stages, each 3 x [2 x ConvBlock, Mixer]: a repeated group no module holds.
    "grouped_stages": dict(make=lambda: StagedCNN(2, 3, 2), inputs=lambda: (torch.randn(2, 3, 8, 8),),
                           dynamic_shapes=None, stacks=_staged(2, 3, 2), planted={}),
    # grouped_stages' stage once, the mixer of its second group planted odd: the stack of groups
    # has one instance that differs (a run of one stage is no stack).
    "odd_group": dict(make=_odd_group, inputs=lambda: (torch.randn(2, 3, 8, 8),), dynamic_shapes=None,
                      stacks=_staged(1, 3, 2)[1:],
                      planted={"stages.0.mixers.1": {"kind": "extra_op",
                                                     "what": "an extra multiplication by 0.5 after the mixer"}}),
    # transformer_stack exported with static shapes: a uniform stack, no instance flagged (no guard
    # attributed to a later layer makes it look different).
    "uniform_static": dict(make=lambda: TransformerStack(6), inputs=lambda: (torch.randn(2, 6, 8),),
                           dynamic_shapes=None, stacks=_transformer(6), planted={}),
    # A Sequential of unlike entries (Swin's features): no stack of them, only the blocks of each stage.
    "unlike_siblings": dict(make=_swin_like, inputs=lambda: (torch.randn(2, 3, 8, 8),), dynamic_shapes=None,
                            stacks=[_run("1", "1", 2), _run("2", "2", 6), _run("3", "3", 2)], planted={}),
    # Stages of 2, 3 and 2 blocks at widths 8, 16 and 32, each but the first downsampling: one stack
    # naming its settings (the widths, depths and downsample of the table), no instance flagged.
    "varied_stages": dict(make=_varied_stages, inputs=lambda: (torch.randn(2, 3, 16, 16),), dynamic_shapes=None,
                          stacks=[_run("stages", "stages", 3, varied=True)] +
                          [_run(f"stages.{s}.blocks", f"stages.{s}.blocks", d) for s, d in enumerate(VARIED_DEPTHS)],
                          planted={},
                          settings={"stages": {"width": [str(c) for c in VARIED_WIDTHS],
                                               "depth": [str(d) for d in VARIED_DEPTHS],
                                               "downsample": [""] + ["Downsample"] * (len(VARIED_DEPTHS) - 1)}}),
    # 8 residual blocks, four of them planted odd (ODD above).
    "odd_blocks": dict(make=lambda: OddBlocks(8), inputs=lambda: (torch.randn(2, 6, 16),),
                       dynamic_shapes=AUTO_BT, stacks=[_run("", "blocks", 8)],
                       planted={f"blocks.{i}": {"kind": k, "what": w} for i, (k, _, w) in ODD.items()}),
}


# ---------------------------------------------------------------------------
# torch's record of a program
# ---------------------------------------------------------------------------

_SIZE_OPS = {"aten.sym_size.int"}


def _is_size_expression(node):
    """A node computing an integer from sizes (see the module docstring)."""
    if node.op != "call_function":
        return False
    val = node.meta.get("val")
    if isinstance(val, torch.Tensor) or not isinstance(val, (int, torch.SymInt, torch.SymBool, bool)):
        return False
    if str(node.target) in _SIZE_OPS:
        return True
    inputs = node.all_input_nodes
    return getattr(node.target, "__module__", None) in ("_operator", "operator") and \
        all(_is_size_expression(i) for i in inputs)


def _chain(node):
    stack = node.meta.get("nn_module_stack") or {}
    return [(key, path, cls) for key, (path, cls) in stack.items() if path != ""]


def _class_name(cls):
    name = cls if isinstance(cls, str) else f"{cls.__module__}.{cls.__qualname__}"
    return name.rsplit(".", 1)[-1]


def _weights(ep):
    kinds = (torch.export.graph_signature.InputKind.PARAMETER, torch.export.graph_signature.InputKind.BUFFER)
    by_name = {n.name: n for n in ep.graph.nodes}
    out = {}
    for spec in ep.graph_signature.input_specs:
        if spec.kind in kinds:
            val = by_name[spec.arg.name].meta["val"]
            out[spec.arg.name] = {"target": spec.target, "shape": [str(s) for s in val.shape],
                                  "dtype": str(val.dtype).replace("torch.", "")}
    return out


def record(ep):
    calls, order = {}, []
    for n in ep.graph.nodes:
        if n.op not in ("call_function", "get_attr"):
            continue
        keys = []
        for key, path, cls in _chain(n):
            keys.append(key)
            t = tuple(keys)
            if t not in calls:
                calls[t] = {"chain": list(t), "path": path, "class": _class_name(cls), "ops": []}
                order.append(t)
            if n.op == "call_function":
                calls[t]["ops"].append([str(n.target), _is_size_expression(n)])
    return {"nodes": len(ep.graph.nodes), "calls": [calls[t] for t in order], "weights": _weights(ep)}


# ---------------------------------------------------------------------------
# The oracle's own check: the model is what its table says
# ---------------------------------------------------------------------------

def _signature(level, path):
    """What torch's program says of one module call: op sequence (sizes left out), weight shapes."""
    call = next((c for c in level["calls"] if c["path"] == path), None)
    if call is None:
        raise AssertionError(f"no module call {path} in torch's program")
    ops = tuple(t for t, size in call["ops"] if not size)
    prefix = path + "."
    weights = sorted((w["target"][len(prefix):], tuple(w["shape"])) for w in level["weights"].values()
                     if w["target"].startswith(prefix))
    return ops, tuple(weights)


def check_table(name, spec, levels):
    for level_name, level in levels.items():
        for stack in spec["stacks"]:
            if stack.get("varied"):
                continue
            plain = [inst for inst in stack["instances"] if not any(p in spec["planted"] for p in inst)]
            sigs = {tuple(_signature(level, p) for p in inst) for inst in plain}
            if len(sigs) != 1:
                raise AssertionError(f"{name} ({level_name}): the instances of the stack under "
                                     f"'{stack['parent']}' are not alike in torch's program")
            for inst in stack["instances"]:
                for p in inst:
                    if p in spec["planted"] and _signature(level, p) == next(iter(sigs))[inst.index(p)]:
                        raise AssertionError(f"{name} ({level_name}): planted {p} is like its siblings")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore")
    for name, spec in MODELS.items():
        torch.manual_seed(0)
        model = spec["make"]().eval()
        inputs = spec["inputs"]()
        ep = torch.export.export(model, inputs, dynamic_shapes=spec["dynamic_shapes"])
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        torch.export.save(ep, os.path.join(folder, "program.pt2"))
        levels = {"training": record(ep), "core": record(ep.run_decompositions())}
        check_table(name, spec, levels)
        placeholder_shapes = [[str(s) for s in n.meta["val"].shape] for n in ep.graph.nodes
                              if n.op == "placeholder" and n.name not in levels["training"]["weights"]]
        out = {
            "expected_stacks": spec["stacks"],
            "planted": spec["planted"],
            "settings": spec.get("settings", {}),
            "levels": levels,
            "range_constraints": {str(k): [str(v.lower), str(v.upper)] for k, v in ep.range_constraints.items()},
            "input_shapes": placeholder_shapes,
            "torch_version": torch.__version__,
        }
        with open(os.path.join(folder, "structure.json"), "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        counts = Counter(t for c in levels["training"]["calls"] for t, _ in c["ops"])
        print(f"{name}: {levels['training']['nodes']} nodes ({levels['core']['nodes']} in Core ATen), "
              f"{len(levels['training']['calls'])} module calls, {sum(counts.values())} op uses", file=sys.stderr)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(sorted(MODELS), f)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
