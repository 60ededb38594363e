// check: solve a dynamic_shapes spec against a program and report guards,
// range constraints, violations and suggested fixes.
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/cli_command.h"
#include "engine/ops/problem_report.h"
#include "engine/ops/program_solver.h"
#include "engine/ops/spec_json.h"
#include "engine/symbolic/dynamic_shapes_spec.h"

namespace exportlens::app {

namespace {

const char* kUsage =
    "usage: exportlens check FILE.pt2 [--spec SPEC | --spec-json SPEC | --additional-inputs IN.pt ...]\n"
    "                         [--report] [--json] [-v]\n\n"
    "Solves a torch.export dynamic_shapes spec against the program, the way\n"
    "torch.export would trace it with that spec, and prints the outcome: the\n"
    "range constraints and symbolic input shapes, or the violated parts of the\n"
    "spec with the guards behind them and torch's suggested fixes.\n\n"
    "  --spec SPEC   the spec in Python syntax, or @FILE to read it from a file, e.g.\n"
    "                --spec 'dx = Dim(\"dx\", min=4)\n"
    "                        dynamic_shapes = {\"x\": (dx, None)}'\n"
    "                Without --spec: every dim the file keeps symbolic is Dim.AUTO.\n"
    "  --spec-json SPEC  the spec in its JSON form (text or @FILE; see --json's spec_json)\n"
    "  --json        machine-readable result (status, range_constraints, input_shapes,\n"
    "                guards, violations, suggested_fixes, ...)\n"
    "  --report      every problem in one pass, as torch's draft_export reports them:\n"
    "                each violated spec item, each specialization, each guard on a\n"
    "                data-dependent value, each op without a shape rule, with its\n"
    "                origin (node, op, rule, source line); with --json, `problems`\n"
    "  -v            add the guard log (TORCH_LOGS=+dynamic style)\n"
    "%ADDITIONAL%\n"
    "  --limit KEY=VALUE,...  read limits, as for `exportlens print --help`\n\n"
    "Exit status: 0 ok, 1 violation, 2 error (bad spec, unreadable file, usage).\n";

std::string read_spec_argument(const std::string& value) {
  if (value.empty() || value[0] != '@') return value;
  std::ifstream in(value.substr(1), std::ios::binary);
  if (!in) throw UsageError("cannot read spec file '" + value.substr(1) + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int exit_code(ops::SolveStatus s) {
  switch (s) {
    case ops::SolveStatus::Ok: return 0;
    case ops::SolveStatus::Violation: return 1;
    case ops::SolveStatus::Error: return 2;
  }
  return 2;
}

int cmd_check(const ParsedArgs& a) {
  const bool json = a.flag("--json");
  const bool verbose = a.flag("-v") || a.flag("--verbose");
  const bool report = a.flag("--report");
  const auto spec_arg = a.option("--spec");
  const auto json_arg = a.option("--spec-json");
  const bool additional = a.option("--additional-inputs").has_value();
  if (spec_arg && json_arg) throw UsageError("give either --spec or --spec-json, not both");
  if (additional && (spec_arg || json_arg)) throw UsageError("--additional-inputs infers the spec: give no --spec");
  const std::string spec_text = spec_arg ? read_spec_argument(*spec_arg) : "";
  const std::string spec_json = json_arg ? read_spec_argument(*json_arg) : "";
  ops::SolveResult result;
  try {
    const ir::ExportedProgram ep = load_program_argument(a, "check");
    const ops::PreparedProgram prepared(ep);
    ops::SolveOptions options;
    options.log = verbose || json;
    options.collect_all = report;
    if (additional) {
      const auto files = additional_inputs_option(a);
      result = ops::solve(prepared, spec_from_additional_inputs(ep, files), options);
      if (result.status == ops::SolveStatus::Ok) check_additional_inputs(runtime::with_solved_inputs(ep, result), files, result);
    } else if (spec_arg) {
      result = ops::solve(prepared, spec_text, options);
    } else if (json_arg) {
      result = ops::solve(prepared, ops::spec_from_json(spec_json), options);
    } else {
      result = ops::solve(prepared, prepared.recorded_spec(), options);
    }
  } catch (const UsageError&) {
    throw;
  } catch (const symbolic::SpecError& e) {
    result.status = ops::SolveStatus::Error;
    result.error_kind = "spec";
    result.message = e.what();
  } catch (const std::exception& e) {
    result.status = ops::SolveStatus::Error;
    result.error_kind = "program";
    result.message = e.what();
  }
  if (json) {
    std::cout << ops::to_json(result);
  } else if (report && result.error_kind != "spec" && result.error_kind != "program") {
    std::cout << ops::format_report(result);
  } else if (result.status == ops::SolveStatus::Error) {
    std::cerr << "exportlens check: error: " << result.message << "\n";
  } else {
    std::cout << ops::format_text(result, verbose);
  }
  return exit_code(result.status);
}

}  // namespace

std::vector<Command> check_commands() {
  std::string usage = kUsage;
  usage.replace(usage.find("%ADDITIONAL%"), 12, additional_inputs_help());
  return {{"check", "solve a dynamic_shapes spec: guards, range constraints, violations, fixes", usage,
           {"--spec", "--spec-json", "--limit", "--program", "--additional-inputs"}, {"--json", "--report", "-v", "--verbose"},
           cmd_check}};
}

}  // namespace exportlens::app
