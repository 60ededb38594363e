"""Record a program's per-node values in eager PyTorch, for `exportlens numerics --reference`.

    import exportlens_reference
    ep = torch.export.export(model, args)
    exportlens_reference.record(ep, args, path="reference.pt")                    # this machine, as exported
    exportlens_reference.record(ep, args, path="gpu_bf16.pt", device="cuda", dtype=torch.bfloat16)

Runs the exported program's module (`ep.module()`) eagerly through an
`torch.fx.Interpreter` and keeps every call's value under its node name, as
`exportlens numerics FILE.pt2 --reference REF.pt` pairs them: a torch.save'd
dict {node name: tensor}. Symbolic integers are kept as 0-d int64 tensors,
tuples by their getitem nodes. Nothing here changes the program or the model.
"""

import torch

from exportlens_capture._version import __version__  # versioned with ExportLens

__all__ = ["record", "values", "__version__"]


def _cast(value, device, dtype):
    if isinstance(value, torch.Tensor):
        if device is not None:
            value = value.to(device)
        if dtype is not None and value.is_floating_point():
            value = value.to(dtype)
    return value


class _Recorder(torch.fx.Interpreter):
    def __init__(self, module, keep):
        super().__init__(module)
        self.recorded = {}
        self._keep = keep

    def run_node(self, n):
        out = super().run_node(n)
        if n.op == "call_function" and (self._keep is None or n.name in self._keep):
            if isinstance(out, torch.Tensor):
                self.recorded[n.name] = out.detach().to("cpu").clone()
            elif isinstance(out, (int, bool)) and not isinstance(out, torch.SymInt):
                self.recorded[n.name] = torch.tensor(int(out), dtype=torch.int64)
            elif isinstance(out, float):
                self.recorded[n.name] = torch.tensor(out, dtype=torch.float64)
        return out


def values(program, args, kwargs=None, *, device=None, dtype=None, nodes=None):
    """{node name: value} of one eager run of `program` (an ExportedProgram or its module)."""
    module = program.module() if hasattr(program, "module") and callable(program.module) else program
    if device is not None or dtype is not None:
        module = module.to(device=device, dtype=dtype) if dtype is not None else module.to(device)
    args = tuple(_cast(a, device, dtype) for a in args)
    kwargs = {k: _cast(v, device, dtype) for k, v in (kwargs or {}).items()}
    recorder = _Recorder(module, set(nodes) if nodes is not None else None)
    # Interpreter.run takes the flat placeholders; the unlifted module's forward flattens them.
    flat, _ = torch.utils._pytree.tree_flatten((args, kwargs))
    with torch.no_grad():
        recorder.run(*flat)
    return recorder.recorded


def record(program, args, kwargs=None, path="reference.pt", *, device=None, dtype=None, nodes=None):
    """Write `values(...)` to `path` with torch.save; returns how many values were kept."""
    recorded = values(program, args, kwargs, device=device, dtype=dtype, nodes=nodes)
    torch.save(recorded, path)
    return len(recorded)
