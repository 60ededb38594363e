"""`python -m exportlens_capture [-o DIR] [--draft] [--spec-override FILE.json] [--] SCRIPT.py [ARGS...]`

Runs SCRIPT.py as `python SCRIPT.py ARGS` would: a fresh `__main__` module
(`__file__` the script's path as Python sets it, `__spec__` None), sys.argv
[SCRIPT.py, *ARGS], sys.path[0] the script's folder, the same exit status;
an uncaught exception goes to sys.excepthook with the traceback starting at
the script's own frame, a KeyboardInterrupt ends the process by SIGINT as
Python does.  Meanwhile torch.export.export / draft_export calls are recorded
into DIR (default ./exportlens_capture).

DIR must not exist, be empty, or hold an earlier capture (a manifest.json of
this format): then its manifest.json and attempt_NNN folders are removed
first and other files are left alone.  Any other non-empty DIR is refused
(exit 2, nothing run)."""
import atexit
import builtins
import importlib.machinery
import io
import os
import re
import runpy
import shutil
import signal
import sys
import types
import zipfile

from . import import_hook
from ._version import __version__
from .call_record import Recorder
from .errors import safe_str, type_name
from .frames import FrameClassifier, find_torch_dir
from .manifest import Manifest, is_capture_folder
from .spec_override import SpecOverrides

USAGE = ("usage: python -m exportlens_capture [-o DIR] [--draft] [--spec-override FILE.json] "
         "[--trace dtrace|plain|none] [--] SCRIPT.py [ARGS...]")
HELP = USAGE + """

Runs SCRIPT.py as `python SCRIPT.py ARGS...` would and records every
torch.export.export / torch.export.draft_export call it makes into DIR.

options:
  -o, --output DIR         the capture folder (default ./exportlens_capture); it must
                           not exist, be empty, or hold an earlier capture
  --draft                  after a failed export call, also run draft_export on it
  --spec-override FILE     JSON list of {"call_site": {"file", "line"}, "occurrence", "spec"}:
                           that call gets dynamic_shapes from the spec text
  --trace LEVEL            each call's own structured trace: dtrace (default: the
                           draft-export detail, guard provenance; it makes an export
                           several times slower, as TORCH_DTRACE does), plain (what
                           TORCH_TRACE logs), none
  --version                print the capture package's version
  -h, --help               this text
"""


class UsageError(Exception):
    pass


def parse(argv):
    opts = {"out": "exportlens_capture", "draft": False, "spec_override": None, "trace": "dtrace",
            "script": None, "args": []}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in ("-h", "--help"):
            opts["help"] = True
            return opts
        if a == "--version":
            opts["version"] = True
            return opts
        if a == "--draft":
            opts["draft"] = True
        elif a in ("-o", "--output", "--spec-override", "--trace"):
            if i + 1 >= len(argv):
                raise UsageError(f"{a} needs a value")
            opts[{"-o": "out", "--output": "out", "--spec-override": "spec_override", "--trace": "trace"}[a]] = argv[i + 1]
            i += 1
        elif a.startswith("--trace="):
            opts["trace"] = a.split("=", 1)[1]
        elif a.startswith("--output="):
            opts["out"] = a.split("=", 1)[1]
        elif a.startswith("--spec-override="):
            opts["spec_override"] = a.split("=", 1)[1]
        elif a.startswith("-o") and len(a) > 2:
            opts["out"] = a[2:]
        elif a.startswith("-") and a != "-":
            raise UsageError(f"unknown option {a}")
        else:
            break
        i += 1
    if i >= len(argv):
        raise UsageError("no script given")
    opts["script"] = argv[i]
    opts["args"] = list(argv[i + 1:])
    if not opts["out"]:
        raise UsageError("-o needs a folder")
    if opts["trace"] not in ("dtrace", "plain", "none"):
        raise UsageError(f"--trace takes dtrace, plain or none, not {opts['trace']!r}")
    return opts


_OURS = re.compile(r"^(manifest\.json(\.tmp.*)?|attempt_\d{3,})$")


def prepare_out_dir(path):
    path = os.path.abspath(path)
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise UsageError(f"{path} exists and is not a folder")
        entries = os.listdir(path)
        if entries:
            if not is_capture_folder(path):
                raise UsageError(f"{path} is not empty and holds no earlier capture; give another -o folder")
            for e in entries:
                if _OURS.match(e):
                    p = os.path.join(path, e)
                    if os.path.isdir(p) and not os.path.islink(p):
                        shutil.rmtree(p)
                    else:
                        os.remove(p)
    else:
        os.makedirs(path)
    return path


