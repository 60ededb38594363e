// capture: run a Python script under the capture package and explain every
// torch.export call it made (engine/capture).
#include <filesystem>
#include <iostream>
#include <sstream>

#include "app/cli_command.h"
#include "engine/capture/attempt_diagnosis.h"
#include "engine/capture/attempt_program.h"
#include "engine/capture/capture_folder.h"
#include "engine/capture/capture_report.h"
#include "engine/capture/capture_runner.h"
#include "engine/capture/trace_log.h"

namespace exportlens::app {
namespace {

namespace fs = std::filesystem;

std::vector<capture::AttemptDiagnosis> diagnose_all(const capture::Capture& c, const serde::ReadLimits& limits) {
  std::vector<capture::AttemptDiagnosis> out;
  for (const capture::Attempt& a : c.attempts) out.push_back(capture::diagnose(c, a, limits));
  return out;
}

int cmd_capture(const ParsedArgs& a) {
  std::vector<std::string> script = a.passthrough;
  if (script.empty()) script = a.positionals;
  else if (!a.positionals.empty())
    throw UsageError("put the script after --, with its own arguments: exportlens capture [OPTIONS] -- SCRIPT.py [ARGS...]");
  if (script.empty()) throw UsageError("capture needs the script to run: exportlens capture [OPTIONS] -- SCRIPT.py [ARGS...]");
  capture::CaptureRequest request;
  request.script = script.front();
  request.script_args.assign(script.begin() + 1, script.end());
  request.output_dir = a.option("-o").value_or(a.option("--out").value_or("exportlens_capture"));
  request.python = a.option("--python").value_or("");
  request.draft = a.flag("--draft");
  request.trace = a.option("--trace").value_or("");
  request.package_dir = capture::find_capture_package(executable_path());
  const bool json = a.flag("--json"), report = a.flag("--report");
  const capture::CaptureCommand command = [&] {
    try {
      return capture::capture_command(request);
    } catch (const Error& e) {
      throw UsageError(e.what());
    }
  }();
  // The script's own output goes where it would go without ExportLens; with
  // --json it goes to stderr, so stdout holds the JSON alone.
  const int status = capture::run_capture(command, json);
  const serde::ReadLimits limits = limits_option(a);
  if (!capture::is_capture(request.output_dir))
    throw std::runtime_error(request.output_dir.string() + ": the script ended (exit " + std::to_string(status) +
                             ") without a capture; was torch importable in " + command.program + "?");
  const capture::Capture c = capture::read_capture(request.output_dir, limits);
  bool any_failed = false;
  for (const capture::Attempt& at : c.attempts) any_failed = any_failed || !at.ok;
  if (json) {
    std::cout << capture::capture_report_json(c, diagnose_all(c, limits));
  } else if (report) {
    std::cout << capture::format_capture_report(c, diagnose_all(c, limits));
  } else {
    std::cerr << "\ncaptured " << c.attempts.size() << (c.attempts.size() == 1 ? " export call" : " export calls")
              << " of " << request.script.string() << " into " << request.output_dir.string() << "/ (torch "
              << c.torch_version << ", the script exited " << status << ")\n"
              << capture::format_summary(c);
    if (!c.attempts.empty())
      std::cerr << "open it: exportlens " << request.output_dir.string() << "   (or: exportlens capture --report ...)\n";
  }
  return any_failed || status != 0 || c.attempts.empty() ? 1 : 0;
}

std::string log_summary(const capture::AttemptDiagnosis& d, const capture::TraceLog& log) {
  std::ostringstream out;
  out << "torch trace log: " << log.files.size() << (log.files.size() == 1 ? " file, " : " files, ") << log.events.size()
      << " events" << (d.torch_version.empty() ? "" : " (torch " + d.torch_version + ")") << "\n";
  out << "  symbols: " << d.symbols.size() << ", guards: " << d.guards.size()
      << ", specializations: " << d.specializations.size() << ", data-dependent errors: " << d.data_dependent.size()
      << ", fake-kernel problems: " << d.fake_kernels.size() << "\n";
  if (d.graph_text) out << "  graph: " << d.graph_text->kind << "\n";
  if (!d.message.empty()) out << "  failure: " << d.error_type << ": " << d.headline << "\n";
  else out << "  failure: none recorded (a non-strict export's log never holds its error; `exportlens capture` records it)\n";
  for (const auto& [name, count] : d.other_events) out << "  other event " << name << ": " << count << "\n";
  if (log.skipped_lines) out << "  " << log.skipped_lines << " lines were not events (first: " << log.notes.front() << ")\n";
  return out.str();
}

}  // namespace

int info_capture(const ParsedArgs& a, sources::SourceKind kind) {
  const std::string& path = a.positionals.at(0);
  const serde::ReadLimits limits = limits_option(a);
  if (kind == sources::SourceKind::TraceLog) {
    const capture::TraceLog log = capture::read_trace_log(path, limits);
    const capture::AttemptDiagnosis d = capture::diagnose(log, limits);
    std::cout << log_summary(d, log);
    if (!d.guards.empty()) {
      std::cout << "guards, in the order torch added them:\n";
      for (const capture::GuardLine& g : d.guards)
        std::cout << "  " << g.over_inputs << (g.user_frame ? "    # " + g.user_frame->location() : "") << "\n";
    }
    return 0;
  }
  const capture::Capture c = capture::read_capture(path, limits);
  if (const auto program = a.option("--program")) {
    const capture::Attempt& attempt = capture::select_attempt(c, *program);
    std::cout << capture::format_attempt_report(attempt, capture::diagnose(c, attempt, limits));
    return 0;
  }
  std::cout << "capture of " << c.script << " (torch " << c.torch_version << ", python " << c.python_version
            << ", capture " << c.capture_version << "): " << c.attempts.size()
            << (c.attempts.size() == 1 ? " export call" : " export calls");
  if (c.exit_code) std::cout << ", the script exited " << *c.exit_code;
  else std::cout << ", the script did not finish";
  std::cout << "\n" << capture::format_summary(c);
  std::cout << "(--program N: one attempt's report; print, check, run ... --program N: its program)\n";
  return 0;
}

std::vector<Command> capture_commands() {
  return {{"capture", "run a Python script and explain every torch.export call it makes, failed or not",
           "usage: exportlens capture [-o DIR] [--python PY] [--draft] [--trace dtrace|plain|none] [--report | --json]\n"
           "                          -- SCRIPT.py [ARGS...]\n\n"
           "Runs SCRIPT.py in your own Python (PY, by default the first python3 on PATH)\n"
           "under ExportLens' capture package. The script behaves exactly as without it;\n"
           "every call of torch.export.export and draft_export is recorded into DIR\n"
           "(default ./exportlens_capture): the call site, the model's class, the inputs,\n"
           "the dynamic_shapes as Python text, the call's own structured trace, the\n"
           "program on success, torch's exception, traceback and suggested fixes on\n"
           "failure. Open DIR with `exportlens DIR` (the GUI) or any command that takes a\n"
           "FILE.pt2 (`--program N` picks an attempt).\n\n"
           "  -o DIR, --out DIR  where the capture goes (an earlier capture there is replaced)\n"
           "  --python PY        the interpreter to run the script with\n"
           "  --draft            also run each failed export through torch.export.draft_export,\n"
           "                     for a draft program and its report\n"
           "  --trace LEVEL      each call's own trace: dtrace (default: the detail torch writes for\n"
           "                     draft export, guards with their sources; it costs 10-25x the\n"
           "                     export's time), plain (what TORCH_TRACE logs), none\n"
           "  --report           one block per attempt, in the form of `check --report`\n"
           "  --json             the same for tools (the script's stdout goes to stderr)\n"
           "  --limit KEY=VALUE  bounds for reading the capture back (see `print --help`)\n\n"
           "This runs your script: it is the one command that runs Python code. Opening a\n"
           "capture or a trace log never does.\n"
           "Exit 0 when every export succeeded and the script exited 0, 1 otherwise, 2 on a usage error.\n",
           {"-o", "--out", "--python", "--trace", "--limit"},
           {"--draft", "--report", "--json"},
           cmd_capture}};
}

}  // namespace exportlens::app
