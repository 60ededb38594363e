"""Recording each torch.export.export / draft_export call: the wrappers put in
place of the module attributes, and one Attempt per call.

A wrapper calls the real function with exactly the arguments it got (unless a
--spec-override applies), returns its result or re-raises the very exception
object it raised; everything recorded around it is fenced off so that a
recording failure never changes what the script sees (it is noted in the
attempt's capture_errors and, once per process, in one line on stderr).
Calls made while another recorded call runs on the same thread (torch's own,
draft_export's internals, our --draft run) pass straight through."""
import functools
import inspect
import os
import platform
import sys
import threading
import time

from . import draft as draft_mod
from . import errors as errors_mod
from . import frames as frames_mod
from . import inputs as inputs_mod
from . import spec_text
from .manifest import utc_now_iso, write_json_atomic, write_text
from .trace_capture import CallTrace

ORIGINAL_ATTR = "__exportlens_capture_original__"


class Attempt:
    def __init__(self, rec, index, function, original, args, kwargs, caller):
        self.rec = rec
        self.index = index
        self.function = function
        self.dir_name = f"attempt_{index:03d}"
        self.dir = os.path.join(rec.out_dir, self.dir_name)
        self.errors = []
        self.call_args, self.call_kwargs = args, kwargs
        self.raise_now = None
        self.trace = None
        self.bound = None
        self._t0 = None
        self.data = {
            "index": index, "function": function, "call_site": None, "model_class": None, "strict": None,
            "torch_version": rec.torch_version(), "python_version": platform.python_version(),
            "inputs": [], "dynamic_shapes": {"given": False, "text": "dynamic_shapes = None\n", "exact": True, "dims": []},
            "spec_override": False, "spec_override_text": None,
            "started": None, "seconds": None, "finished": False, "ok": False,
            "program": None, "program_text": None, "save_error": None, "error": None,
            "partial_graph": None, "trace": None, "trace_events": {}, "draft": None, "report": None,
            "capture_errors": self.errors,
        }
        os.makedirs(self.dir, exist_ok=True)
        self.data["call_site"] = frames_mod.call_site(caller, rec.classifier)
        try:
            self.outer = errors_mod.outer_stack(caller, rec.classifier)
        except Exception as e:  # noqa: BLE001
            self.outer = []
            self.errors.append(f"stack: {type(e).__name__}: {e}")
        try:
            self.bound = inspect.signature(original).bind(*args, **kwargs)
        except (TypeError, ValueError) as e:
            self.errors.append(f"arguments not bound to {function}'s signature: {e}")
        self._describe_call(original)

    def _arguments(self, original):
        if self.bound is None:
            return {}
        out = dict(self.bound.arguments)
        try:
            for name, p in inspect.signature(original).parameters.items():
                if name not in out and p.default is not p.empty:
                    out[name] = p.default
        except (TypeError, ValueError):
            pass
        return out

    def _describe_call(self, original):
        a = self._arguments(original)
        override = self.rec.overrides.take(self.data["call_site"]) if self.rec.overrides else None
        if override is not None:
            self.data["spec_override"] = True
            self.data["spec_override_text"] = override
            try:
                spec = spec_text.evaluate(override)
            except Exception as e:  # noqa: BLE001 - the text's own error
                self.raise_now = e
                err = errors_mod.describe(e, self.rec.classifier, self.data["call_site"], self.outer)
                err["failure_class"] = "spec_error"
                self.data["error"] = err
                a["dynamic_shapes"] = None
                spec = None
            if self.raise_now is None and self.bound is not None:
                self.bound.arguments["dynamic_shapes"] = spec
                self.call_args, self.call_kwargs = self.bound.args, self.bound.kwargs
                a["dynamic_shapes"] = spec
        mod = a.get("mod")
        if mod is not None:
            self.data["model_class"] = errors_mod.type_name(type(mod))
        self.data["strict"] = a.get("strict") if isinstance(a.get("strict"), bool) else None
        try:
            self.data["inputs"] = inputs_mod.describe(mod, a.get("args", ()), a.get("kwargs"))
        except Exception as e:  # noqa: BLE001
            self.errors.append(f"inputs: {type(e).__name__}: {e}")
        if self.raise_now is None:
            try:
                self.data["dynamic_shapes"] = spec_text.describe(a.get("dynamic_shapes"), mod, a.get("args", ()),
                                                                 a.get("kwargs"))
            except Exception as e:  # noqa: BLE001
                self.errors.append(f"dynamic_shapes: {type(e).__name__}: {e}")
                self.data["dynamic_shapes"] = {"given": True, "text": f"# not written: {type(e).__name__}: {e}\n",
                                               "exact": False, "dims": []}
        self._arguments_for_draft = a

    # ---- the call --------------------------------------------------------
    def start(self):
        self.write()
        if self.rec.trace_level != "none":
            self.trace = CallTrace(os.path.join(self.dir, "trace"), self.errors, dtrace=self.rec.trace_level == "dtrace")
            self.trace.__enter__()
        self.data["started"] = utc_now_iso()
        self._t0 = time.perf_counter()

    def _stop(self):
        self.data["seconds"] = round(time.perf_counter() - self._t0, 6)
        if self.trace is not None:
            self.trace.__exit__(None, None, None)
            if self.trace.ok:
                self.data["trace"] = "trace"
            self.data["trace_events"] = dict(sorted(self.trace.events.items()))

    def succeeded(self, ep):
        self._stop()
        self.data["ok"] = True
        report = None
        if self.function == "draft_export":
            ep, report = draft_mod.split_result(ep)
        self.data["program"], self.data["program_text"], self.data["save_error"] = draft_mod.save_program(
            ep, self.dir, "", self.errors)
        if self.function == "draft_export":
            try:
                write_json_atomic(os.path.join(self.dir, "report.json"), draft_mod.report_json(report))
                self.data["report"] = "report.json"
            except Exception as e:  # noqa: BLE001
                self.errors.append(f"report: {type(e).__name__}: {e}")
        self.finish()

    def failed(self, exc):
        self._stop()
        self.data["error"] = errors_mod.describe(exc, self.rec.classifier, self.data["call_site"], self.outer)
        if self.trace is not None and self.trace.partial_graphs:
            write_text(os.path.join(self.dir, "partial_graph.txt"), self.trace.partial_graphs[-1])
            self.data["partial_graph"] = "partial_graph.txt"
        self.write()  # the failure is on disk before the (slow) draft run
        if self.rec.draft and self.function == "export" and not isinstance(exc, KeyboardInterrupt):
            draft_export = self.rec.originals.get("draft_export") or _private_draft_export()
            if draft_export is None:
                self.data["draft"] = {"program": None, "program_text": None, "report": None, "trace": None,
                                      "error": {"type": None, "short_type": None, "failure_class": None,
                                                "message": "this torch has no torch.export.draft_export",
                                                "traceback_text": None},
                                      "save_error": None, "seconds": None, "output": None}
            else:
                self.rec.set_busy(True)
                try:
                    self.data["draft"] = draft_mod.run_draft(draft_export, self._arguments_for_draft, self.dir,
                                                             self.rec.classifier, self.errors, exc)
                finally:
                    self.rec.set_busy(False)
        self.finish()

    def spec_failed(self):
        self.data["seconds"] = 0.0
        self.data["started"] = utc_now_iso()
        self.finish()

    def finish(self):
        self.data["finished"] = True
        self.write()

    def write(self):
        write_json_atomic(os.path.join(self.dir, "attempt.json"), self.data)
        err = self.data.get("error") or {}
        self.rec.manifest.put_attempt({
            "index": self.index, "dir": self.dir_name, "function": self.function, "ok": self.data["ok"],
            "finished": self.data["finished"], "failure_class": None if self.data["ok"] else err.get("failure_class"),
            "model_class": self.data["model_class"], "call_site": self.data["call_site"],
            "seconds": self.data["seconds"],
        })