def _exit_code(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    return 1


def _script_traceback(tb, script_file):
    """The traceback from the script's own <module> frame on (as a plain run shows it)."""
    t = tb
    while t is not None:
        if t.tb_frame.f_code.co_filename == script_file:
            return t
        t = t.tb_next
    own = os.path.dirname(os.path.abspath(__file__))
    t = tb
    while t is not None and (t.tb_frame.f_code.co_filename.startswith(own)
                             or t.tb_frame.f_code.co_filename == runpy.__file__):
        t = t.tb_next
    return t if t is not None else tb


class _Run:
    def __init__(self, manifest, recorder):
        self.manifest = manifest
        self.recorder = recorder
        self.exit_set = False
        self.sigint = False

    def set_exit(self, code, exc=None):
        try:
            info = None if exc is None else {"type": type_name(type(exc)), "message": safe_str(exc)}
            self.manifest.set_exit(code, info)
            self.exit_set = True
        except Exception as e:  # noqa: BLE001
            self.recorder.internal_error("writing the manifest", e)

    def at_exit(self):
        try:
            self.manifest.write()
        except Exception:  # noqa: BLE001
            pass
        if self.sigint:
            # Python ends a run stopped by an uncaught KeyboardInterrupt by SIGINT
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:  # noqa: BLE001
                    pass
            try:
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.kill(os.getpid(), signal.SIGINT)
            except Exception:  # noqa: BLE001
                pass


def _run_script(script_arg, script_file):
    """Execute the script as __main__ (runpy for a folder or zip, as python does)."""
    if os.path.isdir(script_file) or zipfile.is_zipfile(script_file):
        runpy.run_path(script_file, run_name="__main__")
        return
    with io.open_code(script_file) as f:
        source = f.read()
    code = compile(source, script_file, "exec", dont_inherit=True)
    main = types.ModuleType("__main__")
    main.__file__ = script_file
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", script_file)
    main.__spec__ = None
    main.__package__ = None
    main.__cached__ = None
    main.__builtins__ = builtins
    sys.modules["__main__"] = main
    exec(code, main.__dict__)  # noqa: S102 - running the user's script is the point


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        opts = parse(argv)
    except UsageError as e:
        sys.stderr.write(f"exportlens_capture: {e}\n{USAGE}\n")
        return 2
    if opts.get("help"):
        sys.stdout.write(HELP)
        return 0
    if opts.get("version"):
        sys.stdout.write(f"exportlens_capture {__version__}\n")
        return 0
    script_arg = opts["script"]
    script_file = script_arg if os.path.isabs(script_arg) else os.path.join(os.getcwd(), script_arg)
    if not os.path.exists(script_file):
        sys.stderr.write(f"{sys.executable}: can't open file {os.path.abspath(script_file)!r}: "
                         f"[Errno 2] No such file or directory\n")
        return 2
    try:
        out_dir = prepare_out_dir(opts["out"])
        overrides = SpecOverrides.load(opts["spec_override"]) if opts["spec_override"] else None
    except (UsageError, OSError, ValueError) as e:
        sys.stderr.write(f"exportlens_capture: {e}\n")
        return 2

    # what the script sees: argv, sys.path[0] = its folder (replacing -m's cwd entry)
    sys.argv = [script_arg, *opts["args"]]
    script_dir = os.path.dirname(os.path.realpath(script_file))
    if not getattr(sys.flags, "safe_path", False):
        if sys.path and sys.path[0] in ("", os.getcwd()):
            sys.path[0] = script_dir
        else:
            sys.path.insert(0, script_dir)

    torch_dir = find_torch_dir()
    torch_version = None
    try:
        import importlib.metadata

        torch_version = importlib.metadata.version("torch")
    except Exception:  # noqa: BLE001
        pass
    manifest = Manifest(out_dir, os.path.abspath(script_file), sys.argv, torch_version, torch_dir)
    classifier = FrameClassifier(torch_dir)
    recorder = Recorder(out_dir, manifest, classifier, draft=opts["draft"], overrides=overrides,
                        trace_level=opts["trace"])
    manifest.data["trace_level"] = opts["trace"]
    manifest.data["draft"] = opts["draft"]
    run = _Run(manifest, recorder)
    try:
        manifest.write()
    except OSError as e:
        sys.stderr.write(f"exportlens_capture: cannot write {manifest.path}: {e}\n")
        return 2
    atexit.register(run.at_exit)  # first registered, so it runs last
    import_hook.install(recorder.patch)

    try:
        _run_script(script_arg, script_file)
    except SystemExit as e:
        run.set_exit(_exit_code(e.code), None if _exit_code(e.code) == 0 else e)
        raise
    except KeyboardInterrupt as e:
        run.set_exit(130, e)
        tb = _script_traceback(e.__traceback__, script_file)
        _report_uncaught(e, tb)
        run.sigint = True
        sys.exit(130)
    except BaseException as e:  # noqa: BLE001 - what python would print and exit 1 for
        run.set_exit(1, e)
        tb = _script_traceback(e.__traceback__, script_file)
        _report_uncaught(e, tb)
        sys.exit(1)
    run.set_exit(0)
    return 0


def _report_uncaught(e, tb):
    e.__traceback__ = tb
    sys.last_type, sys.last_value, sys.last_traceback = type(e), e, tb
    if hasattr(sys, "last_exc") or sys.version_info >= (3, 12):
        sys.last_exc = e
    try:
        sys.excepthook(type(e), e, tb)
    except Exception:  # noqa: BLE001
        sys.__excepthook__(type(e), e, tb)
