"""The capture folder's manifest.json and the JSON helpers every file here uses.

Every JSON file is written whole to a temporary name and renamed over the old
one, so a reader (or a script killed half way) never sees a partial file."""
import datetime
import enum
import json
import math
import os
import platform
import sys
import threading
import time

from ._version import __version__

FORMAT = "exportlens-capture"
FORMAT_VERSION = 1


def utc_now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def json_safe(obj, _depth=0):
    """obj as plain JSON data: dicts with string keys, lists, finite numbers,
    strings, booleans and null. Anything else becomes its str()."""
    if _depth > 64:
        return _text(obj)
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else repr(obj)
    if isinstance(obj, enum.Enum):
        return obj.name
    if isinstance(obj, dict):
        return {(k if isinstance(k, str) else _text(k)): json_safe(v, _depth + 1) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v, _depth + 1) for v in obj]
    if isinstance(obj, (set, frozenset)):
        items = [json_safe(v, _depth + 1) for v in obj]
        try:
            return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
        except Exception:  # noqa: BLE001
            return items
    return _text(obj)


def _text(obj):
    try:
        return str(obj)
    except Exception:  # noqa: BLE001
        try:
            return repr(obj)
        except Exception:  # noqa: BLE001
            return f"<unprintable {type(obj).__name__}>"


def write_json_atomic(path, data):
    text = json.dumps(json_safe(data), indent=1, allow_nan=False, ensure_ascii=False)
    tmp = f"{path}.tmp{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.write("\n")
    os.replace(tmp, path)


def write_text(path, text):
    with open(path, "w", encoding="utf-8", errors="backslashreplace") as f:
        f.write(text)


def is_capture_folder(path):
    """True when path holds a manifest.json this package wrote."""
    try:
        with open(os.path.join(path, "manifest.json"), encoding="utf-8") as f:
            return json.load(f).get("format") == FORMAT
    except Exception:  # noqa: BLE001
        return False


class Manifest:
    """DIR/manifest.json: the run and one entry per recorded call, rewritten
    after every attempt and at exit."""

    def __init__(self, out_dir, script, argv, torch_version, torch_dir):
        self.out_dir = out_dir
        self.path = os.path.join(out_dir, "manifest.json")
        self._lock = threading.RLock()
        self._t0 = time.monotonic()
        self.data = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "capture_version": __version__,
            "torch_version": torch_version,
            "torch_dir": torch_dir,
            "python_version": platform.python_version(),
            "python_executable": sys.executable,
            "capture_dir": os.path.dirname(os.path.abspath(__file__)),
            "trace_level": None,
            "draft": False,
            "script": script,
            "argv": list(argv),
            "cwd": os.getcwd(),
            "started": utc_now_iso(),
            "seconds": 0.0,
            "exit": None,
            "attempts": [],
        }

    def set_torch(self, version, torch_dir):
        with self._lock:
            if version:
                self.data["torch_version"] = version
            if torch_dir:
                self.data["torch_dir"] = torch_dir

    def put_attempt(self, entry):
        """Add or replace (by index) one attempt's entry, keeping call order."""
        with self._lock:
            attempts = [a for a in self.data["attempts"] if a["index"] != entry["index"]]
            attempts.append(entry)
            attempts.sort(key=lambda a: a["index"])
            self.data["attempts"] = attempts
            self.write()

    def set_exit(self, code, exception=None):
        with self._lock:
            self.data["exit"] = {"code": int(code), "exception": exception}
            self.write()

    def write(self):
        with self._lock:
            self.data["seconds"] = round(time.monotonic() - self._t0, 6)
            write_json_atomic(self.path, self.data)
