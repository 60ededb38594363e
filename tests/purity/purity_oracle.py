#!/usr/bin/env python3
"""torch's purity verdicts, for test_purity.

Usage:  python purity_oracle.py --out FILE DIR [DIR ...]

Writes FILE (JSON):

  programs   every program.pt2 (any *.pt2) under the DIRs the suites' oracles
             exported, loaded with torch.export.load: per graph (the top-level
             one is "", subgraphs by their attribute path), every node's name,
             op, target and torch 2.13's `node.is_impure()`; an archive torch
             cannot load is listed with its error (and not compared).
  handmade   graphs built here with torch.fx from ops whose purity is decided
             each way (schemas that write an argument, seeded ops, asserts,
             profiler ranges, effectful ops, higher-order ops): every node's
             target, arguments and `is_impure()`, and which nodes
             `Graph.eliminate_dead_code()` leaves.
"""

import argparse
import json
import operator
import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "oracle")
sys.path.insert(0, ORACLE)

import torch  # noqa: E402
import torch.fx  # noqa: E402
from torch.fx.node import _get_qualified_name  # noqa: E402

import seed_models  # noqa: E402,F401  (registers my_custom_library::custom_op, which fixtures call)
import check_cases  # noqa: E402  (registers the Pair dataclass its nested_dataclass program takes)
import torch.ao.quantization.fx._decomposed  # noqa: E402,F401  (the quantized_decomposed ops pt2e programs call)
import transformers.integrations.moe  # noqa: E402,F401  (transformers::grouped_mm_fallback, which MoE programs call)
import corpus_programs  # noqa: E402,F401  (exportlens_corpus::scale_, which the corpus' hop_mutating_op calls)

# The nested_dataclass program's example inputs were pickled by check_cases.py
# run as a script, where Pair is __main__.Pair.
setattr(sys.modules["__main__"], "Pair", check_cases.Pair)


def target_name(target):
    return target if isinstance(target, str) else _get_qualified_name(target)


def graphs_of(gm, prefix=""):
    yield prefix, gm.graph
    for name, child in gm.named_children():
        if isinstance(child, torch.fx.GraphModule):
            yield from graphs_of(child, f"{prefix}.{name}" if prefix else name)


