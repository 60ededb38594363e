"""The schemas of the Python-registered ops a program calls, saved beside it.

A .pt2 names the ops its nodes call (torch.ops.mylib.scale_.default) but not
their schemas. An op defined in Python (torch.library.custom_op,
torch.library.Library.define) exists only in the process that defined it:
ExportLens, reading the file without running the user's Python, cannot tell
that such an op writes an argument (`Tensor(a!)`), which is what torch's
lowering functionalizes into auto_functionalized_v2. save() records each such
op's schema text and tags as the archive entry extra/exportlens_op_schemas.json
(one of torch.export.save's extra_files, which torch.export.load ignores).

    from exportlens_capture.op_schemas import save
    save(ep, "model.pt2")          # instead of torch.export.save(ep, "model.pt2")

Every program `exportlens capture` keeps is saved this way.
"""
import json

ENTRY = "exportlens_op_schemas.json"
FORMAT = "exportlens-op-schemas"
VERSION = 1
# Namespaces whose ops LibTorch itself registers: ExportLens reads their schemas from LibTorch.
_LIBTORCH_NAMESPACES = frozenset({"aten", "prims"})


def _ops_of(value, found):
    """The OpOverloads in a node's target or arguments (auto_functionalized_v2 wraps one)."""
    import torch

    if isinstance(value, torch._ops.OpOverload):
        found.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _ops_of(v, found)
    elif isinstance(value, dict):
        for v in value.values():
            _ops_of(v, found)


def custom_op_schemas(ep):
    """[{"schema": text, "tags": [names]}] for each op outside LibTorch's namespaces that
    ep's graphs (and their subgraphs) call, by name."""
    import torch

    ops = {}
    for module in ep.graph_module.modules():
        if not isinstance(module, torch.fx.GraphModule):
            continue
        for node in module.graph.nodes:
            if node.op != "call_function":
                continue
            found = []
            _ops_of(node.target, found)
            _ops_of(node.args, found)
            _ops_of(node.kwargs, found)
            for op in found:
                if op.namespace in _LIBTORCH_NAMESPACES:
                    continue
                schema = str(op._schema)
                ops.setdefault(schema, sorted(str(t).rsplit(".", 1)[-1] for t in op.tags))
    return [{"schema": s, "tags": ops[s]} for s in sorted(ops)]


def schemas_json(ep):
    """The entry's text for ep, or None when ep calls no op outside LibTorch's namespaces."""
    ops = custom_op_schemas(ep)
    if not ops:
        return None
    return json.dumps({"format": FORMAT, "version": VERSION, "ops": ops}, indent=1)


def save(ep, f, **kwargs):
    """torch.export.save(ep, f, **kwargs), with the schemas of the Python-registered ops ep
    calls recorded beside the program (kwargs' own extra_files are kept)."""
    import torch

    extra = dict(kwargs.pop("extra_files", None) or {})
    try:
        text = schemas_json(ep)
    except Exception:  # noqa: BLE001  (the program matters more than its ops' schemas)
        text = None
    if text is not None:
        extra[ENTRY] = text
    torch.export.save(ep, f, extra_files=extra or None, **kwargs)
