"""One export call's own structured trace (torch's TORCH_TRACE format) in a
folder of its own.

For the duration of the call an extra handler sits first on torch's trace
logger (`torch._logging._internal.trace_log`, "torch.__trace") and the
draft-export level of detail (`GET_DTRACE_STRUCTURED`, what TORCH_DTRACE sets)
is switched on, so the log holds guard_added with symbol_to_sources and
frame_locals, expression_created, guard_on_data_dependent_error,
exported_program, ... as well as the plain events.

What it changes and puts back (`__exit__`):
  - the handler list: ours is removed again; with `restore_handlers=True`
    (our own extra draft_export run, which removes torch's TORCH_TRACE
    handler) the list is put back exactly as it was;
  - the logger's level, propagate and disabled flags;
  - GET_DTRACE_STRUCTURED;
  - a filter put on the user's own trace handlers (TORCH_TRACE) while the
    call runs, which drops the records only the draft-export level of detail
    adds (those logged through `dtrace_structured`), so the user's log holds
    what it would hold without capture.

The handler is a plain logging.Handler, not torch's LazyTraceHandler, so
draft_export (which removes every LazyTraceHandler) leaves it in place.

torch interns filenames once per process (`{"str": [path, id]}` lines, written
just before their first use); a per-call log would miss every id interned
before it began.  So the log starts with the whole table as it stands, in
torch's own line format, then a torch_version artifact, then the call's
records."""
import collections
import contextlib
import hashlib
import json
import logging
import os

LOG_NAME = "dedicated_log_torch_trace_exportlens.log"
_MISSING = object()


@contextlib.contextmanager
def _logging_lock():
    acquire = getattr(logging, "_acquireLock", None)  # Python <= 3.12
    if acquire is not None:
        acquire()
        try:
            yield
        finally:
            logging._releaseLock()
        return
    lock = getattr(logging, "_lock", None)  # Python 3.13+
    if lock is None:
        yield
        return
    with lock:
        yield


def _internal():
    import torch._logging._internal as internal

    return internal


def _is_dtrace_only(record):
    return getattr(record, "funcName", None) == "dtrace_structured"


class _DropDtrace(logging.Filter):
    def filter(self, record):
        return not _is_dtrace_only(record)


class _CallHandler(logging.Handler):
    def __init__(self, stream, owner):
        super().__init__(level=logging.DEBUG)
        self.stream = stream
        self.owner = owner

    def emit(self, record):
        try:
            text = self.format(record)
            if not text:
                return
            self.stream.write(text + "\n")
            self.stream.flush()
            self.owner._saw(record)
        except Exception as e:  # noqa: BLE001 - never disturb the user's export
            self.owner._note(f"trace handler: {type(e).__name__}: {e}")

    def handleError(self, record):  # noqa: N802 - logging's name
        self.owner._note("trace handler: could not write a record")


