#!/usr/bin/env python3
"""The browsing oracle: programs with deep module hierarchies, and torch's own view of them.

Usage:  python browse_models.py --out DIR

For each model below, writes DIR/<name>/:

  program.pt2      torch.export.save of the exported program (eval mode)
  hierarchy.json   what torch recorded about its module calls, at two IR levels:
                   "training" (the program as exported) and "core" (ep.run_decompositions()).
                   Per level: the node count, and every module call (a chain of
                   nn_module_stack keys, outermost first, the root module left out) with
                   its path, class name, depth, the call_function nodes inside (nested calls
                   included), the child calls in program order, and the names of the nodes
                   whose values cross its boundary (entering / leaving).
                   "modules": path -> class name for every submodule (model.named_modules()).
                   "weights": placeholder name -> state-dict key for parameters, buffers and
                   constants, with the names of the nodes that read each.

The models are the large-graph cases: a deep pre-norm transformer stack (embedding,
blocks of attention + MLP sub-modules, final norm, head) and a ResNet-style CNN whose
basic blocks nest a downsample Sequential and call one ReLU module twice (torch keys
the second call "...relu@1").
"""

import argparse
import json
import os
import sys
import warnings

import torch
from torch.export import Dim
import torch.nn.functional as F

from transformer_models import TransformerStack  # shared with the other oracle


class BasicBlock(torch.nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = torch.nn.BatchNorm2d(cout)
        self.relu = torch.nn.ReLU()
        self.conv2 = torch.nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = torch.nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = torch.nn.Sequential(torch.nn.Conv2d(cin, cout, 1, stride, bias=False),
                                                  torch.nn.BatchNorm2d(cout))

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)


class NestedCNN(torch.nn.Module):
    def __init__(self, widths=(8, 16, 32), blocks=2):
        super().__init__()
        self.stem = torch.nn.Sequential(torch.nn.Conv2d(3, widths[0], 3, 1, 1, bias=False),
                                        torch.nn.BatchNorm2d(widths[0]), torch.nn.ReLU())
        layers, cin = [], widths[0]
        for i, w in enumerate(widths):
            layers.append(torch.nn.Sequential(*[BasicBlock(cin if b == 0 else w, w, 2 if (b == 0 and i) else 1)
                                                for b in range(blocks)]))
            cin = w
        self.layer1, self.layer2, self.layer3 = layers
        self.pool = torch.nn.AdaptiveAvgPool2d((1, 1))
        self.fc = torch.nn.Linear(widths[-1], 10)

    def forward(self, x):
        x = self.layer3(self.layer2(self.layer1(self.stem(x))))
        return self.fc(torch.flatten(self.pool(x), 1))


# name: (model, example inputs[, dynamic_shapes]). The dynamic stack's views
# all read the two symbolic sizes: sources of dozens of edges (32 in the
# program as exported, 147 in Core ATen).
MODELS = {
    "transformer_stack": (lambda: TransformerStack(), lambda: (torch.randn(2, 6, 8),)),
    "transformer_stack_dynamic": (lambda: TransformerStack(depth=8), lambda: (torch.randn(2, 6, 8),),
                                  lambda: ((Dim.AUTO, Dim.AUTO, Dim.STATIC),)),
    "nested_cnn": (lambda: NestedCNN(), lambda: (torch.randn(2, 3, 16, 16),)),
}


def _chain(node):
    # The key torch's passes give nodes they make outside any module is no module.
    from torch._export.passes._node_metadata_hook import _EMPTY_NN_MODULE_STACK_KEY
    stack = node.meta.get("nn_module_stack") or {}
    return [(key, path, cls) for key, (path, cls) in stack.items() if path != "" and key != _EMPTY_NN_MODULE_STACK_KEY]


def _class_name(cls):
    name = cls if isinstance(cls, str) else f"{cls.__module__}.{cls.__qualname__}"
    return name.rsplit(".", 1)[-1]


def hierarchy(ep):
    """Module calls as torch recorded them (nn_module_stack), with op counts and boundaries."""
    nodes = list(ep.graph.nodes)
    scopes = {}  # chain of keys -> record
    order = []
    home = {}
    for n in nodes:
        chain = _chain(n) if n.op in ("call_function", "get_attr") else []
        keys = []
        for key, path, cls in chain:
            keys.append(key)
            t = tuple(keys)
            if t not in scopes:
                scopes[t] = {"chain": list(t), "path": path, "class": _class_name(cls), "depth": len(t),
                             "ops": 0, "nodes": 0, "children": [], "inputs": set(), "outputs": set()}
                order.append(t)
                if len(t) > 1:
                    scopes[t[:-1]]["children"].append(list(t))
            scopes[t]["nodes"] += 1
            if n.op == "call_function":
                scopes[t]["ops"] += 1
        home[n.name] = tuple(keys)

    def inside(chain, scope):
        return chain[:len(scope)] == scope

    for n in nodes:
        for p in n.all_input_nodes:
            hp, hc = home[p.name], home[n.name]
            for t in order:
                if inside(hc, t) and not inside(hp, t):
                    scopes[t]["inputs"].add(p.name)
                if inside(hp, t) and not inside(hc, t):
                    scopes[t]["outputs"].add(p.name)
    out = []
    for t in order:
        s = scopes[t]
        s["inputs"], s["outputs"] = sorted(s["inputs"]), sorted(s["outputs"])
        out.append(s)
    return {"nodes": len(nodes), "ops": sum(n.op == "call_function" for n in nodes), "scopes": out}


def weights(ep):
    kinds = (torch.export.graph_signature.InputKind.PARAMETER, torch.export.graph_signature.InputKind.BUFFER,
             torch.export.graph_signature.InputKind.CONSTANT_TENSOR)
    by_name = {n.name: n for n in ep.graph.nodes}
    out = {}
    for spec in ep.graph_signature.input_specs:
        if spec.kind in kinds:
            node = by_name[spec.arg.name]
            out[spec.arg.name] = {"target": spec.target, "users": [u.name for u in node.users]}
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    warnings.filterwarnings("ignore")
    for name, (make, inputs, *dynamic) in MODELS.items():
        torch.manual_seed(0)
        model = make().eval()
        ep = torch.export.export(model, inputs(), dynamic_shapes=dynamic[0]() if dynamic else None)
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        torch.export.save(ep, os.path.join(folder, "program.pt2"))
        record = {
            "training": hierarchy(ep),
            "core": hierarchy(ep.run_decompositions()),
            "modules": {path: type(m).__name__ for path, m in model.named_modules() if path},
            "weights": weights(ep),
            "torch_version": torch.__version__,
        }
        with open(os.path.join(folder, "hierarchy.json"), "w") as f:
            json.dump(record, f, indent=1)
            f.write("\n")
        print(f"{name}: {record['training']['nodes']} nodes, {len(record['training']['scopes'])} module calls",
              file=sys.stderr)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(sorted(MODELS), f)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
