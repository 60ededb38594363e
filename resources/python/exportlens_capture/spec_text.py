"""A `dynamic_shapes` argument as the Python text ExportLens' `check --spec` reads.

    batch = Dim('batch', min=2, max=64)
    dynamic_shapes = {'x': {0: batch}, 'y': (2*batch + 1, None)}

Dim declarations first (min/max left out where they are this torch's
defaults), then `dynamic_shapes = ...` with the user's own nesting: dicts keyed
as the user keyed them, tuples and lists by position, None, ints, Dim.AUTO /
Dim.DYNAMIC / Dim.STATIC (with min/max where given) and derived Dims written
in terms of their root's variable.  Whatever cannot be written so is replaced
by None, its repr goes into a comment above the assignment and `exact` is
False.  Works with the Dims of torch 2.5 to 2.13: objects of the `Dim` class
(2.9, 2.13), classes of the `_Dim` metaclass that the function `Dim` makes
(2.5, 2.6); hints an enum (2.5, 2.6) or a dataclass with min/max (2.9, 2.13)."""
import enum
import keyword
import sys

_RESERVED = {"Dim", "dims", "torch", "export", "dynamic_shapes", "None", "True", "False"}
_DIM_TYPES = {"Dim": "root", "_Dim": "root", "_DerivedDim": "derived", "_StaticDim": "static"}
_LINE = 100


def _dim_kind(obj):
    t = type(obj)
    if (t.__module__ or "").startswith("torch.export") and t.__name__ in _DIM_TYPES:
        return _DIM_TYPES[t.__name__]
    return None


def _hint(obj):
    """(kind, min, max) for Dim.AUTO / DYNAMIC / STATIC, else None."""
    t = type(obj)
    if not (t.__module__ or "").startswith("torch.export"):
        return None
    if isinstance(obj, enum.Enum) and t.__name__ in ("_DimHint", "_DimHintType"):
        return obj.name, None, None  # torch 2.5, 2.6: the hint is an enum member
    if t.__name__ == "_DimHint" and isinstance(getattr(obj, "type", None), enum.Enum):
        return obj.type.name, getattr(obj, "min", None), getattr(obj, "max", None)
    return None


def _unbounded(v):
    if v is None:
        return True
    if type(v).__name__ in ("IntInfinity", "NegativeIntInfinity"):
        return True
    try:
        return int(v) >= sys.maxsize - 1
    except (TypeError, ValueError, OverflowError):
        return True


def _as_int(v):
    if _unbounded(v):
        return None
    try:
        return int(v)
    except (TypeError, ValueError, OverflowError):
        return None


def dim_defaults():
    """(min, max) of Dim('x') in this torch, max None when unbounded."""
    try:
        from torch.export import Dim

        probe = Dim("exportlens_probe")
        return _as_int(probe.min), _as_int(probe.max)
    except Exception:  # noqa: BLE001
        return 0, None


def _linear(derived):
    """(coeff, offset) of a derived Dim's fn, or None when not integer-linear."""
    try:
        import sympy

        x = sympy.Symbol("exportlens_x", integer=True)
        e = sympy.expand(derived.fn(x))
        coeff = e.coeff(x)
        offset = e.subs(x, 0)
        if e.free_symbols - {x} or not (coeff.is_Integer and offset.is_Integer):
            return None
        if sympy.expand(coeff * x + offset - e) != 0:
            return None
        return int(coeff), int(offset)
    except Exception:  # noqa: BLE001
        return None


def _root_of(derived):
    root = getattr(derived, "root", None)
    while root is not None and _dim_kind(root) == "derived":
        root = getattr(root, "root", None)
    return root


