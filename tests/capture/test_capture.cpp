// Captured Python exports against torch: the failing-export script corpus
// (scripts/) captured at build time with real torch 2.13 (make_capture_fixtures.py),
// older releases' captures (fixtures/old_torch_capture/), and plain TORCH_TRACE
// logs. What ExportLens says of each attempt is checked against what torch
// itself said: its message, its suggested fixes (re-run through torch with
// the fixes applied), its printed programs, the script's own lines.
#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/capture/attempt_diagnosis.h"
#include "engine/capture/attempt_program.h"
#include "engine/capture/capture_folder.h"
#include "engine/capture/capture_report.h"
#include "engine/capture/capture_runner.h"
#include "engine/capture/fx_code_reader.h"
#include "engine/capture/trace_log.h"
#include "engine/ir/printer.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/sources/program_source.h"
#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;
using nlohmann::json;

namespace {

/// `text` parsed as a JSON object, or an empty one when it is not one.
json parse_object(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return !j.is_discarded() && j.is_object() ? j : json::object();
}

// The suite's temporary folder, shared by its tests and removed at exit.
const TempDir& tmp() {
  static const TempDir dir;
  return dir;
}

std::string captures() { return EXPORTLENS_CAPTURE_FIXTURES; }
std::string capture_path(const std::string& name) { return captures() + "/" + name; }
capture::Capture read(const std::string& name) { return capture::read_capture(capture_path(name)); }

std::vector<std::string> capture_names() {
  std::vector<std::string> names;
  for (const json& v : as_array(field(read_json(captures() + "/index.json"), "captures")))
    names.push_back(as_string(field(v, "name")));
  if (names.empty()) FAIL("no capture fixtures at " + captures());
  return names;
}

// torch's own outcome of each export call, as the script printed it between markers.
struct TorchOutcome {
  std::string type;     // "ok" or the exception's type name
  std::string message;  // str(e)
};
std::vector<TorchOutcome> torch_outcomes(const std::string& stdout_file) {
  const std::string text = read_text(stdout_file);
  std::vector<TorchOutcome> out;
  static const std::regex marker(R"(^=== export (\d+): (\S+)$)", std::regex::ECMAScript | std::regex::multiline);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), marker); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    TorchOutcome o{m.str(2), {}};
    if (o.type != "ok") {
      const size_t start = size_t(m.position(0) + m.length(0)) + 1;
      if (start < text.size()) {
        const size_t end = text.find("\n=== end", start);
        o.message = end == std::string::npos ? text.substr(start) : text.substr(start, end - start);
      }
    }
    out.push_back(o);
  }
  return out;
}

// "Constraints violated (dx, dy)!" -> {dx, dy}.
std::set<std::string> violated_dims(const std::string& message) {
  std::set<std::string> dims;
  const size_t open = message.find("Constraints violated (");
  if (open == std::string::npos) return dims;
  const size_t close = message.find(")!", open);
  std::string list = message.substr(open + 22, close - open - 22);
  for (size_t start = 0; start <= list.size();) {
    const size_t comma = std::min(list.find(", ", start), list.size());
    dims.insert(list.substr(start, comma - start));
    start = comma + 2;
  }
  return dims;
}

std::string script_line(const std::string& file, int line) {
  const std::vector<std::string> lines = split(read_text(file), '\n');
  return line >= 1 && size_t(line) <= lines.size() ? trimmed(lines[size_t(line - 1)]) : std::string();
}

sources::OpenRequest attempt_request(int index) {
  sources::OpenRequest r;
  r.read = runtime::pt2_read_options();
  r.read.load_weights = false;
  r.program = std::to_string(index);
  return r;
}

std::string without_trailing_newlines(std::string text) {
  while (text.ends_with('\n')) text.pop_back();
  return text;
}

/// The exception's type name without its module: "a.b.Type: message" -> "Type".
std::string exception_type_name(const std::string& exit_exception) {
  const std::string head = exit_exception.substr(0, exit_exception.find(':'));
  const size_t dot = head.rfind('.');
  return dot == std::string::npos ? head : head.substr(dot + 1);
}

size_t lines_in(const std::string& text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

ProcessResult capture_cli(const std::vector<std::string>& args) {
  std::vector<std::string> all{"capture"};
  all.insert(all.end(), args.begin(), args.end());
  return run_exportlens(all);
}

}  // namespace

