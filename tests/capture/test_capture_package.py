"""Tests of the Python capture package (resources/python/exportlens_capture).

Run from this folder with the package on the path:

    PYTHONPATH=../../resources/python EXPORTLENS_VERSION=0.1.0 python -m unittest -v test_capture_package

Needs torch and transformers, nothing else.  Each corpus script
(scripts/*.py) is run plainly and under `python -m exportlens_capture`, in
subprocesses of this interpreter; what the capture recorded is compared with
torch's own text, which the plain run prints between `=== export N: Type`
and `=== end` markers (nothing expected is written into this file but which
exports fail, their failure class and the trace events torch 2.13 emits).
The subprocess runs are cached, so each script runs once per set of options.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(HERE, "scripts")
PACKAGE_ROOT = os.path.join(ROOT, "resources", "python")
if PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, PACKAGE_ROOT)

import torch  # noqa: E402

import exportlens_capture  # noqa: E402
from exportlens_capture import op_schemas, spec_text  # noqa: E402

PY = sys.executable
TMP = tempfile.mkdtemp(prefix="exportlens_capture_test_")

# Per corpus script: each export call's outcome in call order ("ok" or the
# failure class) and, per call, trace events torch 2.13 writes for it (an
# artifact by its name).  A None outcome list: the run ends uncaught.
CASES = {
    "cv_specialized": [("constraint_violation", {"create_symbol", "guard_added", "guard_added_fast",
                                                 "symbolic_shape_specialization", "expression_created"})],
    "cv_relation": [("constraint_violation", {"create_symbol", "guard_added", "guard_added_fast",
                                              "expression_created"})],
    "cv_range": [("constraint_violation", {"create_symbol", "guard_added", "guard_added_fast",
                                           "expression_created"})],
    "dd_item": [("data_dependent", {"create_unbacked_symbol", "guard_on_data_dependent_error",
                                    "make_fx_fail_partial"})],
    "dd_nonzero": [("data_dependent", {"create_unbacked_symbol", "guard_on_data_dependent_error",
                                       "make_fx_fail_partial", "expression_created"})],
    "strict_unsupported": [("unsupported", {"compilation_metrics"}),
                           ("ok", {"exported_program", "guard_added_fast"})],
    "custom_op_no_fake": [("missing_fake_kernel", {"make_fx_fail_partial"})],
    "hf_bert_spec": [("constraint_violation", {"create_symbol", "guard_added", "guard_added_fast",
                                               "expression_created"}),
                     ("ok", {"create_symbol", "guard_added", "exported_program"})],
    "catch_then_ok": [("constraint_violation", {"create_symbol", "guard_added"}),
                      ("ok", {"create_symbol", "guard_added", "exported_program"})],
    "uncaught": [("constraint_violation", {"create_symbol", "guard_added", "symbolic_shape_specialization"})],
    "ok_simple": [("ok", {"create_symbol", "guard_added", "exported_program"})],
}

_runs = {}


def run(script, capture=None, env=None, cwd=None, args=(), key=None):
    """Run a script plainly (capture None) or under the package with the
    options in capture (a list); cached by key.  Returns (proc, capture dir)."""
    k = key or (script, tuple(capture) if capture is not None else None, tuple(sorted((env or {}).items())),
                tuple(args))
    if k in _runs:
        return _runs[k]
    path = script if (os.path.isabs(script) or script.endswith(".py")) else os.path.join(SCRIPTS, script + ".py")
    e = dict(os.environ)
    e["PYTHONPATH"] = PACKAGE_ROOT + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e["PYTHONDONTWRITEBYTECODE"] = "1"
    e.update(env or {})
    out_dir = None
    if capture is None:
        cmd = [PY, path, *args]
    else:
        out_dir = os.path.join(TMP, "cap_%d" % len(_runs))
        cmd = [PY, "-m", "exportlens_capture", "-o", out_dir, *capture, "--", path, *args]
    proc = subprocess.run(cmd, cwd=cwd or os.path.dirname(os.path.abspath(path)), env=e, capture_output=True, text=True,
                          timeout=900)
    _runs[k] = (proc, out_dir)
    return _runs[k]


def markers(stdout):
    """[(type name or 'ok', message or None)] from the corpus' markers."""
    out = []
    for m in re.finditer(r"^=== export (\d+): (\S+)\n(?:(.*?)\n=== end$)?", stdout, re.M | re.S):
        out.append((m.group(2), m.group(3) if m.group(2) != "ok" else None))
    return out


def torch_fixes(message):
    """The lines under torch's "Suggested fixes:" heading, read here independently."""
    lines = message.split("\n")
    if "Suggested fixes:" not in lines:
        return []
    i = lines.index("Suggested fixes:") + 1
    out = []
    while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
        out.append(lines[i].strip())
        i += 1
    return out


def export_lines(script):
    """Line numbers of the script's export calls, in order."""
    with open(os.path.join(SCRIPTS, script + ".py"), encoding="utf-8") as f:
        return [i for i, line in enumerate(f, 1)
                if re.search(r"(?<![\w.])export\(|torch\.export\.export\(", line) and "import" not in line]


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


