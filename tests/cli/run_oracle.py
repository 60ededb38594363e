"""What torch says about a run, for test_run_cli: the oracle side of the
memory timeline, reduced precision and the per-node comparison.

  run_oracle.py memory PROGRAM.pt2 INPUTS.pt
      [[node, bytes], ...]: after each call_function node of the graph (run
      by torch.fx.Interpreter, which frees each value after its last use as
      ExportLens does), the bytes of the distinct storages its environment holds.
  run_oracle.py batch TASK [TASK ...]
      each TASK "memory|PROGRAM.pt2|INPUTS.pt" or "precision|PROGRAM.pt2|INPUTS.pt|bf16";
      prints {TASK: answer}: one torch import for them all.
  run_oracle.py precision PROGRAM.pt2 INPUTS.pt bf16|fp16
      {"max_abs": [...], "cast": {...}, "first_divergent": name or None}:
      per output, max |reduced - fp32| of ep.module() with the program cast
      (module.to(dtype), floating inputs cast) against ep.module() as
      exported; the first graph node whose value is not allclose to fp32's
      with torch.testing's tolerances for the dtype.
"""
import copy
import json
import sys

import torch
import torch.fx
from torch.export.graph_signature import InputKind


def graph_args(ep, inputs, dtype=None):
    def cast(t):
        return t.to(dtype) if dtype is not None and isinstance(t, torch.Tensor) and t.is_floating_point() else t
    args, user = [], iter(inputs)
    for spec in ep.graph_signature.input_specs:
        if spec.kind == InputKind.USER_INPUT:
            args.append(cast(next(user)))
        elif spec.kind in (InputKind.PARAMETER, InputKind.BUFFER):
            t = ep.state_dict[spec.target] if spec.target in ep.state_dict else ep.constants[spec.target]
            args.append(cast(t.detach().clone()))
        else:
            args.append(cast(ep.constants[spec.target]))
    return args


def storages(value, seen):
    if isinstance(value, torch.Tensor):
        s = value.untyped_storage()
        key = (s.data_ptr(), s.nbytes())
        if key not in seen:
            seen.add(key)
            return s.nbytes()
        return 0
    if isinstance(value, (tuple, list)):
        return sum(storages(v, seen) for v in value)
    return 0


class Recorder(torch.fx.Interpreter):
    """Calls `after(node, env)` once a call_function node ran and its inputs' last uses were freed."""

    def __init__(self, gm, after):
        super().__init__(gm)
        self.after, self.pending = after, None

    def run_node(self, n):
        if self.pending is not None:
            self.after(self.pending, self.env)
            self.pending = None
        out = super().run_node(n)
        if n.op == "call_function":
            self.pending = n
        return out


def memory(ep, inputs):
    rows = []
    def after(n, env):
        seen = set()
        rows.append([n.name, sum(storages(v, seen) for v in env.values())])
    with torch.no_grad():
        Recorder(ep.graph_module, after).run(*graph_args(ep, inputs))
    return rows


def node_values(ep, inputs, dtype=None):
    values = {}
    class Capture(torch.fx.Interpreter):
        def run_node(self, n):
            out = super().run_node(n)
            if n.op == "call_function":
                values[n.name] = out
            return out
    with torch.no_grad():
        Capture(ep.graph_module, garbage_collect_values=False).run(*graph_args(ep, inputs, dtype))
    return values, [n.name for n in ep.graph_module.graph.nodes if n.op == "call_function"]


def close(a, b, dtype):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        rtol, atol = torch.testing._comparison.default_tolerances(a, b)
        if a.shape != b.shape:
            return False
        return bool(torch.isclose(a.double(), b.double(), rtol=rtol, atol=atol, equal_nan=True).all())
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(close(x, y, dtype) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return abs(a - b) <= 1e-7 + 1e-7 * abs(b)
    return a == b


def precision(ep, inputs, name):
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}[name]
    with torch.no_grad():
        ref = copy.deepcopy(ep).module()(*inputs)
        low = copy.deepcopy(ep).module().to(dtype)(*[x.to(dtype) if isinstance(x, torch.Tensor) and x.is_floating_point() else x
                                                    for x in inputs])
    ref = ref if isinstance(ref, (tuple, list)) else (ref,)
    low = low if isinstance(low, (tuple, list)) else (low,)
    max_abs = [(a.double() - b.double()).abs().max().item() if isinstance(a, torch.Tensor) and a.numel() else 0.0
               for a, b in zip(low, ref)]
    kinds = {"parameters": 0, "buffers": 0, "inputs": 0}
    for spec in ep.graph_signature.input_specs:
        if spec.kind == InputKind.PARAMETER and ep.state_dict[spec.target].is_floating_point():
            kinds["parameters"] += 1
        elif spec.kind == InputKind.BUFFER:
            t = ep.state_dict[spec.target] if spec.target in ep.state_dict else ep.constants[spec.target]
            kinds["buffers"] += int(t.is_floating_point())
    kinds["inputs"] = sum(1 for x in inputs if isinstance(x, torch.Tensor) and x.is_floating_point())
    low_values, order = node_values(ep, inputs, dtype)
    ref_values, _ = node_values(ep, inputs)
    first = next((n for n in order if not close(low_values[n], ref_values[n], dtype)), None)
    return {"max_abs": max_abs, "cast": kinds, "first_divergent": first}


def answer(what, program, inputs_file, *rest):
    ep = torch.export.load(program)
    inputs = torch.load(inputs_file, weights_only=True)
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    return memory(ep, inputs) if what == "memory" else precision(ep, inputs, rest[0])


def main():
    if sys.argv[1] == "batch":
        print(json.dumps({task: answer(*task.split("|")) for task in sys.argv[2:]}))
    else:
        print(json.dumps(answer(*sys.argv[1:])))


if __name__ == "__main__":
    main()
