"""--spec-override FILE.json: put another dynamic_shapes in place of one call's.

FILE.json is a list of {"call_site": {"file": ABS, "line": N}, "occurrence": K,
"spec": "python text"}: the K-th call (1-based, counting every recorded call
from that file and line) gets dynamic_shapes = the value the text assigns to
`dynamic_shapes` when run with Dim, dims and torch defined.

A text that does not run (a SyntaxError, a NameError, no dynamic_shapes) is
recorded as the attempt's error, failure class spec_error, the export is not
called, and that exception is raised at the call, as a bad argument to export
would be: the script sees the failure its changed call has."""
import json
import os
import threading


def _key(path, line):
    return os.path.normcase(os.path.realpath(path)), int(line)


class SpecOverrides:
    def __init__(self, entries):
        self._by_site = {}
        self._seen = {}
        self._lock = threading.Lock()
        for e in entries:
            site = e["call_site"]
            k = _key(site["file"], site["line"])
            self._by_site.setdefault(k, {})[int(e.get("occurrence", 1))] = str(e["spec"])

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if isinstance(data, dict):
            data = [data]
        if not isinstance(data, list):
            raise ValueError("expected a JSON list of {call_site, occurrence, spec}")
        for e in data:
            if not (isinstance(e, dict) and isinstance(e.get("call_site"), dict) and "spec" in e
                    and "file" in e["call_site"] and "line" in e["call_site"]):
                raise ValueError("each entry needs call_site.file, call_site.line and spec")
        return cls(data)

    def take(self, call_site):
        """The override text for this call (counting it), or None."""
        if not call_site or not call_site.get("file") or not call_site.get("line"):
            return None
        k = _key(call_site["file"], call_site["line"])
        with self._lock:
            n = self._seen.get(k, 0) + 1
            self._seen[k] = n
        return self._by_site.get(k, {}).get(n)
