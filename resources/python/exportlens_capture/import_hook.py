"""Patching torch.export the moment it is imported, not before.

The script imports torch itself, as it would without capture (environment
variables it sets before `import torch`, TORCH_TRACE / TORCH_LOGS among them,
work as they would).  A finder on sys.meta_path wraps the loader of
`torch.export`; right after that module's code has run, the callback puts the
wrappers on `torch.export.export` and `torch.export.draft_export`, so both
`torch.export.export(...)` and `from torch.export import export` get them.
The finder removes itself once it has done so."""
import importlib.abc
import sys

TARGET = "torch.export"


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, inner, on_loaded):
        self._inner = inner
        self._on_loaded = on_loaded

    def create_module(self, spec):
        create = getattr(self._inner, "create_module", None)
        return create(spec) if create is not None else None

    def exec_module(self, module):
        spec = getattr(module, "__spec__", None)
        if spec is not None:
            spec.loader = self._inner
        module.__loader__ = self._inner
        self._inner.exec_module(module)
        self._on_loaded(module)

    def __getattr__(self, name):
        return getattr(self._inner, name)


class ExportImportHook(importlib.abc.MetaPathFinder):
    def __init__(self, on_loaded):
        self._on_loaded = on_loaded
        self._busy = False

    def find_spec(self, fullname, path=None, target=None):
        if fullname != TARGET or self._busy:
            return None
        self._busy = True
        try:
            for finder in list(sys.meta_path):
                if finder is self:
                    continue
                find = getattr(finder, "find_spec", None)
                if find is None:
                    continue
                spec = find(fullname, path, target)
                if spec is not None:
                    break
            else:
                return None
        finally:
            self._busy = False
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _PatchingLoader(spec.loader, self._loaded)
        return spec

    def _loaded(self, module):
        self.remove()
        try:
            self._on_loaded(module)
        except Exception as e:  # noqa: BLE001 - never break the script's `import torch`
            try:
                sys.__stderr__.write(f"exportlens_capture: internal error, torch.export not patched: {e}\n")
            except Exception:  # noqa: BLE001
                pass

    def remove(self):
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass


def install(on_loaded):
    """Patch now if torch.export is already imported, else when it is."""
    mod = sys.modules.get(TARGET)
    if mod is not None:
        on_loaded(mod)
        return None
    hook = ExportImportHook(on_loaded)
    sys.meta_path.insert(0, hook)
    return hook
