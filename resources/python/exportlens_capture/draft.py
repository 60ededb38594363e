"""--draft: after a failed export call, the same call through torch.export.draft_export
(where this torch has it), written to attempt_NNN/draft/.

draft_export removes torch's TORCH_TRACE handler for the rest of the process
and writes a filtered log of its own ($TORCH_DTRACE, else a temporary
export_<user> folder).  Here TORCH_DTRACE points into draft/torch_dtrace/ for
the call, and the trace logger's handlers, level and flags are put back
exactly afterwards.  Nothing it raises reaches the script."""
import inspect
import os
import time

from . import errors as errors_mod
from . import op_schemas
from .manifest import json_safe, write_json_atomic, write_text
from .quiet import quiet
from .trace_capture import CallTrace


def split_result(result):
    """(program, report) of what draft_export returned: the program (report in
    ep._report) since 2.7, a (program, report) tuple in 2.6."""
    if isinstance(result, tuple) and len(result) == 2 and hasattr(result[0], "graph_module"):
        return result[0], result[1]
    return result, getattr(result, "_report", None)


def report_json(report):
    """ep._report (DraftExportReport) as JSON data."""
    out = {"successful": None, "failures": [], "text": None, "text_plain": None,
           "str_to_filename": {}, "op_profiles": None}
    if report is None:
        return out
    try:
        out["successful"] = bool(report.successful())
    except Exception:  # noqa: BLE001
        pass
    str_to_filename = getattr(report, "str_to_filename", {}) or {}
    out["str_to_filename"] = json_safe(str_to_filename)
    for f in getattr(report, "failures", []) or []:
        ft = getattr(f, "failure_type", None)
        entry = {"failure_type": getattr(ft, "name", None) or str(ft), "data": json_safe(getattr(f, "data", None)),
                 "text": None}
        try:
            entry["text"] = errors_mod.strip_ansi(f.print(str_to_filename))
        except Exception:  # noqa: BLE001
            pass
        out["failures"].append(entry)
    try:
        text = str(report)
        out["text"] = text
        out["text_plain"] = errors_mod.strip_ansi(text)
    except Exception as e:  # noqa: BLE001
        out["text"] = f"<str(report) raised {type(e).__name__}: {e}>"
    try:
        out["op_profiles"] = json_safe(getattr(report, "op_profiles", None))
    except Exception:  # noqa: BLE001
        pass
    return out


def save_program(ep, folder, prefix, capture_errors):
    """program.pt2 and program.txt of ep in folder; (program, program_text, save_error)
    as paths relative to the attempt folder (prefix: '' or 'draft/')."""
    import torch

    program = program_text = save_error = None
    with quiet(streams=False):
        try:
            write_text(os.path.join(folder, "program.txt"), str(ep))
            program_text = prefix + "program.txt"
        except Exception as e:  # noqa: BLE001
            save_error = f"str(ep): {type(e).__name__}: {errors_mod.safe_str(e)}"
        try:
            op_schemas.save(ep, os.path.join(folder, "program.pt2"))
            program = prefix + "program.pt2"
        except Exception as e:  # noqa: BLE001
            msg = f"torch.export.save: {type(e).__name__}: {errors_mod.safe_str(e)}"
            save_error = msg if save_error is None else save_error + "; " + msg
            try:
                os.remove(os.path.join(folder, "program.pt2"))
            except OSError:
                pass
    return program, program_text, save_error


def _cut_context(exc, original):
    """The draft runs while the export's exception is being handled, so Python
    chains that exception under the draft's own (as __context__): cut it off."""
    seen = set()
    e = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if e.__context__ is original:
            e.__context__ = None
        if e.__cause__ is original:
            e.__cause__ = None
        e = e.__cause__ if e.__cause__ is not None else e.__context__


def run_draft(draft_export, bound, attempt_dir, classifier, capture_errors, original_exc=None):
    """Call draft_export with the export call's arguments; the attempt's "draft" dict."""
    folder = os.path.join(attempt_dir, "draft")
    os.makedirs(folder, exist_ok=True)
    out = {"program": None, "program_text": None, "report": None, "trace": None, "error": None,
           "save_error": None, "seconds": None, "output": None}
    try:
        params = inspect.signature(draft_export).parameters
    except (TypeError, ValueError):
        params = {}
    call_kwargs = {k: v for k, v in bound.items() if k in params and k not in ("mod", "args", "kwargs")}
    mod, args, kwargs = bound.get("mod"), bound.get("args", ()), bound.get("kwargs")
    trace = CallTrace(os.path.join(folder, "trace"), capture_errors, restore_handlers=True)
    env_before = os.environ.get("TORCH_DTRACE")
    os.environ["TORCH_DTRACE"] = os.path.join(folder, "torch_dtrace")
    output = _Sink()
    t0 = time.perf_counter()
    ep = report = None
    try:
        with trace, quiet(output):
            ep, report = split_result(draft_export(mod, args, kwargs, **call_kwargs))
    except BaseException as e:  # noqa: BLE001 - nothing from here reaches the script
        if isinstance(e, KeyboardInterrupt):
            raise
        if original_exc is not None:
            _cut_context(e, original_exc)
        d = errors_mod.describe(e, classifier)
        out["error"] = {k: d[k] for k in ("type", "short_type", "message", "traceback_text", "failure_class")}
    finally:
        out["seconds"] = round(time.perf_counter() - t0, 6)
        if env_before is None:
            os.environ.pop("TORCH_DTRACE", None)
        else:
            os.environ["TORCH_DTRACE"] = env_before
    if trace.ok:
        out["trace"] = "draft/trace"
    if output.text:
        write_text(os.path.join(folder, "output.txt"), output.text)
        out["output"] = "draft/output.txt"
    if ep is not None:
        out["program"], out["program_text"], out["save_error"] = save_program(ep, folder, "draft/", capture_errors)
        try:
            write_json_atomic(os.path.join(folder, "report.json"), report_json(report))
            out["report"] = "draft/report.json"
        except Exception as e:  # noqa: BLE001
            capture_errors.append(f"draft report: {type(e).__name__}: {e}")
    return out


class _Sink:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s