def _private_draft_export():
    """torch 2.6 has draft_export in torch.export._draft_export only."""
    try:
        from torch.export._draft_export import draft_export

        return draft_export
    except Exception:  # noqa: BLE001
        return None


class Recorder:
    def __init__(self, out_dir, manifest, classifier, draft=False, overrides=None, trace_level="dtrace"):
        self.out_dir = out_dir
        self.trace_level = trace_level
        self.manifest = manifest
        self.classifier = classifier
        self.draft = draft
        self.overrides = overrides
        self.originals = {}
        self._next = 1
        self._lock = threading.Lock()
        self._local = threading.local()
        self._warned = False

    # ---- state -----------------------------------------------------------
    def busy(self):
        return getattr(self._local, "busy", False)

    def set_busy(self, value):
        self._local.busy = value

    def torch_version(self):
        t = sys.modules.get("torch")
        return getattr(t, "__version__", None) if t is not None else self.manifest.data.get("torch_version")

    def internal_error(self, what, e, attempt=None):
        msg = f"{what}: {type(e).__name__}: {e}"
        if attempt is not None:
            attempt.errors.append(msg)
            try:
                attempt.write()
            except Exception:  # noqa: BLE001
                pass
        if not self._warned:
            self._warned = True
            try:
                where = f" (attempt {attempt.index})" if attempt is not None else ""
                sys.__stderr__.write(f"exportlens_capture: internal error{where}, the script runs on: {msg}\n")
                sys.__stderr__.flush()
            except Exception:  # noqa: BLE001
                pass

    # ---- one call --------------------------------------------------------
    def begin(self, function, original, args, kwargs, caller):
        with self._lock:
            index = self._next
            self._next += 1
        try:
            att = Attempt(self, index, function, original, args, kwargs, caller)
        except Exception as e:  # noqa: BLE001
            self.internal_error("recording a call", e)
            return None
        try:
            if att.raise_now is not None:
                att.spec_failed()
                return att
            att.start()
        except Exception as e:  # noqa: BLE001
            self.internal_error("starting the record", e, att)
        return att

    def wrap(self, original, function):
        rec = self

        def call(*args, **kwargs):
            if rec.busy():
                return original(*args, **kwargs)
            att = rec.begin(function, original, args, kwargs, sys._getframe(1))
            if att is None:
                return original(*args, **kwargs)
            if att.raise_now is not None:
                raise att.raise_now
            rec.set_busy(True)
            try:
                result = original(*att.call_args, **att.call_kwargs)
            except BaseException as exc:
                rec.set_busy(False)
                try:
                    att.failed(exc)
                except BaseException as e:  # noqa: BLE001 - never replace the script's exception
                    rec.internal_error("recording the failure", e, att)
                raise
            rec.set_busy(False)
            try:
                att.succeeded(result)
            except BaseException as e:  # noqa: BLE001
                rec.internal_error("recording the program", e, att)
            return result

        wrapper = functools.wraps(original)(call)
        # the traceback shows this frame between the user's line and torch's: name it as torch's
        wrapper.__code__ = call.__code__.replace(co_name=getattr(original, "__name__", function))
        setattr(wrapper, ORIGINAL_ATTR, original)
        return wrapper

    # ---- patching torch.export --------------------------------------------
    def patch(self, module):
        """Put the wrappers on the torch.export module (once)."""
        for function in ("export", "draft_export"):
            fn = getattr(module, function, None)
            if fn is None or hasattr(fn, ORIGINAL_ATTR):
                continue
            self.originals[function] = fn
            setattr(module, function, self.wrap(fn, function))
        torch = sys.modules.get("torch")
        if torch is not None and getattr(torch, "__file__", None):
            tdir = os.path.dirname(os.path.abspath(torch.__file__))
            self.classifier.set_torch_dir(tdir)
            self.manifest.set_torch(getattr(torch, "__version__", None), tdir)
            try:
                self.manifest.write()
            except Exception:  # noqa: BLE001
                pass

    def unpatch(self):
        module = sys.modules.get("torch.export")
        for function, fn in self.originals.items():
            if module is not None and hasattr(getattr(module, function, None), ORIGINAL_ATTR):
                setattr(module, function, fn)
