#!/usr/bin/env python3
"""The diff oracle: pairs of programs real torch exported with a difference planted between them.

Usage:  python diff_cases.py --out DIR

Each case is one model exported twice, A and B, B with an edit: one layer's activation changed,
a block inserted into a stack, a dim widened, two branches computed in the other order, a
program quantized (q/dq pairs, pt2e's representation), one weight's values perturbed, the same
model exported strict and non-strict. For each, DIR/<name>/ holds a.pt2, b.pt2 and truth.json:

  "description"   what B is
  "pairs"         [[A's node, B's node], ...]: the truth of which node is which
  "removed"       A's nodes B has no counterpart of; "added": B's nodes A has none of
  "changed"       the pairs whose op, dtype or shape differ in torch's graphs (a size symbol read
                  as the input dim it sizes: exports name them differently)
  "edited_modules"  the module paths of B the edit touched (B's names)
  "weight_max_abs_diff"  per state-dict entry both have (same shape): the largest |b - a|, in float64

The truth comes from how each case was built, not from matching graphs: a node's identity is
its module call (in A's names: the edit says how B's module paths map to A's, and which of B's
modules are new), its op (the edit says which of B's ops replace which of A's) and its
occurrence among that module call's nodes of that op; a graph input is its signature role (the
user input's name, the weight's state-dict key in A's names), the output is the output. Two
nodes with one identity are a pair; a node whose identity the other program lacks is added or
removed. The cases are built so that this identity is unambiguous.

The script checks itself: every case must have pairs, the planted edit must show in torch's
graphs (an added, removed or changed node, pairs in another order, or a weight's values), and
the identities must be unique per program.
"""

import argparse
import copy
import json
import os
import re
import sys
import warnings
from collections import Counter

import torch
from torch.export import Dim

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
from transformer_models import Attention, Mlp, TransformerStack  # noqa: E402
import corpus_models  # noqa: E402


# ---------------------------------------------------------------------------
# Models and edits
# ---------------------------------------------------------------------------

def llama(**overrides):
    """corpus_models' llama_deep (6 decoder layers), with config overrides."""
    T = corpus_models._transformers()
    cfg = dict(vocab_size=corpus_models.VOCAB, hidden_size=16, intermediate_size=32, num_hidden_layers=6,
               num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=128)
    cfg.update(overrides)
    config = T.LlamaConfig(**cfg)
    config.use_cache = False
    torch.manual_seed(0)
    return corpus_models.LogitsOf(T.LlamaForCausalLM(config).eval())


def llama_inputs():
    torch.manual_seed(1)
    return (torch.randint(0, corpus_models.VOCAB, (2, 8)),)


LLAMA_DYNAMIC = ({0: Dim.AUTO, 1: Dim.AUTO},)


class Adapter(torch.nn.Module):
    """A bottleneck adapter with a residual: a block of another class inserted into a stack."""

    def __init__(self, d, r=4):
        super().__init__()
        self.down = torch.nn.Linear(d, r)
        self.up = torch.nn.Linear(r, d)

    def forward(self, x):
        return x + self.up(torch.relu(self.down(x)))


class ParallelBlock(torch.nn.Module):
    """Attention and MLP on the same input, summed (GPT-J / Phi style); `mlp_first` computes them in the
    other order, so the graph's op order changes while what each op computes does not."""

    def __init__(self, d, heads, mlp_first=False):
        super().__init__()
        self.ln = torch.nn.LayerNorm(d)
        self.attn = Attention(d, heads)
        self.mlp = Mlp(d)
        self.mlp_first = mlp_first

    def forward(self, x):
        h = self.ln(x)
        if self.mlp_first:
            m = self.mlp(h)
            a = self.attn(h)
        else:
            a = self.attn(h)
            m = self.mlp(h)
        return x + a + m


class ParallelStack(torch.nn.Module):
    def __init__(self, depth=4, d=16, heads=2, mlp_first=False):
        super().__init__()
        self.embed = torch.nn.Linear(8, d)
        self.blocks = torch.nn.ModuleList(ParallelBlock(d, heads, mlp_first) for _ in range(depth))
        self.head = torch.nn.Linear(d, 10)

    def forward(self, x):
        x = self.embed(x)
        for b in self.blocks:
            x = b(x)
        return self.head(x)