_LINE = re.compile(r"^[VIWEC]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ \S+:\d+\] (\{.*\})$")


def read_trace(folder):
    """[(metadata, payload)] of the one log in a trace folder, in torch's format."""
    logs = [f for f in os.listdir(folder) if f.endswith(".log")]
    assert len(logs) == 1, logs
    events = []
    with open(os.path.join(folder, logs[0]), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("\t"):
                md, payload = events[-1]
                events[-1] = (md, (payload + "\n" if payload is not None else "") + line[1:])
                continue
            m = _LINE.match(line)
            assert m, f"not a trace line: {line[:200]}"
            events.append((json.loads(m.group(1)), None))
    return events


def event_names(events):
    names = set()
    for md, _ in events:
        name = next(iter(md))
        names.add(name)
        if name == "artifact":
            names.add(md[name].get("name"))
    return names


def filename_ids(obj, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "filename" and isinstance(v, int):
                out.add(v)
            else:
                filename_ids(v, out)
    elif isinstance(obj, list):
        for v in obj:
            filename_ids(v, out)
    return out


class CaptureTestCase(unittest.TestCase):
    maxDiff = None

    def capture(self, script, options=(), **kw):
        proc, out = run(script, list(options), **kw)
        self.assertTrue(os.path.exists(os.path.join(out, "manifest.json")), proc.stderr[-3000:])
        return proc, out, load_json(os.path.join(out, "manifest.json"))

    def attempts(self, out, manifest):
        return [load_json(os.path.join(out, a["dir"], "attempt.json")) for a in manifest["attempts"]]

    def check_trace_folder(self, folder, expected_events=()):
        events = read_trace(folder)
        defined = {}
        for md, _ in events:
            if "str" in md:
                s, i = md["str"]
                self.assertEqual(defined.setdefault(i, s), s, f"id {i} defined twice differently")
        used = set()
        for md, _ in events:
            filename_ids(md, used)
        self.assertTrue(used, "no stack in the log")
        self.assertLessEqual(used, set(defined), f"ids used but not defined in {folder}")
        missing = set(expected_events) - event_names(events)
        self.assertFalse(missing, f"{folder} lacks {missing}")
        return events


class TestVersion(unittest.TestCase):
    def test_version_is_the_apps(self):
        self.assertIn("EXPORTLENS_VERSION", os.environ, "run with EXPORTLENS_VERSION (CTest sets it)")
        self.assertEqual(exportlens_capture.__version__, os.environ["EXPORTLENS_VERSION"])

    def test_manifest_carries_it(self):
        proc, out = run("ok_simple", [])
        m = load_json(os.path.join(out, "manifest.json"))
        self.assertEqual(m["capture_version"], exportlens_capture.__version__)
        self.assertEqual(m["format"], "exportlens-capture")
        self.assertEqual(m["format_version"], 1)
        self.assertEqual(m["torch_version"], torch.__version__)
        self.assertEqual(m["torch_dir"], os.path.dirname(os.path.abspath(torch.__file__)))
        self.assertEqual(m["python_executable"], PY)


class TestCorpus(CaptureTestCase):
    """Every corpus script, plainly and under capture."""

    def check_script(self, script):
        plain, _ = run(script)
        expected = CASES[script]
        proc, out, m = self.capture(script)
        self.assertEqual(proc.stdout, plain.stdout, "stdout differs under capture")
        self.assertEqual(proc.returncode, plain.returncode)
        self.assertEqual(m["exit"]["code"], plain.returncode)
        self.assertEqual(m["script"], os.path.join(SCRIPTS, script + ".py"))
        self.assertEqual(len(m["attempts"]), len(expected))
        self.assertEqual([a["index"] for a in m["attempts"]], list(range(1, len(expected) + 1)))
        printed = markers(plain.stdout)
        if script == "uncaught":
            self.assertEqual(printed, [])
            self.assertNotEqual(plain.returncode, 0)
        else:
            self.assertEqual(len(printed), len(expected))
        lines = export_lines(script)
        self.assertEqual(len(lines), len(expected))
        for i, (entry, att) in enumerate(zip(m["attempts"], self.attempts(out, m))):
            want, events = expected[i]
            with self.subTest(attempt=i + 1):
                self.assertTrue(att["finished"])
                self.assertEqual(entry["ok"], want == "ok")
                self.assertEqual(att["ok"], want == "ok")
                self.assertEqual(att["function"], "export")
                self.assertEqual(att["torch_version"], torch.__version__)
                self.assertEqual(att["capture_errors"], [])
                site = att["call_site"]
                self.assertEqual(site, entry["call_site"])
                self.assertEqual(site["file"], os.path.join(SCRIPTS, script + ".py"))
                self.assertEqual(site["line"], lines[i])
                self.assertIn("export(", site["code"])
                self.assertIsInstance(att["strict"], bool)
                self.assertTrue(att["model_class"])
                self.assertTrue(att["inputs"])
                for inp in att["inputs"]:
                    self.assertRegex(inp["path"], r"^(args|kwargs)\[")
                self.check_trace_folder(os.path.join(out, entry["dir"], att["trace"]), events)
                if want == "ok":
                    self.check_program(out, entry["dir"], att)
                    self.assertIsNone(entry["failure_class"])
                    self.assertIsNone(att["error"])
                    if printed:
                        self.assertEqual(printed[i], ("ok", None))
                    continue
                err = att["error"]
                self.assertEqual(err["failure_class"], want)
                self.assertEqual(entry["failure_class"], want)
                if script == "uncaught":
                    type_line = f"{err['type']}: {err['message']}\n"
                    self.assertTrue(plain.stderr.endswith(type_line), plain.stderr[-2000:])
                else:
                    self.assertEqual(printed[i][0], err["short_type"])
                    self.assertEqual(printed[i][1], err["message"], "the recorded message is not torch's text")
                self.assertEqual(err["suggested_fixes"], torch_fixes(err["message"]))
                if want == "constraint_violation":
                    self.assertTrue(err["suggested_fixes"], "torch suggested fixes for this violation")
                self.assertTrue(err["type"].endswith("." + err["short_type"]) or err["type"] == err["short_type"])
                self.assertIn(err["message"].split("\n")[0], err["traceback_text"])
                self.assertTrue(any(f["is_torch"] for f in err["traceback"]))
                self.assertFalse(any("exportlens_capture" in f["file"] for f in err["traceback"]))
                uf = err["user_frame"]
                self.assertIsNotNone(uf)
                self.assertEqual(uf["file"], site["file"])
                if want in ("data_dependent", "unsupported"):
                    # where it arose: the model's forward, not the export call
                    self.assertEqual(uf["function"], "forward")
                    self.assertNotEqual(uf["line"], site["line"])
                partial = [p for md, p in read_trace(os.path.join(out, entry["dir"], "trace"))
                           if md.get("artifact", {}).get("name") == "make_fx_fail_partial"]
                if partial:
                    with open(os.path.join(out, entry["dir"], att["partial_graph"]), encoding="utf-8") as f:
                        self.assertEqual(f.read(), partial[-1])
                else:
                    self.assertIsNone(att["partial_graph"])
                self.check_spec(script, att)
        return m

    def check_program(self, out, dir_, att):
        self.assertIsNone(att["save_error"])
        self.assertEqual(att["program"], "program.pt2")
        if att["model_class"].startswith("transformers."):
            import transformers.modeling_outputs  # noqa: F401  registers the output classes with pytree
        ep = torch.export.load(os.path.join(out, dir_, att["program"]))
        with open(os.path.join(out, dir_, att["program_text"]), encoding="utf-8") as f:
            self.assertEqual(str(ep), f.read())
        return ep

    def check_spec(self, script, att):
        ds = att["dynamic_shapes"]
        if not ds["given"]:
            self.assertEqual(spec_text.evaluate(ds["text"]), None)
            return
        self.assertTrue(ds["exact"])
        value = spec_text.evaluate(ds["text"])
        self.assertIsInstance(value, (dict, tuple, list))
        # the Dims as the script spells them: Dim("name", min=.., max=..) literals
        with open(os.path.join(SCRIPTS, script + ".py"), encoding="utf-8") as f:
            src = f.read()
        d_min, d_max = spec_text.dim_defaults()
        literals = {(n, int(lo) if lo else d_min, int(hi) if hi else d_max)
                    for n, lo, hi in re.findall(r'Dim\("(\w+)"(?:, min=(\d+))?(?:, max=(\d+))?\)', src)}
        for d in ds["dims"]:
            if "derived_from" not in d:
                self.assertIn((d["name"], d["min"], d["max"]), literals)
        found = {}
        collect_dims(value, found)
        self.assertEqual(sorted(found), sorted(d["name"] for d in ds["dims"] if "derived_from" not in d))
        if isinstance(value, dict):
            names = {i["name"] for i in att["inputs"]}
            self.assertLessEqual(set(value), names)


def collect_dims(value, out):
    if isinstance(value, dict):
        for v in value.values():
            collect_dims(v, out)
    elif isinstance(value, (tuple, list)):
        for v in value:
            collect_dims(v, out)
    elif type(value).__name__ in ("Dim", "_Dim"):
        out[value.__name__] = (value.min, value.max)


def _corpus_test(name):
    def test(self):
        self.check_script(name)

    test.__name__ = f"test_{name}"
    test.__doc__ = f"scripts/{name}.py plainly and under capture"
    return test


for _name in CASES:
    setattr(TestCorpus, f"test_{_name}", _corpus_test(_name))


class TestInputs(CaptureTestCase):
    def test_paths_names_shapes_match_the_programs_example_inputs(self):
        from torch.utils._pytree import keystr, tree_flatten_with_path

        proc, out, m = self.capture("ok_simple")
        att = self.attempts(out, m)[0]
        ep = torch.export.load(os.path.join(out, "attempt_001", "program.pt2"))
        expected = []
        for path, leaf in tree_flatten_with_path(ep.example_inputs)[0]:
            text = keystr(path)
            text = ("args" + text[3:]) if text.startswith("[0]") else ("kwargs" + text[3:])
            expected.append((text, list(leaf.shape) if isinstance(leaf, torch.Tensor) else None,
                             str(leaf.dtype) if isinstance(leaf, torch.Tensor) else None))
        got = [(i["path"], i["shape"], i["dtype"]) for i in att["inputs"]]
        self.assertEqual(got, expected)
        names = {i["path"]: i["name"] for i in att["inputs"]}
        self.assertEqual(names["args[0]"], "x")
        self.assertEqual(names["args[1][0]"], "pair")
        self.assertEqual(names["kwargs['mask']"], "mask")
        kinds = {i["path"]: i["kind"] for i in att["inputs"]}
        self.assertEqual(kinds["kwargs['scale']"], "float")
        self.assertEqual(kinds["args[0]"], "tensor")
        self.assertEqual({i["device"] for i in att["inputs"] if i["kind"] == "tensor"}, {"cpu"})


class TestOpSchemas(CaptureTestCase):
    """Programs are saved with the schemas of their Python-registered ops (op_schemas.save)."""

    SCRIPT = """
        import torch

        @torch.library.custom_op("exportlens_capture_test::decay_", mutates_args=("state",))
        def decay_(state: torch.Tensor, x: torch.Tensor, rate: float = 0.5) -> torch.Tensor:
            state.mul_(rate)
            return x + 1

        @decay_.register_fake
        def _(state, x, rate=0.5):
            return torch.empty_like(x)

        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("state", torch.ones(4))

            def forward(self, x):
                return torch.ops.exportlens_capture_test.decay_(self.state, x) * self.state

        torch.export.export(M(), (torch.randn(4),))
        torch.export.export(torch.nn.Linear(4, 4), (torch.randn(2, 4),))
    """

    def entry(self, pt2):
        import zipfile
        with zipfile.ZipFile(pt2) as z:
            names = [n for n in z.namelist() if n.endswith("/extra/" + op_schemas.ENTRY)]
            return json.loads(z.read(names[0])) if names else None

    def test_capture_saves_custom_op_schemas(self):
        script = os.path.join(TMP, "op_schemas_script.py")
        os.makedirs(TMP, exist_ok=True)
        with open(script, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(self.SCRIPT))
        proc, out, manifest = self.capture(script)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        custom, plain = self.attempts(out, manifest)
        recorded = self.entry(os.path.join(out, manifest["attempts"][0]["dir"], custom["program"]))
        self.assertEqual(recorded["format"], "exportlens-op-schemas")
        self.assertEqual(recorded["version"], 1)
        # The schema as torch prints it, the written argument annotated, the default kept.
        self.assertEqual([o["schema"] for o in recorded["ops"]],
                         ["exportlens_capture_test::decay_(Tensor(a0!) state, Tensor x, float rate=0.5) -> Tensor"])
        self.assertIn("pt2_compliant_tag", recorded["ops"][0]["tags"])
        # A program of LibTorch's ops alone gets no entry.
        self.assertIsNone(self.entry(os.path.join(out, manifest["attempts"][1]["dir"], plain["program"])))

    def test_save_keeps_the_callers_extra_files_and_loads_in_torch(self):
        lib = torch.library.Library("exportlens_capture_test2", "DEF")  # noqa: TOR901
        lib.define("bump_(Tensor(a!) t) -> ()")
        lib.impl("bump_", lambda t: t.add_(1), "CompositeExplicitAutograd")
        lib._register_fake("bump_", lambda t: None)

        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("count", torch.zeros(2))

            def forward(self, x):
                torch.ops.exportlens_capture_test2.bump_(self.count)
                return x + self.count

        ep = torch.export.export(M(), (torch.randn(2),))
        path = os.path.join(TMP, "op_schemas_save.pt2")
        op_schemas.save(ep, path, extra_files={"mine.txt": "kept"})
        self.assertEqual([o["schema"] for o in self.entry(path)["ops"]],
                         [str(torch.ops.exportlens_capture_test2.bump_.default._schema)])
        extra = {"mine.txt": ""}
        loaded = torch.export.load(path, extra_files=extra)
        self.assertEqual(extra["mine.txt"], "kept")
        self.assertEqual(str(loaded.graph), str(ep.graph))


class TestSpecText(unittest.TestCase):
    """dynamic_shapes → text → exec → the same structure."""

    def norm(self, v):
        kind = spec_text._dim_kind(v)
        if kind == "root":
            return ("Dim", v.__name__, spec_text._as_int(v.min), spec_text._as_int(v.max))
        if kind == "derived":
            import sympy

            root = spec_text._root_of(v)
            return ("Derived", self.norm(root), int(v.fn(sympy.Integer(3))), int(v.fn(sympy.Integer(7))))
        h = spec_text._hint(v)
        if h is not None:
            return ("Hint",) + tuple(h)
        if isinstance(v, dict):
            return ("dict", [(k, self.norm(x)) for k, x in v.items()])
        if isinstance(v, (tuple, list)):
            return (type(v).__name__, [self.norm(x) for x in v])
        return v

    def roundtrip(self, spec):
        d = spec_text.describe(spec)
        self.assertTrue(d["exact"], d["text"])
        back = spec_text.evaluate(d["text"])
        self.assertEqual(self.norm(back), self.norm(spec), d["text"])
        return d

    def test_roundtrips(self):
        from torch.export import Dim, dims

        batch = Dim("batch", min=2, max=64)
        seq = Dim("seq")
        a, b = dims("a", "b", max=9)
        specs = [
            {"x": {0: batch}, "y": (2 * batch + 1, None)},
            {"x": (batch, seq), "pair": ((batch, None), {1: seq - 1}), "z": None},
            ((batch, None), ((a, b),), [3 * seq, 4]),
            {"x": (Dim.AUTO, Dim.STATIC)},
            ({0: batch},),
            [None, {0: seq}],
            {"nested": {"k": (batch, batch * 2)}},
        ]
        if hasattr(Dim, "DYNAMIC"):  # torch >= 2.6
            specs.append({"x": (Dim.AUTO, Dim.STATIC), "y": {0: Dim.DYNAMIC}})
        if callable(Dim.AUTO):  # torch >= 2.7: hints with ranges
            specs.append({"x": (Dim.AUTO(min=2, max=8), Dim.DYNAMIC(max=32))})
        for spec in specs:
            with self.subTest(spec=repr(spec)):
                self.roundtrip(spec)

    def test_declarations_come_first_and_defaults_are_left_out(self):
        from torch.export import Dim

        d = self.roundtrip({"x": {0: Dim("n")}, "y": {0: Dim("m", min=3)}})
        lines = d["text"].strip().split("\n")
        self.assertEqual(lines[0], "n = Dim('n')")
        self.assertEqual(lines[1], "m = Dim('m', min=3)")
        self.assertTrue(lines[-1].startswith("dynamic_shapes = "))
        self.assertEqual([x["name"] for x in d["dims"]], ["n", "m"])

    def test_derived_dims_are_listed_with_their_root(self):
        from torch.export import Dim

        batch = Dim("batch", min=2, max=64)
        d = self.roundtrip({"x": {0: 2 * batch + 1}})
        self.assertIn("2*batch + 1", d["text"])
        derived = [x for x in d["dims"] if "derived_from" in x]
        self.assertEqual(len(derived), 1)
        self.assertEqual((derived[0]["derived_from"], derived[0]["coeff"], derived[0]["offset"]), ("batch", 2, 1))
        self.assertEqual((derived[0]["min"], derived[0]["max"]), (5, 129))

    def test_what_cannot_be_written_is_marked_inexact(self):
        class Odd:
            def __repr__(self):
                return "Odd()"

        d = spec_text.describe({"x": Odd()})
        self.assertFalse(d["exact"])
        self.assertIn("# ['x']: not expressible", d["text"])
        self.assertIn("Odd()", d["text"])
        self.assertEqual(spec_text.evaluate(d["text"]), {"x": None})

    def test_no_spec(self):
        d = spec_text.describe(None)
        self.assertEqual((d["given"], d["exact"], d["dims"]), (False, True, []))
        self.assertIsNone(spec_text.evaluate(d["text"]))


class TestDraft(CaptureTestCase):
    def check_draft(self, script, failure_types, draft_events):
        plain, _ = run(script)
        proc, out, m = self.capture(script, ["--draft"])
        self.assertEqual(proc.stdout, plain.stdout)
        self.assertEqual(proc.returncode, plain.returncode)
        first = self.attempts(out, m)[0]
        self.assertFalse(first["ok"])
        dr = first["draft"]
        self.assertIsNotNone(dr)
        self.assertIsNone(dr["error"])
        folder = os.path.join(out, "attempt_001")
        if script == "custom_op_no_fake" and not hasattr(torch.ops.exportlens_corpus, "scale_rows"):
            import runpy

            sys.path.insert(0, SCRIPTS)
            runpy.run_path(os.path.join(SCRIPTS, script + ".py"), run_name="corpus_op")  # registers the op
        ep = torch.export.load(os.path.join(folder, dr["program"]))
        with open(os.path.join(folder, dr["program_text"]), encoding="utf-8") as f:
            text = f.read()
        # torch's save/load round trip prints a float symbol's unbounded range as
        # VR[-int_oo, int_oo] where the program it saved printed VR[-oo, oo]
        self.assertEqual(str(ep).replace("int_oo", "oo"), text.replace("int_oo", "oo"))
        report = load_json(os.path.join(folder, dr["report"]))
        self.assertFalse(report["successful"])
        self.assertEqual(sorted({f["failure_type"] for f in report["failures"]}), sorted(failure_types))
        self.assertIn("issue(s) found during export", report["text_plain"])
        self.check_trace_folder(os.path.join(folder, dr["trace"]), draft_events)
        return out, m

    def test_data_dependent(self):
        self.check_draft("dd_item", ["DATA_DEPENDENT_ERROR"], {"propagate_real_tensors_provenance",
                                                               "create_unbacked_symbol", "guard_added"})

    def test_missing_fake_kernel(self):
        self.check_draft("custom_op_no_fake", ["MISSING_FAKE_KERNEL"], {"missing_fake_kernel", "exported_program"})

    def test_a_later_export_still_writes_its_trace(self):
        out, m = self.check_draft("catch_then_ok", ["GUARD_ADDED"], {"guard_added", "exported_program"})
        second = self.attempts(out, m)[1]
        self.assertTrue(second["ok"])
        events = self.check_trace_folder(os.path.join(out, "attempt_002", second["trace"]),
                                         {"create_symbol", "guard_added", "exported_program"})
        self.assertGreater(len(events), 10)

    def test_a_failing_draft_stays_out_of_the_script(self):
        plain, _ = run("strict_unsupported")
        proc, out, m = self.capture("strict_unsupported", ["--draft"])
        self.assertEqual(proc.stdout, plain.stdout)
        self.assertEqual(proc.returncode, plain.returncode)
        first, second = self.attempts(out, m)
        self.assertIsNotNone(first["draft"]["error"], "draft_export of a strict graph break fails too")
        self.assertEqual(first["draft"]["error"]["failure_class"], "unsupported")
        self.assertIsNone(first["draft"]["program"])
        self.assertEqual(first["error"]["failure_class"], "unsupported")
        self.assertTrue(second["ok"])
        self.assertIsNone(second["draft"])

    def test_user_torch_trace_gets_what_it_would_get(self):
        """TORCH_TRACE set around a --draft run: the user's log holds the events
        (str lines aside) a plain run's log holds, those after the draft too."""

        def counts(folder):
            c = {}
            for md, _ in read_trace(folder):
                name = next(iter(md))
                if name != "str":
                    c[name] = c.get(name, 0) + 1
            return c

        plain_dir, cap_dir = os.path.join(TMP, "tt_plain"), os.path.join(TMP, "tt_cap")
        plain, _ = run("catch_then_ok", env={"TORCH_TRACE": plain_dir})
        proc, out, m = self.capture("catch_then_ok", ["--draft"], env={"TORCH_TRACE": cap_dir})
        self.assertEqual(proc.stdout, plain.stdout)
        self.assertIsNotNone(self.attempts(out, m)[0]["draft"]["program"])
        want, got = counts(plain_dir), counts(cap_dir)
        self.assertEqual(got, want)
        self.assertEqual(want.get("create_symbol"), 4, "both exports' symbols")


class TestSpecOverride(CaptureTestCase):
    def override_file(self, name, entries):
        path = os.path.join(TMP, name + ".json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(entries, f)
        return path

    def fixed_spec(self, att):
        """The recorded spec with torch's suggested fixes applied after the declarations."""
        lines = att["dynamic_shapes"]["text"].rstrip("\n").split("\n")
        last = lines.pop()
        return "\n".join(lines + att["error"]["suggested_fixes"] + [last]) + "\n"

    def check_fixed(self, script):
        proc, out, m = self.capture(script)
        att = self.attempts(out, m)[0]
        fixed = self.fixed_spec(att)
        path = self.override_file(script, [{"call_site": {"file": att["call_site"]["file"],
                                                          "line": att["call_site"]["line"]},
                                            "occurrence": 1, "spec": fixed}])
        proc2, out2, m2 = self.capture(script, ["--spec-override", path])
        self.assertEqual(proc2.returncode, 0, proc2.stderr[-2000:])
        self.assertEqual(markers(proc2.stdout), [("ok", None)])
        att2 = self.attempts(out2, m2)[0]
        self.assertTrue(att2["ok"])
        self.assertTrue(att2["spec_override"])
        self.assertEqual(att2["spec_override_text"], fixed)
        self.assertNotEqual(att2["dynamic_shapes"]["text"], att["dynamic_shapes"]["text"])
        self.assertFalse(att["spec_override"])
        torch.export.load(os.path.join(out2, "attempt_001", "program.pt2"))

    def test_relation_fixed(self):
        self.check_fixed("cv_relation")

    def test_range_fixed(self):
        self.check_fixed("cv_range")

    def test_specialized_fixed(self):
        self.check_fixed("cv_specialized")

    def test_kth_call_of_a_site(self):
        script = os.path.join(TMP, "loop_site.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent("""\
                import torch
                from torch.export import Dim, export

                class M(torch.nn.Module):
                    def forward(self, x, y):
                        return x + y

                x, y = torch.randn(4, 2), torch.randn(4, 2)
                for i in range(3):
                    try:
                        export(M(), (x, y), dynamic_shapes={"x": (Dim("a"), None), "y": (Dim("b"), None)})
                        print(i, "ok")
                    except Exception as e:
                        print(i, type(e).__name__)
                """))
        path = self.override_file("loop", [{"call_site": {"file": script, "line": 11}, "occurrence": 2,
                                            "spec": "a = Dim('a')\ndynamic_shapes = {'x': (a, None), 'y': (a, None)}"}])
        proc, out, m = self.capture(script, ["--spec-override", path])
        self.assertEqual(proc.stdout.split(), ["0", "UserError", "1", "ok", "2", "UserError"])
        self.assertEqual([a["ok"] for a in m["attempts"]], [False, True, False])
        self.assertEqual([a["spec_override"] for a in self.attempts(out, m)], [False, True, False])

    def test_bad_spec_text_is_the_attempts_error(self):
        proc, out, m = self.capture("cv_relation")
        site = self.attempts(out, m)[0]["call_site"]
        path = self.override_file("bad", [{"call_site": site, "occurrence": 1, "spec": "dynamic_shapes = {'x': ("}])
        proc2, out2, m2 = self.capture("cv_relation", ["--spec-override", path])
        self.assertEqual(proc2.returncode, 0)
        got = markers(proc2.stdout)
        self.assertEqual(got[0][0], "SyntaxError")
        att = self.attempts(out2, m2)[0]
        self.assertFalse(att["ok"])
        self.assertEqual(att["error"]["failure_class"], "spec_error")
        self.assertEqual(att["error"]["short_type"], "SyntaxError")
        self.assertEqual(m2["attempts"][0]["failure_class"], "spec_error")
        self.assertEqual(got[0][1], att["error"]["message"])


class TestTraceLevels(CaptureTestCase):
    def test_plain_level_has_no_draft_detail(self):
        proc, out, m = self.capture("cv_relation", ["--trace", "plain"])
        att = self.attempts(out, m)[0]
        names = event_names(self.check_trace_folder(os.path.join(out, "attempt_001", att["trace"]),
                                                    {"create_symbol", "guard_added_fast"}))
        self.assertNotIn("expression_created", names)
        self.assertNotIn("guard_added", names)
        self.assertEqual(m["trace_level"], "plain")

    def test_none_level_writes_no_trace(self):
        proc, out, m = self.capture("cv_relation", ["--trace", "none"])
        att = self.attempts(out, m)[0]
        self.assertIsNone(att["trace"])
        self.assertFalse(os.path.exists(os.path.join(out, "attempt_001", "trace")))
        self.assertEqual(att["error"]["failure_class"], "constraint_violation")


class TestProcess(CaptureTestCase):
    """The script runs as `python SCRIPT.py` would, and the process is left as it was."""

    def write(self, name, text, folder=None):
        folder = folder or TMP
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))
        return path

    def same(self, script, options=(), env=None, cwd=None, args=()):
        plain, _ = run(script, env=env, cwd=cwd, args=args)
        proc, out = run(script, list(options), env=env, cwd=cwd, args=args)
        self.assertEqual(proc.stdout, plain.stdout)
        self.assertEqual(proc.returncode, plain.returncode, proc.stderr[-2000:])
        return plain, proc, out

    def test_main_module_argv_and_path(self):
        script = self.write("where.py", """\
            import sys
            print(sys.argv)
            print(sys.path[0])
            print(__name__, __file__, __spec__, __package__, __cached__, type(__loader__).__name__)
            print(sys.modules['__main__'].__dict__ is globals())
            """, os.path.join(TMP, "sub"))
        rel = os.path.relpath(script, TMP)
        plain, proc, out = self.same(rel, cwd=TMP, args=("a", "--b", "c d"))
        self.assertIn("'a', '--b', 'c d'", plain.stdout)
        m = load_json(os.path.join(out, "manifest.json"))
        self.assertEqual(m["argv"], [rel, "a", "--b", "c d"])
        self.assertEqual(m["script"], script)
        self.assertEqual(m["attempts"], [])

    def test_exit_codes(self):
        for name, body, code in [("exit3.py", "import sys\nprint('x')\nsys.exit(3)\n", 3),
                                 ("exitmsg.py", "import sys\nsys.exit('bye')\n", 1),
                                 ("raises.py", "def f():\n    raise ValueError('no')\nf()\n", 1)]:
            with self.subTest(name=name):
                script = self.write(name, body)
                plain, proc, out = self.same(script)
                self.assertEqual(proc.returncode, code)
                self.assertEqual(proc.stderr, plain.stderr)  # tracebacks start at the script, as python's
                m = load_json(os.path.join(out, "manifest.json"))
                self.assertEqual(m["exit"]["code"], code)

    def test_logger_state_is_put_back(self):
        """trace_log's handlers, level and the DTRACE flag after each call, with and
        without TORCH_TRACE, with --draft and a user draft_export call: as a plain run."""
        script = self.write("state.py", """\
            import logging
            import torch
            import torch._logging._internal as internal
            from torch.export import Dim, export

            draft_export = getattr(torch.export, "draft_export", None)  # 2.7+

            def state(tag):
                log = internal.trace_log
                print(tag, [type(h).__name__ for h in log.handlers], log.level, log.propagate, log.disabled,
                      getattr(internal, "GET_DTRACE_STRUCTURED", None), [len(h.filters) for h in log.handlers])

            class M(torch.nn.Module):
                def forward(self, x, y):
                    return x + y

            x, y = torch.randn(4, 2), torch.randn(4, 2)
            state("start")
            try:
                export(M(), (x, y), dynamic_shapes={"x": (Dim("a"), None), "y": (Dim("b"), None)})
            except Exception as e:
                print(type(e).__name__)
            state("after failed export")
            export(M(), (x, y))
            state("after export")
            if draft_export is not None:
                draft_export(M(), (x, y))
            state("after draft_export")
            export(M(), (x, y))
            state("end")
            """)
        for env in ({}, {"TORCH_TRACE": os.path.join(TMP, "state_trace")}):
            for options in ([], ["--draft"]):
                with self.subTest(env=env, options=options):
                    plain, proc, out = self.same(script, options, env=env)
                    self.assertIn("after draft_export", plain.stdout)
                    m = load_json(os.path.join(out, "manifest.json"))
                    if not hasattr(torch.export, "draft_export"):
                        self.assertEqual([a["ok"] for a in m["attempts"]], [False, True, True])
                        continue
                    self.assertEqual([a["function"] for a in m["attempts"]],
                                     ["export", "export", "draft_export", "export"])
                    self.assertEqual([a["ok"] for a in m["attempts"]], [False, True, True, True])
                    draft_att = self.attempts(out, m)[2]
                    self.assertEqual(draft_att["report"], "report.json")
                    self.assertIsNotNone(draft_att["program"])

    def test_a_bad_call_is_recorded_and_raised_as_is(self):
        script = self.write("badcall.py", """\
            import torch
            from torch.export import export

            class M(torch.nn.Module):
                def forward(self, x):
                    return x

            try:
                export(M())
            except TypeError as e:
                print("TypeError", e)
            """)
        plain, proc, out = self.same(script)
        m = load_json(os.path.join(out, "manifest.json"))
        att = self.attempts(out, m)[0]
        self.assertFalse(att["ok"])
        self.assertEqual(att["error"]["short_type"], "TypeError")
        self.assertEqual(plain.stdout.strip(), "TypeError " + att["error"]["message"])
        self.assertEqual(att["error"]["failure_class"], "other")

    def test_a_killed_script_leaves_a_readable_capture(self):
        script = self.write("killed.py", """\
            import os, signal
            import torch
            from torch.export import export

            class M(torch.nn.Module):
                def forward(self, x):
                    return x * 2

            export(M(), (torch.randn(3),))
            os.kill(os.getpid(), signal.SIGKILL)
            """)
        proc, out = run(script, [])
        self.assertEqual(proc.returncode, -signal.SIGKILL)
        m = load_json(os.path.join(out, "manifest.json"))
        self.assertIsNone(m["exit"])
        self.assertEqual(len(m["attempts"]), 1)
        self.assertTrue(m["attempts"][0]["ok"])
        self.assertTrue(m["attempts"][0]["finished"])

    def test_output_folder_rules(self):
        script = self.write("hello.py", "print('hello')\n")
        env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
        other = os.path.join(TMP, "not_a_capture")
        os.makedirs(other, exist_ok=True)
        self.write("keep.txt", "mine\n", other)
        p = subprocess.run([PY, "-m", "exportlens_capture", "-o", other, script], env=env, capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stdout, "")
        self.assertEqual(len(p.stderr.strip().split("\n")), 1)
        self.assertEqual(os.listdir(other), ["keep.txt"])
        again = os.path.join(TMP, "again")
        for i in range(2):
            p = subprocess.run([PY, "-m", "exportlens_capture", "-o", again, script], env=env, capture_output=True,
                               text=True, timeout=120)
            self.assertEqual((p.returncode, p.stdout, p.stderr), (0, "hello\n", ""))
            if i == 0:
                os.makedirs(os.path.join(again, "attempt_007"))
                self.write("notes.txt", "kept\n", again)
        self.assertEqual(sorted(os.listdir(again)), ["manifest.json", "notes.txt"])

    def test_a_script_without_torch(self):
        script = self.write("plain.py", "import sys\nprint('no torch', 'torch' in sys.modules)\n")
        plain, proc, out = self.same(script)
        self.assertEqual(plain.stdout, "no torch False\n")
        m = load_json(os.path.join(out, "manifest.json"))
        self.assertEqual(m["attempts"], [])
        self.assertEqual(m["exit"], {"code": 0, "exception": None})


def tearDownModule():
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
