"""Running our own extra work (saving a program, an extra draft_export) without
a word on the script's stdout/stderr and without touching the warning registries."""
import contextlib
import io
import logging
import sys
import warnings


class _DropAll(logging.Filter):
    def filter(self, record):
        return False


@contextlib.contextmanager
def quiet(capture=None, streams=True):
    """Silence warnings and torch's log handlers for the block and, with
    streams=True, prints (sys.stdout / sys.stderr swapped for a buffer); what
    was printed goes to capture.write() when given."""
    buf = io.StringIO()
    drop = _DropAll()
    handlers = set()
    try:
        for name, lg in list(logging.Logger.manager.loggerDict.items()):
            if name == "torch.__trace":  # the trace logger: not text output
                continue
            if isinstance(lg, logging.Logger) and (name == "torch" or name.startswith("torch.")):
                handlers.update(lg.handlers)
        handlers.update(logging.getLogger().handlers)
        handlers = {h for h in handlers if type(h).__name__ not in ("LazyTraceHandler", "_CallHandler")
                    and type(h).__module__ != "torch.export._draft_export"}
    except Exception:  # noqa: BLE001
        handlers = set()
    for h in handlers:
        h.addFilter(drop)
    old_out, old_err = sys.stdout, sys.stderr
    if streams:
        sys.stdout = sys.stderr = buf
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield buf
    finally:
        if streams:
            sys.stdout, sys.stderr = old_out, old_err
        for h in handlers:
            h.removeFilter(drop)
        if capture is not None:
            try:
                capture.write(buf.getvalue())
            except Exception:  # noqa: BLE001
                pass