class GeluMlp(torch.nn.Module):
    """A 3-layer MLP with GELU (no op pattern FX quantization would fuse), and a residual."""

    def __init__(self, d=16, hidden=32):
        super().__init__()
        self.fc1 = torch.nn.Linear(d, hidden)
        self.act1 = torch.nn.GELU()
        self.fc2 = torch.nn.Linear(hidden, hidden)
        self.act2 = torch.nn.GELU()
        self.fc3 = torch.nn.Linear(hidden, d)

    def forward(self, x):
        return x + self.fc3(self.act2(self.fc2(self.act1(self.fc1(x)))))


def shift_index(prefix, at, by):
    """A path map for `by` modules inserted at index `at` of the ModuleList `prefix` (B's paths to A's)."""
    pattern = re.compile(r"^" + re.escape(prefix) + r"\.(\d+)(\..*)?$")

    def mapping(path):
        m = pattern.match(path)
        if not m:
            return path
        i = int(m.group(1))
        if at <= i < at + by:
            return None  # inserted: no counterpart
        return f"{prefix}.{i - by if i >= at + by else i}{m.group(2) or ''}"
    return mapping


def identity(path):
    return path


# ---------------------------------------------------------------------------
# Truth
# ---------------------------------------------------------------------------

def innermost_call(node):
    stack = node.meta.get("nn_module_stack") or {}
    if not stack:
        return "", 0
    key, (path, _cls) = list(stack.items())[-1]
    call = int(key.rsplit("@", 1)[1]) if "@" in key else 0
    return path, call


def identities(ep, path_map, retarget):
    """node name -> identity (None: the edit made it, no counterpart)."""
    out = {}
    roles = {s.arg.name: s for s in ep.graph_signature.input_specs}
    seen = Counter()
    for node in ep.graph.nodes:
        if node.op == "placeholder":
            spec = roles[node.name]
            if spec.target is None:
                out[node.name] = ("input", node.name)
            else:
                owner, _, attr = spec.target.rpartition(".")
                mapped = path_map(owner) if owner else ""
                out[node.name] = None if mapped is None else ("weight", (mapped + "." if mapped else "") + attr)
            continue
        if node.op == "output":
            out[node.name] = ("output",)
            continue
        path, call = innermost_call(node)
        mapped = path_map(path)
        if mapped is None:
            out[node.name] = None
            continue
        target = str(node.target)
        target = retarget.get(target, target)
        k = seen[(mapped, call, target)]
        seen[(mapped, call, target)] += 1
        out[node.name] = (mapped, call, target, k)
    return out


def symbol_sources(ep):
    """Each input-dim symbol of the program -> the input dim it sizes ("x.size(0)"): two exports name
    the symbol of one input dim differently (strict mode numbers them its own way)."""
    out = {}
    for spec in ep.graph_signature.input_specs:
        if spec.target is not None:
            continue
        node = next(n for n in ep.graph.nodes if n.name == spec.arg.name)
        v = node.meta.get("val")
        if isinstance(v, torch.Tensor):
            for d, size in enumerate(v.shape):
                text = str(size)
                if re.fullmatch(r"[su]\d+", text):
                    out.setdefault(text, f"{spec.arg.name}.size({d})")
    return out


def renamed(text, sources):
    return re.sub(r"\b[su]\d+\b", lambda m: sources.get(m.group(0), m.group(0)), text)


def value_of_val(v, sources):
    if isinstance(v, torch.Tensor):
        return (str(v.dtype), tuple(renamed(str(s), sources) for s in v.shape))
    if isinstance(v, (list, tuple)):
        return tuple(value_of_val(x, sources) for x in v)
    return str(type(v).__name__)


def value_of(node, sources):
    return value_of_val(node.meta.get("val"), sources)


