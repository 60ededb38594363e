"""Programs with one declared size scaled to N, written as .pt2 archives.

Each is a well-formed torch.export program (schema 8.20, as the oracle's
book_mlp archive lays it out) whose cost to read, print, check, lower and run
should grow linearly with N:

  rank     one input of rank N (sizes 1), relu
  rank_symbolic  the same with its first size a symbol (s0 >= 2): the
           dynamic-shapes spec binds N dims
  inputs   N inputs, added in a chain
  outputs  one input, N relus of it, all returned
  args     one node with N arguments: cat of N copies of the input
  nodes    a chain of N relus
  elements one input of N float32 elements, summed to a scalar

Used by tests/bench/bench_linearity (time per element at 10^3 ... 10^5) and
by the hostile-input catalogue (a 200,000-rank input).

    write_program(good_pt2, out_pt2, kind, n)
    python sized_programs.py GOOD.pt2 OUT_DIR 1000,10000,100000   (every kind)
"""
import io
import json
import zipfile

KINDS = ("rank", "rank_symbolic", "inputs", "outputs", "args", "nodes", "elements")


def _meta(sizes):
    strides, acc = [], 1
    for s in reversed(sizes):
        strides.insert(0, acc)
        acc *= max(s, 1)
    return {"dtype": 7, "sizes": [{"as_int": s} for s in sizes], "requires_grad": False,
            "device": {"type": "cpu", "index": None}, "strides": [{"as_int": s} for s in strides],
            "storage_offset": {"as_int": 0}, "layout": 7}


def _tensor(name):
    return {"as_tensor": {"name": name}}


def _node(target, name, inputs):
    return {"target": target, "inputs": inputs, "outputs": [_tensor(name)], "metadata": {},
            "is_hop_single_tensor_return": None, "name": name}


def _arg(name, arg):
    return {"name": name, "arg": arg, "kind": 1}


def _relu(name, of):
    return _node("torch.ops.aten.relu.default", name, [_arg("self", _tensor(of))])


def _graph(kind, n):
    """(user inputs, nodes, outputs, tensor_values)."""
    small = _meta([2])
    if kind in ("rank", "rank_symbolic"):
        values = {"x": _meta([1] * n), "relu": _meta([1] * n)}
        if kind == "rank_symbolic":
            for v in values.values():
                v["sizes"][0] = {"as_expr": {"expr_str": "s0", "hint": {"as_int": 2}}}
        return ["x"], [_relu("relu", "x")], ["relu"], values
    if kind == "inputs":
        names = ["x%d" % i for i in range(n)]
        nodes, last = [], names[0]
        for i in range(1, n):
            out = "add_%d" % i
            nodes.append(_node("torch.ops.aten.add.Tensor", out,
                               [_arg("self", _tensor(last)), _arg("other", _tensor(names[i]))]))
            last = out
        values = {v: small for v in names + [nd["name"] for nd in nodes]}
        return names, nodes, [last], values
    if kind == "outputs":
        nodes = [_relu("relu_%d" % i, "x") for i in range(n)]
        values = {v: small for v in ["x"] + [nd["name"] for nd in nodes]}
        return ["x"], nodes, [nd["name"] for nd in nodes], values
    if kind == "args":
        cat = _node("torch.ops.aten.cat.default", "cat",
                    [_arg("tensors", {"as_tensors": [{"name": "x"}] * n})])
        return ["x"], [cat], ["cat"], {"x": small, "cat": _meta([2 * n])}
    if kind == "nodes":
        nodes, last = [], "x"
        for i in range(n):
            nodes.append(_relu("relu_%d" % i, last))
            last = "relu_%d" % i
        values = {v: small for v in ["x"] + [nd["name"] for nd in nodes]}
        return ["x"], nodes, [last], values
    if kind == "elements":
        total = _node("torch.ops.aten.sum.default", "sum_1", [_arg("self", _tensor("x"))])
        return ["x"], [total], ["sum_1"], {"x": _meta([n]), "sum_1": _meta([])}
    raise ValueError("unknown kind " + kind)


def program_json(kind, n):
    inputs, nodes, outputs, values = _graph(kind, n)
    graph = {"inputs": [_tensor(i) for i in inputs], "outputs": [_tensor(o) for o in outputs], "nodes": nodes,
             "tensor_values": values, "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": False,
             "custom_obj_values": {}, "sym_float_values": {}}
    signature = {"input_specs": [{"user_input": {"arg": _tensor(i)}} for i in inputs],
                 "output_specs": [{"user_output": {"arg": _tensor(o)}} for o in outputs]}
    return {"graph_module": {"graph": graph, "signature": signature,
                             "module_call_graph": [{"fqn": "", "signature": None}],
                             "metadata": {}, "treespec_namedtuple_fields": {}},
            "opset_version": {"aten": 10},
            "range_constraints": {"s0": {"min_val": 2, "max_val": None}} if kind == "rank_symbolic" else {},
            "schema_version": {"major": 8, "minor": 20},
            "verifiers": ["TRAINING"], "torch_version": "2.13.0+cpu", "guards_code": []}


def write_program(good_pt2, out_pt2, kind, n):
    """good_pt2's archive with the program replaced and no weights."""
    empty_config = json.dumps({"config": {}}).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(good_pt2) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            name = info.filename
            if "/data/weights/weight_" in name or "/data/sample_inputs/" in name:
                continue
            if name.endswith("_config.json"):
                data = empty_config
            elif name.endswith("models/model.json"):
                data = json.dumps(program_json(kind, n)).encode()
            else:
                data = src.read(name)
            dst.writestr(name, data)
    with open(out_pt2, "wb") as f:
        f.write(out.getvalue())


if __name__ == "__main__":
    import os
    import sys
    good, out, sizes = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3].split(",")]
    os.makedirs(out, exist_ok=True)
    for kind in KINDS:
        for n in sizes:
            write_program(good, os.path.join(out, "%s_%d.pt2" % (kind, n)), kind, n)
    with open(os.path.join(out, "programs.txt"), "w") as f:
        f.write(" ".join(KINDS) + "\n" + " ".join(str(n) for n in sizes) + "\n")
