"""The oracle for test_printer's hand-built graph: the same FX graph built in
torch 2.13 and printed with print_readable(print_output=False).

Regenerate the golden text after changing the graph (here and in
test_printer.cpp's build_hand_built_graph, which must stay the same graph):
  .venv/bin/python tests/printer/handbuilt_graph.py > tests/printer/handbuilt_expected.txt

It covers what the fixtures do not: FX renaming a placeholder that shadows a
builtin, a non-torch callable (math.trunc), operator printing, kwargs with
dtype/layout/device, string escapes, -inf/-0.0/1e-05, None/list/tuple
outputs, stack comments (grouping, missing frames, custom annotations) and
nested classes.
"""
import torch, operator, math
import torch.fx as fx
from torch.fx.experimental.symbolic_shapes import ShapeEnv

st = lambda line, code, fn="forward", f="/src/model.py": f'  File "{f}", line {line}, in {fn}\n    {code}\n'
env = ShapeEnv()
u0 = env.create_unbacked_symint()

g = fx.Graph()
x = g.placeholder("x"); x.meta["val"] = torch.empty(2, 3)
inp = g.placeholder("input"); inp.meta["val"] = torch.empty(3, dtype=torch.int64)
flag = g.placeholder("flag")  # no val: no annotation
item = g.call_function(torch.ops.aten.item.default, (inp,)); item.meta["val"] = u0
item.meta["stack_trace"] = st(3, "a = input.item()")
neg = g.call_function(operator.neg, (item,)); neg.meta["val"] = -u0
neg.meta["stack_trace"] = st(3, "a = input.item()")
tr = g.call_function(math.trunc, (neg,)); tr.meta["val"] = 5
full = g.call_function(torch.ops.aten.full.default, ([2, 3], float("-inf")),
    {"dtype": torch.float16, "layout": torch.strided, "device": torch.device("cuda", 1), "pin_memory": None})
full.meta["val"] = torch.empty(2, 3, dtype=torch.float16)
full.meta["stack_trace"] = 'Traceback:\n' + st(10, "outer()", "main", "/src/main.py") + st(7, 'b = torch.full((2, 3), -inf)')
split = g.call_function(torch.ops.aten.split.Tensor, (x, 1)); split.meta["val"] = [torch.empty(1, 3), torch.empty(1, 3)]
split.meta["stack_trace"] = st(8, "c = x.split(1)")
g0 = g.call_function(operator.getitem, (split, 0)); g0.meta["val"] = torch.empty(1, 3)
g0.meta["stack_trace"] = st(8, "c = x.split(1)")
g1 = g.call_function(operator.getitem, (split, 1)); g1.meta["val"] = torch.empty(1, 3)
g1.meta["stack_trace"] = st(8, "c = x.split(1)")
div = g.call_function(torch.ops.aten.div.Tensor_mode, (g0, 0.1), {"rounding_mode": "it's \"odd\"\n"}); div.meta["val"] = torch.empty(1, 3)
# A .pt2 stores meta["custom"] as json.dumps(...); test_printer.cpp holds that text.
div.meta["custom"] = {"stage": 1, "name": "a v\u00e9ry long annotation text that goes past forty chars",
                      "ok": True, "f": 0.5, "l": [1, "x"], "n": None, "d": {"k": "it's"}}
idx = g.call_function(torch.ops.aten.index_put.default, (x, [None, g0], g1, False)); idx.meta["val"] = torch.empty(2, 3)
clamp = g.call_function(torch.ops.aten.clamp.default, (idx, -0.0, 1e-05)); clamp.meta["val"] = torch.empty(2, 3)
clamp.meta["stack_trace"] = "no frame here"
view = g.call_function(torch.ops.aten.view.default, (clamp, (6,))); view.meta["val"] = torch.empty(6)
view.meta["stack_trace"] = st(12, "return x.view(6)")
tg = g.get_attr("true_graph_0")
fg = g.get_attr("false_graph_0")
cond = g.call_function(torch.ops.higher_order.cond, (flag, tg, fg, (view, item)))
cond.meta["stack_trace"] = st(13, "torch.cond(flag, t, f, (v, a))")
c0 = g.call_function(operator.getitem, (cond, 0)); c0.meta["val"] = torch.empty(6)
c0.meta["stack_trace"] = st(13, "torch.cond(flag, t, f, (v, a))")
g.output((c0, tr, None, div, [full]))

def branch(opname):
    b = fx.Graph()
    v = b.placeholder("view"); v.meta["val"] = torch.empty(6)
    a = b.placeholder("item"); a.meta["val"] = u0
    r = b.call_function(getattr(torch.ops.aten, opname).default, (v,)); r.meta["val"] = torch.empty(6)
    r.meta["stack_trace"] = st(20, f"return v.{opname}()")
    b.output((r,))
    return fx.GraphModule(torch.nn.Module(), b)

root = torch.nn.Module()
root.true_graph_0 = branch("sin")
root.false_graph_0 = branch("cos")
gm = fx.GraphModule(root, g)
print(gm.print_readable(print_output=False), end="")