// Every capture reads; its attempts are the script's export calls, with torch's outcome each.
EL_TEST(attemptsAreTheScriptsExportCalls) {
  int checked = 0;
  for (const std::string& name : capture_names()) {
    if (name.ends_with("_nodraft")) continue;
    const capture::Capture c = read(name);
    const std::vector<TorchOutcome> torch = torch_outcomes(captures() + "/" + name + ".stdout.txt");
    if (torch.empty()) {
      // A script that does not catch its export's error: it ends by it, as without capture.
      VERIFY_MSG(c.exit_code && *c.exit_code == 1, name);
      COMPARE(int(c.attempts.size()), 1);
      VERIFY(!c.attempts.front().ok);
      COMPARE(exception_type_name(c.exit_exception), c.attempts.front().error->short_type);
      ++checked;
      continue;
    }
    COMPARE(int(c.attempts.size()), int(torch.size()));
    for (size_t i = 0; i < torch.size(); ++i) {
      const capture::Attempt& a = c.attempts[i];
      COMPARE(a.index, int(i) + 1);
      COMPARE(a.ok, torch[i].type == "ok");
      if (!a.ok) {
        VERIFY(a.error);
        COMPARE(a.error->short_type, torch[i].type);
        COMPARE(a.error->message, torch[i].message);
      }
      // The call site is the script's line that calls export.
      VERIFY_MSG(contains(script_line(a.call_site.file, a.call_site.line), "export("),
                 name + ": " + a.call_site.location());
      ++checked;
    }
  }
  VERIFY(checked >= 12);
}

// print of each attempt's program equals torch's print(ep) of it: the exported
// program of a success, the draft program of a failure.
EL_TEST(printedProgramsAreTorchs) {
  int programs = 0;
  for (const std::string& name : capture_names()) {
    const capture::Capture c = read(name);
    for (const capture::Attempt& a : c.attempts) {
      const std::filesystem::path text = !a.program_text.empty() ? a.program_text
                                         : a.draft                 ? a.draft->program_text
                                                                   : std::filesystem::path();
      if (text.empty() || !std::filesystem::exists(text)) continue;
      const ir::ExportedProgram ep = sources::open_program(capture_path(name), attempt_request(a.index));
      // (trailing newlines aside: the file holds str(ep) as the package wrote it)
      COMPARE(without_trailing_newlines(ir::print_program(ep)), without_trailing_newlines(read_text(text.string())));
      ++programs;
    }
  }
  VERIFY_MSG(programs >= 10, std::to_string(programs));
}

// A constraint violation: the violated entries are the Dims torch names, each
// carries torch's fixes for it, every fix belongs to an entry, and the guard
// behind an entry points at the script's own line.
EL_TEST(violationsAreTorchs) {
  int entries = 0;
  for (const std::string& name : capture_names()) {
    const capture::Capture c = read(name);
    for (const capture::Attempt& a : c.attempts) {
      if (a.ok || a.error->failure_class != "constraint_violation") continue;
      const capture::AttemptDiagnosis d = capture::diagnose(c, a);
      COMPARE(d.failure_class, std::string("constraint_violation"));
      COMPARE(d.suggested_fixes, a.error->suggested_fixes);
      std::set<std::string> dims, fixes;
      for (const capture::ViolatedEntry& v : d.violations) {
        dims.insert(v.dim);
        fixes.insert(v.fixes.begin(), v.fixes.end());
        VERIFY_MSG(!v.guards.empty(), name + ": " + v.message);
        const capture::GuardLine& g = d.guards[size_t(v.guards.front())];
        // The user's code: the script's, or a library's the script calls (transformers' model).
        VERIFY(g.user_frame);
        VERIFY(!contains(g.user_frame->file, "/torch/"));
        COMPARE(g.user_frame->code, script_line(g.user_frame->file, g.user_frame->line));
        ++entries;
      }
      COMPARE(dims, violated_dims(a.error->message));
      COMPARE(fixes, std::set<std::string>(d.suggested_fixes.begin(), d.suggested_fixes.end()));
      // The line it arose from is a user line, not the export call.
      VERIFY(d.user_frame && d.raised_at);
      VERIFY(d.user_frame->line != a.call_site.line);
    }
  }
  VERIFY(entries >= 3);
}