class _Writer:
    def __init__(self):
        self.defaults = dim_defaults()
        self.decl = []  # lines
        self.dims = []  # the JSON list
        self.vars = {}  # id(dim obj) -> variable name
        self.by_name = {}  # name -> (min, max, var) of the first Dim of that name
        self.used = set(_RESERVED)
        self.comments = []
        self.exact = True
        self._keep = []  # keep objects alive so ids stay unique

    def _var_for(self, name):
        base = name if (name.isidentifier() and not keyword.iskeyword(name)) else (
            "dim_" + "".join(c if c.isalnum() else "_" for c in name))
        var, n = base, 2
        while var in self.used:
            var, n = f"{base}_{n}", n + 1
        self.used.add(var)
        return var

    def root(self, d):
        key = id(d)
        if key in self.vars:
            return self.vars[key]
        name = str(getattr(d, "__name__", "dim"))
        lo, hi = _as_int(getattr(d, "min", None)), _as_int(getattr(d, "max", None))
        same = self.by_name.get(name)
        if same is not None and same[:2] == (lo, hi):
            self.vars[key] = same[2]
            self._keep.append(d)
            return same[2]
        var = self._var_for(name)
        self.vars[key] = var
        self._keep.append(d)
        if same is None:
            self.by_name[name] = (lo, hi, var)
        args = [repr(name)]
        if lo is not None and lo != self.defaults[0]:
            args.append(f"min={lo}")
        if hi is not None and hi != self.defaults[1]:
            args.append(f"max={hi}")
        self.decl.append(f"{var} = Dim({', '.join(args)})")
        self.dims.append({"name": name, "var": var, "min": lo, "max": hi})
        return var

    def derived(self, d, path):
        root = _root_of(d)
        lin = _linear(d)
        if root is None or _dim_kind(root) != "root" or lin is None:
            return self.unknown(d, path)
        var = self.root(root)
        coeff, offset = lin
        text = var if coeff == 1 else f"{coeff}*{var}"
        if offset > 0:
            text += f" + {offset}"
        elif offset < 0:
            text += f" - {-offset}"
        name = str(getattr(d, "__name__", text))
        if id(d) not in self.vars:
            self.vars[id(d)] = text
            self._keep.append(d)
            try:
                lo, hi = _as_int(d.min), _as_int(d.max)
            except Exception:  # noqa: BLE001 - a derived range torch itself rejects
                lo = hi = None
            self.dims.append({"name": name, "var": None, "min": lo, "max": hi,
                              "derived_from": str(root.__name__), "coeff": coeff, "offset": offset})
        return text

    def unknown(self, obj, path):
        self.exact = False
        try:
            r = repr(obj)
        except Exception:  # noqa: BLE001
            r = f"<{type(obj).__name__}>"
        r = " ".join(r.split())
        if len(r) > 300:
            r = r[:300] + "..."
        self.comments.append(f"# {path or 'dynamic_shapes'}: not expressible, written as None: {r}")
        return "None"

    def value(self, obj, path=""):
        if obj is None:
            return "None"
        if isinstance(obj, bool):
            return self.unknown(obj, path)
        if isinstance(obj, int):
            return str(int(obj))
        h = _hint(obj)
        if h is not None:
            kind, lo, hi = h
            args = []
            if lo is not None:
                args.append(f"min={int(lo)}")
            if hi is not None:
                args.append(f"max={int(hi)}")
            return f"Dim.{kind}" + (f"({', '.join(args)})" if args else "")
        k = _dim_kind(obj)
        if k == "root":
            return self.root(obj)
        if k == "derived":
            return self.derived(obj, path)
        if k == "static":
            v = getattr(obj, "value", None)
            return str(int(v)) if isinstance(v, int) else self.unknown(obj, path)
        if isinstance(obj, dict):
            items = []
            for key, val in obj.items():
                if isinstance(key, (str, int)) and not isinstance(key, bool):
                    ks = repr(key)
                else:
                    ks = repr(self.unknown(key, f"{path}[key]"))
                items.append(f"{ks}: {self.value(val, f'{path}[{key!r}]')}")
            return "{" + ", ".join(items) + "}"
        if isinstance(obj, (tuple, list)):
            items = [self.value(v, f"{path}[{i}]") for i, v in enumerate(obj)]
            if isinstance(obj, list):
                return "[" + ", ".join(items) + "]"
            if len(items) == 1:
                return f"({items[0]},)"
            return "(" + ", ".join(items) + ")"
        return self.unknown(obj, path)

    def top(self, obj):
        """The assignment's right-hand side; a long top-level container one entry a line."""
        one = self.value(obj)
        if len(one) + len("dynamic_shapes = ") <= _LINE or not isinstance(obj, (dict, tuple, list)):
            return one
        if isinstance(obj, dict):
            lines = []
            for key, val in obj.items():
                ks = repr(key) if isinstance(key, (str, int)) and not isinstance(key, bool) else "None"
                lines.append(f"    {ks}: {self.value(val, f'[{key!r}]')},")
            return "{\n" + "\n".join(lines) + "\n}"
        open_, close = ("[", "]") if isinstance(obj, list) else ("(", ")")
        lines = [f"    {self.value(v, f'[{i}]')}," for i, v in enumerate(obj)]
        return open_ + "\n" + "\n".join(lines) + "\n" + close


def describe(dynamic_shapes, model=None, args=(), kwargs=None):
    """{"given", "text", "exact", "dims"} for a dynamic_shapes argument."""
    if dynamic_shapes is None:
        return {"given": False, "text": "dynamic_shapes = None\n", "exact": True, "dims": []}
    w = _Writer()
    note = None
    spec = dynamic_shapes
    if not isinstance(spec, (dict, tuple, list)) and callable(getattr(spec, "dynamic_shapes", None)):
        # torch.export.ShapesCollection / AdditionalInputs: what torch makes of it
        note = f"# from {type(spec).__module__}.{type(spec).__qualname__}, as torch resolves it for these inputs"
        try:
            spec = spec.dynamic_shapes(model, args, kwargs or {})
        except Exception as e:  # noqa: BLE001
            w.exact = False
            w.comments.append(f"# {type(spec).__qualname__}.dynamic_shapes() failed: {type(e).__name__}: {e}")
            spec = None
    rhs = w.top(spec)
    lines = list(w.decl)
    if note:
        lines.append(note)
    lines += w.comments
    lines.append(f"dynamic_shapes = {rhs}")
    return {"given": True, "text": "\n".join(lines) + "\n", "exact": w.exact, "dims": w.dims}


def evaluate(text):
    """Run spec text (ours or a user's) and return its `dynamic_shapes`."""
    import torch
    from torch.export import Dim

    ns = {"Dim": Dim, "torch": torch, "__builtins__": __builtins__}
    try:
        from torch.export import dims as _dims

        ns["dims"] = _dims
    except ImportError:
        pass
    exec(compile(text, "<dynamic_shapes spec>", "exec"), ns)  # noqa: S102 - the point
    if "dynamic_shapes" not in ns:
        raise NameError("the spec text does not assign dynamic_shapes")
    return ns["dynamic_shapes"]