def truth(ep_a, ep_b, path_map, retarget):
    ia = identities(ep_a, identity, {})
    ib = identities(ep_b, path_map, retarget)
    for name, ids in (("A", ia), ("B", ib)):
        known = [i for i in ids.values() if i is not None]
        if len(known) != len(set(known)):
            raise SystemExit(f"diff_cases: node identities are not unique in {name}")
    by_identity = {i: n for n, i in ib.items() if i is not None}
    nodes_a = {n.name: n for n in ep_a.graph.nodes}
    nodes_b = {n.name: n for n in ep_b.graph.nodes}
    sources_a, sources_b = symbol_sources(ep_a), symbol_sources(ep_b)
    pairs, changed = [], []
    for name, i in ia.items():
        other = by_identity.get(i)
        if other is None:
            continue
        pairs.append([name, other])
        x, y = nodes_a[name], nodes_b[other]
        if x.op == "call_function" and (str(x.target) != str(y.target) or
                                        value_of(x, sources_a) != value_of(y, sources_b)):
            changed.append([name, other])
        elif x.op == "placeholder" and value_of(x, sources_a) != value_of(y, sources_b):
            changed.append([name, other])
    paired_a = {p[0] for p in pairs}
    paired_b = {p[1] for p in pairs}
    removed = [n for n in ia if n not in paired_a]
    added = [n for n in ib if n not in paired_b]
    return {"pairs": pairs, "changed": changed, "removed": removed, "added": added}


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