// torch's fixes applied to the captured spec make torch export the model:
// the script runs again with that spec in place of the failing call's
// (what the GUI's Re-run does), and that attempt succeeds.
EL_TEST(fixedSpecExportsInTorch) {
  int reruns = 0;
  for (const std::string name : {"cv_specialized", "cv_relation", "cv_range"}) {
    const capture::Capture c = read(name);
    const capture::Attempt& a = c.attempts.front();
    const std::string fixed = capture::fixed_spec(a, capture::diagnose(c, a));
    VERIFY_MSG(!fixed.empty(), name);
    const std::string override_file = tmp().file(name + ".spec.json");
    capture::write_spec_override(override_file, {{a.call_site, 1, fixed}});
    capture::CaptureRequest request;
    request.script = c.script;
    request.python = EXPORTLENS_PYTHON;
    request.output_dir = tmp().file(name + "_rerun");
    request.spec_override = override_file;
    request.package_dir = EXPORTLENS_SOURCE_DIR "/resources/python";
    capture::run_capture(capture::capture_command(request), true);
    const capture::Capture rerun = capture::read_capture(request.output_dir);
    COMPARE(int(rerun.attempts.size()), int(c.attempts.size()));
    VERIFY(rerun.attempts.front().spec_override);
    VERIFY_MSG(rerun.attempts.front().ok, name + ": torch refused the fixed spec\n" + fixed);
    ++reruns;
  }
  COMPARE(reruns, 3);
}

// Symbols stand for input dims and spec entries, as the script wrote the spec.
EL_TEST(symbolsAreInputDimsAndSpecEntries) {
  const capture::Capture c = read("cv_relation");
  const capture::AttemptDiagnosis d = capture::diagnose(c, c.attempts.front());
  std::map<std::string, std::string> entry_of;
  for (const capture::SymbolBinding& s : d.symbols)
    if (s.input) entry_of[s.input->text()] = s.spec_entry;
  COMPARE(entry_of["x.shape[0]"], std::string("dx"));
  COMPARE(entry_of["y.shape[0]"], std::string("dy"));
  // The guard torch added, over the inputs.
  COMPARE(d.guards.size(), size_t(1));
  COMPARE(d.guards.front().over_inputs, std::string("Eq(x.shape[0], y.shape[0])"));
}

// A data-dependent error: the line that made the value, the line that needed it, torch's hints.
EL_TEST(dataDependentOrigins) {
  for (const auto& [name, made] :
       {std::pair<std::string, std::string>{"dd_item", ".item()"}, {"dd_nonzero", "nonzero()"}}) {
    const capture::Capture c = read(name);
    const capture::Attempt& a = c.attempts.front();
    const capture::AttemptDiagnosis d = capture::diagnose(c, a);
    COMPARE(d.failure_class, std::string("data_dependent"));
    VERIFY(!d.data_dependent.empty());
    const capture::DataDependentLine& x = d.data_dependent.front();
    VERIFY_MSG(x.origin, name);
    VERIFY_MSG(contains(x.origin->code, made), x.origin->code);
    COMPARE(x.origin->code, script_line(c.script, x.origin->line));
    VERIFY(x.guard_frame);
    COMPARE(x.guard_frame->file, c.script);
    VERIFY(contains(a.error->message, x.expr));
    for (const std::string& h : x.hints) VERIFY(a.error->message.find(h) != std::string::npos);
    // Where torch hints nothing, the tutorials' advice: a branch on data is torch.cond.
    COMPARE(x.advice.empty(), !x.hints.empty());
    if (name == "dd_item") VERIFY(x.advice.find("torch.cond") != std::string::npos);
  }
}

// Without a draft, a failed trace leaves its partial graph: read back, it is
// torch's text statement by statement, its nodes tied to the script's lines.
EL_TEST(partialGraphReadsBack) {
  const capture::Capture c = read("dd_item_nodraft");
  const capture::Attempt& a = c.attempts.front();
  VERIFY(!a.draft);
  const capture::AttemptDiagnosis d = capture::diagnose(c, a);
  std::string why;
  const auto p = capture::attempt_program(a, d, {}, &why);
  VERIFY_MSG(p, why);
  COMPARE(p->kind, capture::ProgramKind::PartialGraph);
  VERIFY(p->notes.empty());
  // Each statement of torch's text is a node of that name and op, in order.
  const std::string text = read_text(a.partial_graph.string());
  static const std::regex statement(R"(^\s+(\w+): "[^"]*" = (torch\.ops\.[\w.]+)\()",
                                    std::regex::ECMAScript | std::regex::multiline);
  int n = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), statement); it != std::sregex_iterator(); ++it, ++n) {
    const std::smatch& m = *it;
    const ir::Node* node = p->program.graph().find(m.str(1));
    VERIFY_MSG(node, m.str(1));
    COMPARE(node->target.qualified(), m.str(2));
    VERIFY(node->meta.innermost_frame());
  }
  VERIFY(n >= 2);
  // The guard behind the failure and the nodes of its line find each other.
  capture::AttemptDiagnosis linked = d;
  capture::link_graph(linked, p->program.graph());
  VERIFY(!linked.data_dependent.empty());
}