class CallTrace:
    """`with CallTrace(folder, errors):` around one call; `.events` counts the
    events by name, `.partial_graphs` holds the make_fx_fail_partial payloads."""

    def __init__(self, folder, errors, restore_handlers=False, dtrace=True):
        self.folder = folder
        self.errors = errors
        self.restore_handlers = restore_handlers
        self.dtrace = dtrace
        self.events = collections.Counter()
        self.partial_graphs = []
        self.ok = False
        self._handler = None
        self._stream = None
        self._saved = None
        self._filtered = []

    def _note(self, msg):
        if len(self.errors) < 20:
            self.errors.append(msg)

    def _saw(self, record):
        md = getattr(record, "metadata", None)
        if not isinstance(md, dict) or not md:
            return
        name = next(iter(md))
        self.events[name] += 1
        if name == "artifact" and isinstance(md[name], dict) and md[name].get("name") == "make_fx_fail_partial":
            payload = getattr(record, "payload", None)
            if isinstance(payload, str):
                self.partial_graphs.append(payload)

    # ---- the header -------------------------------------------------------
    def _record(self, internal, pathname, lineno, metadata, payload=None):
        rec = logging.LogRecord(internal.trace_log.name, logging.DEBUG, pathname, lineno, "", (), None)
        rec.metadata = metadata
        rec.payload = payload
        return rec

    def _write_header(self, internal, formatter):
        import torch

        structured = getattr(torch._logging, "structured", None)
        table = dict(getattr(structured, "INTERN_TABLE", {}) or {})
        intern = getattr(structured, "intern_string", None)
        path = getattr(getattr(intern, "__code__", None), "co_filename", None) or internal.__file__
        line = getattr(getattr(intern, "__code__", None), "co_firstlineno", 0)
        for s, i in sorted(table.items(), key=lambda kv: kv[1]):
            self._stream.write(formatter.format(self._record(internal, path, line, {"str": [s, i]})) + "\n")
        version = {"pytorch_version": torch.__version__}
        try:
            from torch._utils_internal import get_torch_source_version

            version["commit"] = get_torch_source_version()
        except Exception:  # noqa: BLE001 - older torch
            pass
        try:
            from torch._environment import is_fbcode

            version["oss"] = not is_fbcode()
        except Exception:  # noqa: BLE001
            pass
        payload = json.dumps(version, indent=0)
        md = {"artifact": {"name": "torch_version", "encoding": "json"},
              "has_payload": hashlib.md5(payload.encode("utf-8")).hexdigest()}
        self._stream.write(formatter.format(self._record(internal, internal.__file__, 0, md, payload)) + "\n")
        self._stream.flush()

    # ---- enter / exit -----------------------------------------------------
    def __enter__(self):
        try:
            internal = _internal()
            trace_log = internal.trace_log
            os.makedirs(self.folder, exist_ok=True)
            self._stream = open(os.path.join(self.folder, LOG_NAME), "w", encoding="utf-8", errors="backslashreplace")
            formatter = internal.TorchLogsFormatter(trace=True)
            self._write_header(internal, formatter)
            handler = _CallHandler(self._stream, self)
            handler.setFormatter(formatter)
            dtrace_before = getattr(internal, "GET_DTRACE_STRUCTURED", _MISSING)
            with _logging_lock():
                self._saved = {
                    "handlers": list(trace_log.handlers),
                    "level": trace_log.level,
                    "propagate": trace_log.propagate,
                    "disabled": trace_log.disabled,
                    "dtrace": dtrace_before,
                }
                if self.dtrace and dtrace_before is False:
                    for h in trace_log.handlers:
                        f = _DropDtrace()
                        h.addFilter(f)
                        self._filtered.append((h, f))
                trace_log.handlers.insert(0, handler)  # first: see the record before any handler removes itself
                if trace_log.level == logging.NOTSET or trace_log.level > logging.DEBUG:
                    trace_log.setLevel(logging.DEBUG)
                trace_log.disabled = False
                if self.dtrace and dtrace_before is not _MISSING:
                    internal.GET_DTRACE_STRUCTURED = True
            self._handler = handler
            self._internal = internal
            self.ok = True
        except Exception as e:  # noqa: BLE001
            self._note(f"trace capture not installed: {type(e).__name__}: {e}")
            self._close_stream()
        return self

    def __exit__(self, *exc):
        if not self.ok:
            return False
        try:
            internal = self._internal
            trace_log = internal.trace_log
            with _logging_lock():
                if self._handler in trace_log.handlers:
                    trace_log.handlers.remove(self._handler)
                for h, f in self._filtered:
                    h.removeFilter(f)
                s = self._saved
                if self.restore_handlers:
                    trace_log.handlers[:] = s["handlers"]
                if trace_log.level != s["level"]:
                    trace_log.setLevel(s["level"])
                trace_log.propagate = s["propagate"]
                trace_log.disabled = s["disabled"]
                if s["dtrace"] is not _MISSING:
                    internal.GET_DTRACE_STRUCTURED = s["dtrace"]
        except Exception as e:  # noqa: BLE001
            self._note(f"trace capture not removed cleanly: {type(e).__name__}: {e}")
        self._close_stream()
        return False

    def _close_stream(self):
        try:
            if self._stream is not None:
                self._stream.close()
        except Exception:  # noqa: BLE001
            pass
        self._stream = None
