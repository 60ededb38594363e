"""What a failed export call raised: type, whole message, traceback, the user
frame it arose in, torch's suggested fixes and a failure class.

Failure classes (checked in this order, over the exception and its
__cause__ / __context__ chain):
  constraint_violation  ConstraintViolationError, or a message starting "Constraints violated"
  missing_fake_kernel   "no fake impl registered" / "no fake kernel" in a message,
                        or fake_tensor.UnsupportedOperatorException
  data_dependent        GuardOnDataDependentSymNode, PendingUnbackedSymbolNotFound,
                        DataDependentOutputException, DynamicOutputShapeException,
                        or "data-dependent expression" in a message
  constraint_violation  any other UserError(CONSTRAINT_VIOLATION) (torch 2.5/2.6 strict
                        raise data-dependent errors with that type, hence the order)
  unsupported           torch._dynamo.exc.Unsupported (a graph break in strict mode)
  user_error            any other torch._dynamo.exc.UserError
  other                 the rest
(spec_error, for a --spec-override text that does not evaluate, is set by
call_record.)"""
import os
import re
import traceback

from .frames import frame_dict

_DD_TYPES = {"GuardOnDataDependentSymNode", "PendingUnbackedSymbolNotFound",
             "DataDependentOutputException", "DynamicOutputShapeException"}
_DD_TEXT = ("could not guard on data-dependent expression",
            "could not extract specialized integer from data-dependent expression",
            "data-dependent expression")
_FAKE_TEXT = ("no fake impl registered", "there was no fake impl", "no fake kernel",
              "does not have a fake kernel", "missing fake kernel", "has no fake impl")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def type_name(t):
    mod = getattr(t, "__module__", None)
    qual = getattr(t, "__qualname__", getattr(t, "__name__", "?"))
    return qual if mod in (None, "builtins") else f"{mod}.{qual}"


def safe_str(e):
    try:
        return str(e)
    except Exception as x:  # noqa: BLE001
        return f"<str() of {type(e).__name__} raised {type(x).__name__}>"


def chain(exc):
    seen, out = set(), []
    e = exc
    while e is not None and id(e) not in seen and len(out) < 16:
        seen.add(id(e))
        out.append(e)
        e = e.__cause__ if e.__cause__ is not None else e.__context__
    return out


def _mro_names(e):
    return {c.__name__ for c in type(e).__mro__}


def _mro_full(e):
    return {type_name(c) for c in type(e).__mro__}


def failure_class(exc):
    links = chain(exc)
    texts = [safe_str(e) for e in links]
    for e, t in zip(links, texts):
        if "ConstraintViolationError" in _mro_names(e) or t.lstrip().startswith("Constraints violated"):
            return "constraint_violation"
    for e, t in zip(links, texts):
        low = t.lower()
        if "UnsupportedOperatorException" in _mro_names(e) or any(s in low for s in _FAKE_TEXT):
            return "missing_fake_kernel"
    for e, t in zip(links, texts):
        low = t.lower()
        if _mro_names(e) & _DD_TYPES or any(s in low for s in _DD_TEXT):
            return "data_dependent"
    for e in links:
        # torch 2.5/2.6 strict raise data-dependent errors as UserError(CONSTRAINT_VIOLATION)
        # too, so the error type comes after the data-dependent tests
        et = getattr(e, "error_type", None)
        if "UserError" in _mro_names(e) and getattr(et, "name", None) == "CONSTRAINT_VIOLATION":
            return "constraint_violation"
    for e in links:
        if "torch._dynamo.exc.Unsupported" in _mro_full(e):
            return "unsupported"
    for e in links:
        if "torch._dynamo.exc.UserError" in _mro_full(e):
            return "user_error"
    return "other"


def suggested_fixes(message):
    """The lines under each "Suggested fixes:" heading, as torch lists them
    (indented lines up to the first blank or unindented line), stripped."""
    lines = message.splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.strip() != "Suggested fixes:":
            continue
        for nxt in lines[i + 1:]:
            if not nxt.strip() or not nxt[:1].isspace():
                break
            out.append(nxt.strip())
    return out


_FILE_LINE = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<fn>.+?)\s*$')


def user_code_frames(message):
    """Frames listed under "from user code:" (strict mode) as frame dicts."""
    lines = message.splitlines()
    frames = []
    for i, line in enumerate(lines):
        if line.strip() != "from user code:":
            continue
        j = i + 1
        while j < len(lines):
            m = _FILE_LINE.match(lines[j])
            if m:
                code = None
                if j + 1 < len(lines) and not _FILE_LINE.match(lines[j + 1]) and lines[j + 1].strip() \
                        and set(lines[j + 1].strip()) - set("^~ "):
                    code = lines[j + 1].strip()
                frames.append(frame_dict(m.group("file"), int(m.group("line")), m.group("fn"), code))
            elif not lines[j].strip() or not lines[j][:1].isspace():
                if frames:
                    break
            j += 1
    return frames


def trimmed_tb(tb, classifier):
    """The traceback without this package's leading frames (the wrapper)."""
    while tb is not None and classifier.is_own(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return tb


def outer_stack(frame, classifier):
    """The stack from the outermost frame to `frame` (the export call's caller),
    without this package's and runpy's frames: what a traceback of an
    exception raised by the call shows above the call."""
    out = []
    for fs in traceback.extract_stack(frame):
        fn = fs.filename or ""
        if classifier.is_own(fn) or fn == "<frozen runpy>" or os.path.basename(fn) == "runpy.py":
            continue
        out.append(fs)
    return out


def describe(exc, classifier, call_site=None, outer=None):
    """The attempt's "error" dict.  The traceback is the whole stack as an
    uncaught exception would show it: the frames above the export call
    (`outer`), then the raised traceback, this package's frames left out."""
    message = safe_str(exc)
    tb = trimmed_tb(exc.__traceback__, classifier)
    inner = [fs for fs in traceback.extract_tb(tb) if not classifier.is_own(fs.filename)]
    stack = list(outer or []) + inner
    frames = []
    for fs in stack:
        kind = classifier.classify(fs.filename)
        frames.append({"file": fs.filename, "line": fs.lineno, "function": fs.name, "code": fs.line,
                       "is_torch": kind == "torch", "is_user": kind == "user"})
    try:
        te = traceback.TracebackException(type(exc), exc, tb)
        te.stack = traceback.StackSummary.from_list(stack)
        tb_text = "".join(te.format())
    except Exception as e:  # noqa: BLE001
        tb_text = f"<traceback not formatted: {type(e).__name__}: {e}>"
    user_frame = None
    innermost = next((f for f in reversed(frames) if f["is_user"]), None)
    if innermost is not None:
        user_frame = {k: innermost[k] for k in ("file", "line", "function", "code")}
        user_frame["source"] = "traceback"
    at_call_site = innermost is None or (call_site is not None and innermost["file"] == call_site.get("file")
                                         and innermost["line"] == call_site.get("line"))
    if at_call_site:
        # strict mode: dynamo traced the user's code, so the traceback has no
        # frame of it below the export call; the message names the user lines
        listed = [f for f in user_code_frames(message) if classifier.is_user(f["file"])]
        if listed:
            user_frame = dict(listed[-1])
            user_frame["source"] = "message"
    return {
        "type": type_name(type(exc)),
        "short_type": type(exc).__name__,
        "message": message,
        "traceback": frames,
        "traceback_text": tb_text,
        "user_frame": user_frame,
        "suggested_fixes": suggested_fixes(message),
        "failure_class": failure_class(exc),
    }


def strip_ansi(text):
    return _ANSI.sub("", text)