// A plain TORCH_TRACE log (no capture around it): what it holds is read; a
// strict export's failure is torch's message; a non-strict one's log has none.
EL_TEST(plainTraceLogs) {
  const std::string logs = captures() + "/logs";
  {
    const capture::TraceLog log = capture::read_trace_log(logs + "/cv_relation");
    const capture::AttemptDiagnosis d = capture::diagnose(log);
    VERIFY(d.message.empty());  // torch's non-strict log never holds the error
    COMPARE(d.guards.size(), size_t(1));
    COMPARE(d.guards.front().over_inputs, std::string("Eq(x.shape[0], y.shape[0])"));
    VERIFY(d.guards.front().user_frame);
    COMPARE(d.guards.front().user_frame->code,
            script_line(d.guards.front().user_frame->file, d.guards.front().user_frame->line));
  }
  {
    const capture::TraceLog log = capture::read_trace_log(logs + "/strict_unsupported");
    const capture::AttemptDiagnosis d = capture::diagnose(log);
    const std::vector<TorchOutcome> torch = torch_outcomes(logs + "/strict_unsupported.stdout.txt");
    VERIFY(!torch.empty());
    COMPARE(d.error_type, torch.front().type);
    COMPARE(d.message, torch.front().message);
    COMPARE(d.failure_class, std::string("unsupported"));
    VERIFY(d.user_frame);
  }
  {
    // The partial graph a non-strict data-dependent failure logs opens as a program.
    const auto r = run_exportlens({"info", logs + "/dd_item"});
    COMPARE(r.code, 0);
    VERIFY(contains(r.out, "make_fx_fail_partial"));
    const auto p = run_exportlens({"print", logs + "/dd_item"});
    COMPARE(p.code, 0);
    VERIFY(contains(p.out, "torch.ops.aten.item.default"));
  }
}

// Older torch releases' captures (made by tests/oracle/old_torch/make_old_capture_fixtures.sh).
EL_TEST(olderReleases) {
  const std::string root = EXPORTLENS_SOURCE_DIR "/tests/fixtures/old_torch_capture";
  const std::vector<std::string> releases = subfolders(root);
  VERIFY(releases.size() >= 2);
  for (const std::string& release : releases) {
    for (const std::string& name : subfolders(root + "/" + release)) {
      const capture::Capture c = capture::read_capture(root + "/" + release + "/" + name);
      VERIFY(!c.attempts.empty());
      VERIFY_MSG(c.torch_version.starts_with(release), release + "/" + name);
      for (const capture::Attempt& a : c.attempts) {
        const capture::AttemptDiagnosis d = capture::diagnose(c, a);
        if (a.ok) continue;
        if (a.error->failure_class == "constraint_violation") {
          std::set<std::string> dims;
          for (const auto& v : d.violations) dims.insert(v.dim);
          COMPARE(dims, violated_dims(a.error->message));
          COMPARE(d.suggested_fixes, a.error->suggested_fixes);
        }
        VERIFY_MSG(d.user_frame, release + "/" + name);
      }
    }
  }
}

// The command: exit codes, --report in check --report's form, --json for tools.
EL_TEST(captureCommand) {
  const std::string scripts = EXPORTLENS_SOURCE_DIR "/tests/capture/scripts";
  const std::string out = tmp().file("cli_relation");
  const auto r =
      capture_cli({"-o", out, "--python", EXPORTLENS_PYTHON, "--draft", "--report", "--", scripts + "/cv_relation.py"});
  COMPARE(r.code, 1);
  VERIFY(contains(r.out, "1. constraint_violation: dy = L['y'].size()[0]"));
  VERIFY(contains(r.out, "Suggested fixes:\n  dy = dx"));
  VERIFY(contains(r.out, "The spec with the suggested fixes applied:"));
  VERIFY(contains(r.out, "=== export 1: UserError"));  // the script's own output, unchanged

  const auto j = capture_cli(
      {"-o", tmp().file("cli_ok"), "--python", EXPORTLENS_PYTHON, "--json", "--", scripts + "/ok_simple.py"});
  COMPARE(j.code, 0);
  const json doc = parse_object(j.out);
  const json attempts = as_array(field(doc, "attempts"));
  COMPARE(attempts.size(), 1);
  VERIFY(as_bool(field(attempts.empty() ? json() : attempts.front(), "ok")));
  VERIFY(contains(j.err, "=== export 1: ok"));  // --json: the script's stdout went to stderr

  const auto bad = capture_cli({"--python", "/no/such/python", "--", scripts + "/ok_simple.py"});
  COMPARE(bad.code, 2);
  VERIFY(contains(bad.err, "/no/such/python"));
  COMPARE(capture_cli({}).code, 2);
  // info and --program on the capture made above.
  const auto info = run_exportlens({"info", out});
  COMPARE(info.code, 0);
  VERIFY(contains(info.out, "✗ 1  export  Relation"));
  const auto check =
      run_exportlens({"check", out, "--program", "1", "--spec", read("cv_relation").attempts.front().spec_text});
  COMPARE(check.code, 1);  // ExportLens re-solves the user's spec on the draft program: torch's violation
  VERIFY(contains(check.out, "dy = dx"));
  COMPARE(run_exportlens({"print", out, "--program", "7"}).code, 2);
}

