"""Telling the user's frames from torch's, this package's and the standard library's."""
import importlib.util
import linecache
import os
import site
import sys
import sysconfig

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _norm(path):
    return os.path.normcase(os.path.abspath(path))


def find_torch_dir():
    """The folder of torch's package, without importing torch (None when absent)."""
    mod = sys.modules.get("torch")
    if mod is not None and getattr(mod, "__file__", None):
        return os.path.dirname(os.path.abspath(mod.__file__))
    try:
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return os.path.abspath(list(spec.submodule_search_locations)[0])
    if spec.origin:
        return os.path.dirname(os.path.abspath(spec.origin))
    return None


def _prefixes(paths):
    out = set()
    for p in paths:
        if not p:
            continue
        for q in (_norm(p), os.path.normcase(os.path.realpath(p))):
            out.add(q.rstrip(os.sep) + os.sep)
    return tuple(sorted(out))


class FrameClassifier:
    """is_torch / is_own / is_stdlib / is_user for a frame's filename."""

    def __init__(self, torch_dir=None):
        self.torch_dir = torch_dir
        self._torch = _prefixes([torch_dir]) if torch_dir else ()
        self._own = _prefixes([_PACKAGE_DIR])
        paths = sysconfig.get_paths()
        self._stdlib = _prefixes([paths.get("stdlib"), paths.get("platstdlib"), os.path.dirname(os.__file__)])
        site_dirs = []
        try:
            site_dirs += site.getsitepackages()
        except AttributeError:  # virtualenv's old site.py
            pass
        try:
            site_dirs.append(site.getusersitepackages())
        except AttributeError:
            pass
        self._site = _prefixes(site_dirs)
        self._cache = {}

    def set_torch_dir(self, torch_dir):
        if torch_dir and torch_dir != self.torch_dir:
            self.torch_dir = torch_dir
            self._torch = _prefixes([torch_dir])
            self._cache.clear()

    def _under(self, filename, prefixes):
        f = os.path.normcase(filename)
        return any(f.startswith(p) for p in prefixes)

    def classify(self, filename):
        """'torch', 'own', 'stdlib', 'special' (<frozen ...>, <string>) or 'user'."""
        hit = self._cache.get(filename)
        if hit is not None:
            return hit
        if not filename or filename.startswith("<"):
            kind = "special"
        else:
            absf = _norm(filename)
            parts = absf.split(os.sep)
            if self._under(absf, self._torch):
                kind = "torch"
            elif self._under(absf, self._own):
                kind = "own"
            elif self._under(absf, self._stdlib) and not (
                self._under(absf, self._site) or "site-packages" in parts or "dist-packages" in parts
            ):
                kind = "stdlib"
            else:
                kind = "user"
        self._cache[filename] = kind
        return kind

    def is_torch(self, filename):
        return self.classify(filename) == "torch"

    def is_user(self, filename):
        return self.classify(filename) == "user"

    def is_own(self, filename):
        return self.classify(filename) == "own"


def source_line(filename, lineno):
    try:
        return linecache.getline(filename, lineno).strip() or None
    except Exception:  # noqa: BLE001 - a missing source is no error
        return None


def frame_dict(filename, lineno, function, code=None):
    if code is None and filename and lineno:
        code = source_line(filename, lineno)
    return {"file": filename, "line": lineno, "function": function, "code": code}


def call_site(frame, classifier):
    """The innermost frame outside torch, this package and the standard library,
    starting at `frame` and walking outwards; else the first frame not our own."""
    first_foreign = None
    f = frame
    while f is not None:
        fn = f.f_code.co_filename
        kind = classifier.classify(fn)
        if kind == "user":
            return frame_dict(fn, f.f_lineno, f.f_code.co_name)
        if first_foreign is None and kind != "own":
            first_foreign = f
        f = f.f_back
    if first_foreign is not None:
        return frame_dict(first_foreign.f_code.co_filename, first_foreign.f_lineno, first_foreign.f_code.co_name)
    return None