def program_record(path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ep = torch.export.load(path)
    except Exception as e:  # noqa: BLE001  (recorded: the suite says which archives torch refused)
        return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
    graphs = []
    for graph_path, graph in graphs_of(ep.graph_module):
        nodes = [{"name": n.name, "op": n.op, "target": target_name(n.target), "impure": n.is_impure()}
                 for n in graph.nodes]
        graphs.append({"path": graph_path, "nodes": nodes})
    return {"graphs": graphs}


def argument(a):
    if isinstance(a, torch.fx.Node):
        return {"node": a.name}
    if isinstance(a, (torch._ops.OpOverload, torch._ops.HigherOrderOperator)):
        return {"op": _get_qualified_name(a)}
    if isinstance(a, (list, tuple)):
        return [argument(item) for item in a]
    if a is None or isinstance(a, (bool, int, float, str)):
        return a
    raise TypeError(f"hand-made graphs use nodes, ops, lists and constants, not {type(a)}")


def handmade_graphs():
    """Each graph: calls nobody reads, of ops torch decides each way, and a chain of pure ones."""
    aten, hop = torch.ops.aten, torch.ops.higher_order
    from torch._export.wrappers import _export_tracepoint
    from torch._higher_order_ops.auto_functionalize import auto_functionalized, auto_functionalized_v2

    def build(name, calls):
        g = torch.fx.Graph()
        x = g.placeholder("x")
        made = {"x": x}
        for node_name, target, args in calls:
            resolved = tuple(made[a[1:]] if isinstance(a, str) and a.startswith("@") else a for a in args)
            made[node_name] = g.call_function(target, resolved)
            made[node_name].name = node_name
        g.output(made.get("result", x))
        record = {"name": name, "nodes": []}
        for n in g.nodes:
            record["nodes"].append({"name": n.name, "op": n.op, "target": target_name(n.target),
                                    "args": [argument(a) for a in n.args], "impure": n.is_impure()})
        g.eliminate_dead_code()
        record["survivors"] = [n.name for n in g.nodes]
        return record

    mutating = build("mutating", [
        ("add_", aten.add_.Tensor, ("@x", "@x")),
        ("copy_", aten.copy_.default, ("@x", "@x")),
        ("add_out", aten.add.out, ("@x", "@x")),
        ("index_put_", aten.index_put_.default, ("@x", [], "@x")),
        ("bn_legit", aten._native_batch_norm_legit.default, ("@x", None, None, "@x", "@x", True, 0.1, 1e-5)),
        ("bn_functional", aten._native_batch_norm_legit_functional.default,
         ("@x", None, None, "@x", "@x", True, 0.1, 1e-5)),
        ("relu", aten.relu.default, ("@x",)),
        ("relu_", aten.relu_.default, ("@x",)),
        ("rand", aten.rand.default, ([2, 3],)),
        ("bernoulli", aten.bernoulli.p, ("@x", 0.5)),
        ("native_dropout", aten.native_dropout.default, ("@x", 0.5, True)),
        ("randn_like", aten.randn_like.default, ("@x",)),
        ("dropout", aten.dropout.default, ("@x", 0.5, True)),
        ("sym_size", aten.sym_size.int, ("@x", 0)),
        ("mul_of_size", operator.mul, ("@sym_size", 2)),
        ("setitem", operator.setitem, ("@x", 0, 1)),
        ("view", aten.view.default, ("@x", [-1])),
        ("sum", aten.sum.default, ("@view",)),
        ("result", aten.mul.Tensor, ("@x", "@relu_")),
    ])
    asserts = build("asserts", [
        ("ge", operator.ge, ("@x", 0)),
        ("assert_scalar", aten._assert_scalar.default, ("@ge", "x >= 0")),
        ("assert_async", aten._assert_async.default, ("@x",)),
        ("assert_async_msg", aten._assert_async.msg, ("@x", "x")),
        ("functional_assert", aten._functional_assert_async.msg, ("@x", "x", "@x")),
        ("constrain", aten.sym_constrain_range.default, ("@ge",)),
        ("constrain_for_size", aten.sym_constrain_range_for_size.default, ("@ge",)),
        ("functional_constrain", aten._functional_sym_constrain_range.default, ("@ge", 0, 4, "@x")),
        ("tensor_metadata", aten._assert_tensor_metadata.default, ("@x",)),
        ("print_", aten._print.default, ("hello",)),
        ("check_errors", aten._linalg_check_errors.default, ("@x", "api", True)),
        ("record_enter", torch.ops.profiler._record_function_enter_new.default, ("region",)),
        ("torch_assert", torch._assert, ("@ge", "x")),
    ])
    higher_order = build("higher_order", [
        ("cond", hop.cond, ("@x", "@x", "@x", ())),
        ("map_impl", hop.map_impl, ("@x", ("@x",), ())),
        ("while_loop", hop.while_loop, ("@x", "@x", ("@x",), ())),
        ("scan", hop.scan, ("@x", ("@x",), ("@x",), ())),
        ("wrap_grad", hop.wrap_with_set_grad_enabled, (False, "@x")),
        ("wrap_autocast", hop.wrap_with_autocast, ("cpu", None, False, None, "@x")),
        ("with_effects", hop.with_effects, ("@x", aten._print.default, "hi")),
        ("run_const_graph", hop.run_const_graph, ("@x", ())),
        ("tracepoint", _export_tracepoint, ("@x",)),
        ("call_torchbind", hop.call_torchbind, ("@x", "method")),
        ("hop_print", hop.print, ("hi",)),
        ("auto_fn_mutating", auto_functionalized, (aten.add_.Tensor,)),
        ("auto_fn_side_effect", auto_functionalized, (aten._assert_scalar.default,)),
        ("auto_fn_v2_side_effect", auto_functionalized_v2, (aten.sym_constrain_range.default,)),
        ("getitem", operator.getitem, ("@cond", 0)),
    ])
    return [mutating, asserts, higher_order]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    programs = []
    for root in args.dirs:
        for folder, subfolders, names in os.walk(root):
            subfolders.sort()
            for name in sorted(names):
                if name.endswith(".pt2"):
                    path = os.path.join(folder, name)
                    programs.append({"file": os.path.abspath(path), **program_record(path)})
    result = {"torch_version": torch.__version__, "programs": programs, "handmade": handmade_graphs()}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out + ".tmp", "w") as f:
        json.dump(result, f, indent=1)
    os.replace(args.out + ".tmp", args.out)
    loaded = [p for p in programs if "graphs" in p]
    print(f"purity oracle: {len(loaded)} of {len(programs)} programs, "
          f"{sum(len(g['nodes']) for p in loaded for g in p['graphs'])} nodes")


if __name__ == "__main__":
    main()