// Captures and logs are untrusted: a folder naming files outside itself, bad
// JSON, deep nesting, lying fields, logs of junk: one line each, never a crash.
EL_TEST(hostileCaptures) {
  auto write = [&](const std::string& path, const std::string& bytes) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(tmp().file(path)).parent_path(), ec);
    VERIFY_MSG(!ec, path + ": " + ec.message());
    write_text(tmp().file(path), bytes);
  };
  const std::string head = "{\"format\": \"exportlens-capture\", \"format_version\": 1, ";
  write("h_escape/manifest.json", head + "\"attempts\": [{\"index\": 1, \"dir\": \"../../etc\"}]}");
  write("h_absolute/manifest.json", head + "\"attempts\": [{\"index\": 1, \"dir\": \"/etc\"}]}");
  write("h_type/manifest.json", head + "\"attempts\": [{\"index\": \"one\", \"dir\": \"a\"}]}");
  write("h_deep/manifest.json", head + "\"attempts\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
  write("h_version/manifest.json", "{\"format\": \"exportlens-capture\", \"format_version\": 99}");
  write("h_truncated/manifest.json", head + "\"attempts\": [{\"ind");
  write("h_attempt/manifest.json", head + "\"attempts\": [{\"index\": 1, \"dir\": \"attempt_001\"}]}");
  write("h_attempt/attempt_001/attempt.json", "{\"index\": 1, \"program\": \"../../../../etc/passwd\"}");
  write("h_link/manifest.json", head + "\"attempts\": [{\"index\": 1, \"dir\": \"attempt_001\"}]}");
  {
    std::error_code ec;
    std::filesystem::create_symlink("/etc", tmp().file("h_link/attempt_001"), ec);
    VERIFY_MSG(!ec, ec.message());
  }
  for (const std::string name :
       {"h_escape", "h_absolute", "h_type", "h_deep", "h_version", "h_truncated", "h_attempt", "h_link"}) {
    const auto r = run_exportlens({"info", tmp().file(name)});
    VERIFY_MSG(r.code == 1, name + ": " + std::to_string(r.code) + " " + r.err);
    COMPARE(lines_in(r.err), size_t(1));
    VERIFY_MSG(contains(r.err, "manifest.json") || contains(r.err, "attempt.json"), r.err);
    for (const char* library : {"json.exception", "std::", "c10::"}) VERIFY(!contains(r.err, library));
  }
  // Logs: junk lines are skipped, deep JSON is refused line by line, undefined file ids are kept.
  write("h_log/dedicated_log_torch_trace_x.log",
        "V1203 10:00:00.000000 1 torch/x.py:1] {\"str\": [\"/t/torch/export/_trace.py\", 0]}\n"
        "\tpayload with no event\n"
        "V1203 10:00:00.000000 1 torch/x.py:1] {\"guard_added_fast\": {\"expr\": \"Eq(s0, 3)\", \"stack\": "
        "[{\"line\": 4, \"name\": \"f\", \"filename\": 7, \"loc\": \"y = x\"}]}}\n"
        "V1203 10:00:00.000000 1 torch/x.py:1] {\"create_symbol\": " +
            std::string(50000, '[') +
            "\n"
            "not a log line at all \xff\xfe\n"
            "V1203 10:00:00.000000 1 torch/x.py:1] {\"mystery_event\": {}}\n");
  const capture::TraceLog log = capture::read_trace_log(tmp().file("h_log"));
  COMPARE(log.events.size(), size_t(2));
  COMPARE(log.skipped_lines, 3);
  const capture::AttemptDiagnosis d = capture::diagnose(log);
  COMPARE(d.guards.size(), size_t(1));
  // An id the log never defined is kept; such a frame cannot be told the user's.
  COMPARE(d.guards.front().stack.front().file, std::string("<file #7>"));
  VERIFY(!d.guards.front().user_frame);
  COMPARE(d.other_events.at("mystery_event"), 1);
  const auto r = run_exportlens({"info", tmp().file("h_log")});
  COMPARE(r.code, 0);
  VERIFY(contains(r.out, "other event mystery_event: 1"));
}