def export(model, inputs, dynamic_shapes=None, strict=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.export.export(model, inputs, dynamic_shapes=dynamic_shapes, strict=strict)


def case_llama_activation():
    a = llama()
    b = llama()
    b.model.model.layers[3].mlp.act_fn = torch.nn.GELU()
    x = llama_inputs()
    return (export(a, x, LLAMA_DYNAMIC), export(b, x, LLAMA_DYNAMIC), identity,
            {"aten.gelu.default": "aten.silu.default"}, ["model.model.layers.3.mlp.act_fn"],
            "llama_deep (6 decoder layers, Dim.AUTO batch and sequence); B: layer 3's MLP activation SiLU -> GELU")


def case_llama_block_inserted():
    T = corpus_models._transformers()
    a = llama()
    b = llama()
    wider = copy.deepcopy(b.model.config)
    wider.intermediate_size = 48
    torch.manual_seed(2)
    layer = T.models.llama.modeling_llama.LlamaDecoderLayer(wider, layer_idx=2).eval()
    b.model.model.layers.insert(2, layer)
    b.model.config.num_hidden_layers = 7
    for i, l in enumerate(b.model.model.layers):
        l.self_attn.layer_idx = i
    if getattr(b.model.config, "layer_types", None):
        b.model.config.layer_types = b.model.config.layer_types[:2] + [b.model.config.layer_types[2]] + \
            b.model.config.layer_types[2:]
    x = llama_inputs()
    return (export(a, x, LLAMA_DYNAMIC), export(b, x, LLAMA_DYNAMIC), shift_index("model.model.layers", 2, 1), {},
            ["model.model.layers.2"],
            "llama_deep; B: a decoder layer with a wider MLP (48) inserted at index 2 of the 6")


def case_llama_mlp_widened():
    x = llama_inputs()
    return (export(llama(), x, LLAMA_DYNAMIC), export(llama(intermediate_size=48), x, LLAMA_DYNAMIC), identity, {},
            [f"model.model.layers.{i}.mlp" for i in range(6)],
            "llama_deep; B: every layer's MLP widened from 32 to 48")


def case_stack_adapter_inserted():
    torch.manual_seed(0)
    a = TransformerStack(depth=6).eval()
    b = copy.deepcopy(a)
    torch.manual_seed(3)
    b.blocks.insert(3, Adapter(16))
    x = (torch.randn(2, 5, 8),)
    return (export(a, x), export(b, x), shift_index("blocks", 3, 1), {}, ["blocks.3"],
            "the 6-block pre-norm transformer stack; B: a bottleneck Adapter inserted at blocks.3")


def case_stack_reordered():
    torch.manual_seed(0)
    a = ParallelStack().eval()
    b = copy.deepcopy(a)
    for blk in b.blocks:
        blk.mlp_first = True
    x = (torch.randn(2, 5, 8),)
    return (export(a, x), export(b, x), identity, {}, [],
            "4 parallel attention + MLP blocks; B computes each block's MLP before its attention (the graph "
            "reordered, nothing computed differently)")


def case_quantized():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao.quantization's deprecation: it is what 2.13 has
        from torch.ao.quantization import get_default_qconfig_mapping
        from torch.ao.quantization.quantize_fx import prepare_fx, _convert_to_reference_decomposed_fx
        torch.manual_seed(0)
        model = GeluMlp().eval()
        x = (torch.randn(4, 16),)
        prepared = prepare_fx(copy.deepcopy(model), get_default_qconfig_mapping("x86"), x)
        for _ in range(4):
            prepared(torch.randn(4, 16))
        quantized = _convert_to_reference_decomposed_fx(prepared)
    retarget = {}
    return (export(model, x), export(quantized, x), identity, retarget, [],
            "a GELU MLP with a residual; B: quantized (x86 qconfig, int8 per-channel weights, uint8 activations) "
            "into the quantize / dequantize pairs pt2e's convert writes (torch.ao's FX path to the decomposed "
            "reference representation: torch 2.13 has no torch.ao pt2e, and torchao is not installed)")


def case_weights_perturbed():
    torch.manual_seed(0)
    a = TransformerStack(depth=4).eval()
    b = copy.deepcopy(a)
    with torch.no_grad():
        torch.manual_seed(4)
        b.blocks[2].mlp.fc1.weight.add_(0.01 * torch.randn_like(b.blocks[2].mlp.fc1.weight))
    x = (torch.randn(2, 5, 8),)
    return (export(a, x), export(b, x), identity, {}, [],
            "the 4-block transformer stack; B: blocks.2.mlp.fc1.weight perturbed (the program itself unchanged)")


def case_strict_nonstrict():
    torch.manual_seed(0)
    model = TransformerStack(depth=4).eval()
    x = (torch.randn(2, 5, 8),)
    dynamic = ({0: Dim.AUTO, 1: Dim.AUTO},)
    return (export(model, x, dynamic, strict=True), export(model, x, dynamic, strict=False), identity, {}, [],
            "the 4-block transformer stack (Dim.AUTO batch and sequence) exported with strict=True (A) and "
            "strict=False (B)")


CASES = {
    "llama_activation": case_llama_activation,
    "llama_block_inserted": case_llama_block_inserted,
    "llama_mlp_widened": case_llama_mlp_widened,
    "stack_adapter_inserted": case_stack_adapter_inserted,
    "stack_reordered": case_stack_reordered,
    "quantized": case_quantized,
    "weights_perturbed": case_weights_perturbed,
    "strict_nonstrict": case_strict_nonstrict,
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--only", nargs="*")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    names = args.only or list(CASES)
    for name in names:
        ep_a, ep_b, path_map, retarget, edited, description = CASES[name]()
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        # The truth is of the files (loading names a HOP's subgraph get_attr afresh).
        torch.export.save(ep_a, os.path.join(folder, "a.pt2"))
        torch.export.save(ep_b, os.path.join(folder, "b.pt2"))
        ep_a = torch.export.load(os.path.join(folder, "a.pt2"))
        ep_b = torch.export.load(os.path.join(folder, "b.pt2"))
        t = truth(ep_a, ep_b, path_map, retarget)
        if not t["pairs"]:
            raise SystemExit(f"diff_cases: {name}: no pairs")
        # The weights' values: the largest |b - a| of each state-dict entry both have, in float64.
        sa, sb = ep_a.state_dict, ep_b.state_dict
        t["weight_max_abs_diff"] = {k: float((sb[k].detach().double() - v.detach().double()).abs().max()) for k, v in sa.items()
                                    if k in sb and sb[k].shape == v.shape and v.numel() > 0}
        order_b = {n.name: k for k, n in enumerate(ep_b.graph.nodes)}
        reordered = any(order_b[x[1]] > order_b[y[1]] for x, y in zip(t["pairs"], t["pairs"][1:]))
        perturbed = any(v != 0 for v in t["weight_max_abs_diff"].values())
        if name != "strict_nonstrict" and not (t["added"] or t["removed"] or t["changed"] or reordered or perturbed):
            raise SystemExit(f"diff_cases: {name}: the edit does not show in torch's graphs")
        t.update({"description": description, "edited_modules": edited, "torch": torch.__version__})
        with open(os.path.join(folder, "truth.json"), "w") as f:
            json.dump(t, f, indent=1)
        print(f"{name}: {len(t['pairs'])} pairs, {len(t['changed'])} changed, {len(t['added'])} added, "
              f"{len(t['removed'])} removed")
    if not args.only:
        with open(os.path.join(args.out, "manifest.json"), "w") as f:
            json.dump(names, f)


if __name__ == "__main__":
    main()
