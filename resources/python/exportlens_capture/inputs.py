"""Each input of an export call: pytree path (as torch's keystr prints it,
under `args` / `kwargs`), the forward parameter it binds to, kind, and for
tensors shape, dtype, device and requires_grad."""
import inspect

from .errors import type_name


def _flatten_with_path(tree):
    """[(path text, leaf)] in torch's pytree order, `[0]['mask']` style."""
    try:
        from torch.utils._pytree import keystr, tree_flatten_with_path

        leaves, _ = tree_flatten_with_path(tree)
        return [(keystr(p), leaf) for p, leaf in leaves]
    except Exception:  # noqa: BLE001 - an old torch or an unregistered container
        out = []

        def walk(obj, path):
            if isinstance(obj, (tuple, list)):
                for i, v in enumerate(obj):
                    walk(v, f"{path}[{i}]")
            elif isinstance(obj, dict):
                for k, v in obj.items():
                    walk(v, f"{path}[{k!r}]")
            elif obj is not None:
                out.append((path, obj))

        walk(tree, "")
        return out


def _param_names(model, args, kwargs):
    """(names of the positional args, names of the kwargs) as forward binds them."""
    pos = [None] * len(args)
    kw = {k: None for k in kwargs}
    try:
        fn = getattr(model, "forward", model)
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return pos, kw
    params = list(sig.parameters.values())
    i = 0
    for p in params:
        if i >= len(args):
            break
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            pos[i] = p.name
            i += 1
        elif p.kind == p.VAR_POSITIONAL:
            while i < len(args):
                pos[i] = p.name
                i += 1
    var_kw = next((p.name for p in params if p.kind == p.VAR_KEYWORD), None)
    for k in kwargs:
        p = sig.parameters.get(k)
        if p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            kw[k] = k
        elif var_kw is not None:
            kw[k] = k
    return pos, kw


def _dim(s):
    try:
        return int(s)
    except Exception:  # noqa: BLE001 - a symbolic size
        return str(s)


def describe_value(path, name, v):
    d = {"path": path, "name": name, "kind": "other", "shape": None, "dtype": None, "device": None,
         "requires_grad": None, "type": type_name(type(v))}
    try:
        import torch

        is_tensor = isinstance(v, torch.Tensor)
    except Exception:  # noqa: BLE001
        is_tensor = False
    if is_tensor:
        d["kind"] = "tensor"
        try:
            d["shape"] = [_dim(s) for s in v.shape]
            d["dtype"] = str(v.dtype)
            d["device"] = str(v.device)
            d["requires_grad"] = bool(v.requires_grad)
        except Exception:  # noqa: BLE001
            pass
    elif v is None:
        d["kind"] = "none"
    elif isinstance(v, bool):
        d["kind"], d["value"] = "bool", v
    elif isinstance(v, int):
        d["kind"], d["value"] = "int", int(v)
    elif isinstance(v, float):
        d["kind"], d["value"] = "float", v
    elif isinstance(v, str):
        d["kind"], d["value"] = "str", v[:200]
    else:
        try:
            d["repr"] = repr(v)[:200]
        except Exception:  # noqa: BLE001
            pass
    return d


def describe(model, args, kwargs):
    args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    kwargs = dict(kwargs or {})
    pos_names, kw_names = _param_names(model, args, kwargs)
    out = []
    for i, a in enumerate(args):
        leaves = _flatten_with_path(a)
        if not leaves:
            out.append(describe_value(f"args[{i}]", pos_names[i], a))
        for p, leaf in leaves:
            out.append(describe_value(f"args[{i}]{p}", pos_names[i], leaf))
    for k, a in kwargs.items():
        leaves = _flatten_with_path(a)
        if not leaves:
            out.append(describe_value(f"kwargs[{k!r}]", kw_names.get(k), a))
        for p, leaf in leaves:
            out.append(describe_value(f"kwargs[{k!r}]{p}", kw_names.get(k), leaf))
    return out
