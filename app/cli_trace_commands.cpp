// example, trace: trace C++ models into programs (the built-in examples,
// or a model library built against the ExportLens SDK).
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/cli_command.h"
#include "engine/ir/printer.h"
#include "engine/trace/gallery/gallery_models.h"
#include "engine/trace/trace_facade.h"

namespace exportlens::app {

namespace {

const char* kExampleUsage =
    "usage: exportlens example --list\n"
    "       exportlens example NAME [--spec SPEC] [--json] [-v]\n\n"
    "Traces a built-in C++ port of an example of the torch.export tutorials or the\n"
    "book chapter with the ExportLens tracer\n"
    "(the C++ counterpart of torch.export.export) and prints the program as\n"
    "`exportlens print` does, or the failure torch.export reports for it.\n\n"
    "  --list        every example: name, family, where it comes from, expected outcome,\n"
    "                description\n"
    "  --spec SPEC   a dynamic_shapes spec in Python syntax (or @FILE) instead of the\n"
    "                example's own\n"
    "  --json        the report `exportlens check --json` gives (status, guards with\n"
    "                their source lines, range constraints, violations, fixes, ...)\n"
    "  -v            add the guard log\n"
    "  --out FILE.pt2  also write the traced program as torch.export.save would\n"
    "  --additional-inputs IN.pt  (repeatable) more example inputs instead of --spec: the\n"
    "                dims that differ become Dim.DYNAMIC (torch.export's AdditionalInputs)\n\n"
    "Exit status: 0 exported, 1 export failed (as torch.export would), 2 usage or\n"
    "unknown example.\n";

const char* kTraceUsage =
    "usage: exportlens trace LIB.so [--list] [--model NAME] [--spec SPEC] [--json] [-v] [--out FILE.pt2]\n\n"
    "Loads a shared library of C++ models written against the ExportLens SDK\n"
    "(engine/trace/sdk/exportlens_sdk.h, models registered with EXPORTLENS_MODEL)\n"
    "and traces one into a program, printed as `exportlens print` does.\n\n"
    "  --list        the library's models\n"
    "  --model NAME  which model (needed when the library has several)\n"
    "  --spec SPEC   a dynamic_shapes spec in Python syntax (or @FILE) instead of the\n"
    "                model's own\n"
    "  --json        the report `exportlens check --json` gives\n"
    "  -v            add the guard log\n"
    "  --out FILE.pt2  also write the traced program as torch.export.save would\n"
    "  --additional-inputs IN.pt  (repeatable) more example inputs instead of --spec: the\n"
    "                dims that differ become Dim.DYNAMIC (torch.export's AdditionalInputs)\n\n"
    "The library must be built against the LibTorch ExportLens uses (see README.md).\n"
    "Exit status: 0 exported, 1 export failed, 2 usage or unloadable library.\n";

std::string spec_argument(const ParsedArgs& a) {
  const auto v = a.option("--spec");
  if (!v || v->empty() || (*v)[0] != '@') return v.value_or("");
  std::ifstream in(v->substr(1), std::ios::binary);
  if (!in) throw UsageError("cannot read spec file '" + v->substr(1) + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

trace::TraceRequest request_of(const ParsedArgs& a) {
  trace::TraceRequest r;
  if (a.option("--spec")) r.dynamic_shapes = spec_argument(a);
  r.log = a.flag("-v") || a.flag("--json");
  return r;
}

/// The program on stdout (or the JSON report); a failure on stderr.
int report(const trace::TraceOutcome& out, const ParsedArgs& a, const std::string& what) {
  if (a.flag("--json")) {
    std::cout << ops::to_json(out.report);
  } else if (out.program) {
    std::cout << ir::print_program(*out.program) << "\n";
    if (a.flag("-v")) std::cout << ops::format_text(out.report, true);
  }
  if (out.program) {
    save_program_option(a, *out.program);
  } else if (!a.flag("--json")) {
    std::cerr << what << ": " << (out.error_type.empty() ? "" : out.error_type + ": ") << out.report.message << "\n";
  }
  return out.program ? 0 : 1;
}

void print_table(const std::vector<trace::ModelSummary>& models, bool gallery) {
  size_t width = 4;
  for (const auto& m : models) width = std::max(width, m.name.size());
  for (const auto& m : models) {
    std::cout << std::left << std::setw(int(width) + 2) << m.name;
    if (gallery) std::cout << std::setw(16) << m.family << std::setw(38) << m.document << std::setw(22) << m.expected;
    std::cout << m.description << "\n";
  }
}

// With --additional-inputs: a static trace gives the example's sizes, the
// sets give the spec, a second trace uses it, and every set must fit.
template <typename Trace>
trace::TraceOutcome trace_with_inputs(const ParsedArgs& a, Trace&& run) {
  trace::TraceRequest request = request_of(a);
  if (!a.option("--additional-inputs")) return run(request);
  if (a.option("--spec")) throw UsageError("--additional-inputs infers the spec: give no --spec");
  const auto files = additional_inputs_option(a);
  trace::TraceRequest plain = request;
  plain.dynamic_shapes = "";
  trace::TraceOutcome first = run(plain);
  if (!first.program) return first;
  request.dynamic_shapes = spec_from_additional_inputs(*first.program, files);
  trace::TraceOutcome out = run(request);
  if (out.program) {
    check_additional_inputs(*out.program, files, out.report);
    if (out.report.status != ops::SolveStatus::Ok) out.program.reset();
  }
  return out;
}

int cmd_example(const ParsedArgs& a) {
  if (a.flag("--list")) {
    if (!a.positionals.empty()) throw UsageError("--list takes no example name");
    print_table(trace::gallery_models(), true);
    return 0;
  }
  if (a.positionals.size() != 1) throw UsageError("example takes one NAME (or --list)");
  const std::string& name = a.positionals[0];
  trace::TraceOutcome out;
  try {
    out = trace_with_inputs(a, [&](const trace::TraceRequest& r) { return trace::trace_gallery_model(name, r); });
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return report(out, a, "exportlens example " + name);
}

int cmd_trace(const ParsedArgs& a) {
  if (a.positionals.size() != 1) throw UsageError("trace takes one LIB.so");
  const std::string& lib = a.positionals[0];
  trace::TraceOutcome out;
  try {
    if (a.flag("--list")) {
      print_table(trace::library_models(lib), false);
      return 0;
    }
    out = trace_with_inputs(a, [&](const trace::TraceRequest& r) {
      return trace::trace_library_model(lib, a.option("--model").value_or(""), r);
    });
  } catch (const std::runtime_error& e) {  // the library could not be loaded or has no such model
    std::cerr << "exportlens trace: error: " << e.what() << "\n";
    return 2;
  }
  return report(out, a, "exportlens trace " + lib);
}

}  // namespace

std::vector<Command> trace_commands() {
  return {
      {"example", "trace a built-in example of the torch.export tutorials (--list shows them)", kExampleUsage,
       {"--spec", "--out", "--additional-inputs"},
       {"--list", "--json", "-v"}, cmd_example},
      {"trace", "trace a C++ model library built against the ExportLens SDK", kTraceUsage,
       {"--spec", "--model", "--out", "--additional-inputs"},
       {"--list", "--json", "-v"}, cmd_trace},
  };
}

}  // namespace exportlens::app
