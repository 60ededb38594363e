// decompose: a program lowered to the functional or the Core ATen IR, and
// the --ir / --table options `print` and `info` share.
#include <iostream>

#include "app/cli_command.h"
#include "engine/ir/printer.h"
#include "engine/passes/ir_levels.h"
#include "engine/serde/pt2_reader.h"
#ifdef EXPORTLENS_WITH_TRACER
#include "engine/trace/trace_facade.h"
#endif

namespace exportlens::app {

namespace {

passes::IrLevel level_option(const ParsedArgs& a, passes::IrLevel fallback) {
  const auto ir = a.option("--ir");
  if (!ir) return fallback;
  if (auto level = passes::parse_ir_level(*ir)) return *level;
  throw UsageError("--ir expects training, functional or core, got '" + *ir + "'");
}

passes::DecompositionTable table_option(const ParsedArgs& a) {
  const std::string name = a.option("--table").value_or("core");
  if (!passes::has_decomposition_table(name)) {
    std::string known;
    for (const auto& n : passes::decomposition_table_names()) known += (known.empty() ? "" : ", ") + n;
    throw UsageError("unknown decomposition table '" + name + "' (registered: " + known + ")");
  }
  return passes::decomposition_table(name);
}

/// --load LIB.so: a model library whose decomposition tables (EXPORTLENS_DECOMPOSITIONS) join the registry.
void load_table_library(const ParsedArgs& a) {
#ifdef EXPORTLENS_WITH_TRACER
  if (const auto lib = a.option("--load")) trace::library_tables(*lib);
#else
  if (a.option("--load")) throw std::runtime_error("--load: this build leaves out the C++ tracer (EXPORTLENS_TRACER=OFF)");
#endif
}

void print_warnings(const passes::LoweringReport& report) {
  for (const auto& w : report.warnings) std::cerr << "exportlens: warning: " << w << "\n";
}

int cmd_decompose(const ParsedArgs& a) {
  load_table_library(a);
  if (a.flag("--tables")) {
    for (const auto& name : passes::decomposition_table_names()) {
      const auto t = passes::decomposition_table(name);
      std::cout << name << "  (" << t.size() << " rules)  " << t.description() << "\n";
    }
    return 0;
  }
  if (!a.option("--ir")) throw UsageError("decompose needs --ir functional|core");
  if (level_option(a, passes::IrLevel::Core) == passes::IrLevel::Training)
    throw UsageError("decompose lowers to --ir functional or core; `print` shows the training IR");
  const auto lowered = load_program_at_ir(a, "decompose", a.option("--out") ? Weights::Load : Weights::Skip);
  std::cout << ir::print_program(lowered) << "\n";
  save_program_option(a, lowered);
  return 0;
}

}  // namespace

ir::ExportedProgram load_program_at_ir(const ParsedArgs& a, const std::string& command, Weights weights) {
  ir_level_option(a);  // a usage error before reading anything
  return lower_to_ir_option(a, load_program_argument(a, command, weights));
}

passes::IrLevel ir_level_option(const ParsedArgs& a) {
  const passes::IrLevel level = level_option(a, passes::IrLevel::Training);
  if (a.option("--table") && level != passes::IrLevel::Core)
    throw UsageError("--table applies to --ir core");
  return level;
}

ir::ExportedProgram lower_to_ir_option(const ParsedArgs& a, ir::ExportedProgram ep) {
  const passes::IrLevel level = ir_level_option(a);
  if (level == passes::IrLevel::Training) return ep;
  return lowered_as_asked(a, ep);
}

ir::ExportedProgram lowered_as_asked(const ParsedArgs& a, const ir::ExportedProgram& ep) {
  const passes::IrLevel level = level_option(a, passes::IrLevel::Training);
  if (level == passes::IrLevel::Training) throw UsageError("--ir functional or core: the program as exported is the training IR");
  if (a.option("--table") && level != passes::IrLevel::Core) throw UsageError("--table applies to --ir core");
  load_table_library(a);
  const passes::DecompositionTable table = table_option(a);
  passes::LoweringReport report;
  ir::ExportedProgram lowered = passes::lower_to(ep, level, &table, &report);
  print_warnings(report);
  return lowered;
}

std::string core_ir_report(const ir::ExportedProgram& ep) {
  const auto outside = passes::non_core_ops(ep);
  if (outside.empty()) return "every op is in the Core ATen operator set\n";
  std::string out = "ops outside the Core ATen operator set:\n";
  for (const auto& [op, count] : outside) out += "  " + op + "  x" + std::to_string(count) + "\n";
  return out;
}

std::vector<Command> decompose_commands() {
  return {
      {"decompose", "lower to the functional or Core ATen IR (ep.run_decompositions)",
       "usage: exportlens decompose FILE.pt2 --ir functional|core [--table NAME] [--load LIB.so] [--out FILE.pt2]\n"
       "       exportlens decompose --tables [--load LIB.so]\n\n"
       "Prints the program lowered the way torch's ep.run_decompositions() lowers\n"
       "it, in print(ep) form: --ir functional removes mutation (the empty table),\n"
       "--ir core decomposes to the Core ATen operator set with the default table,\n"
       "or with --table NAME (see --tables for the registered tables). Rules that\n"
       "cannot lower a node leave it as it is and say so on stderr.\n"
       "--load LIB.so loads a model library built against exportlens_sdk.h first:\n"
       "the tables it defines with EXPORTLENS_DECOMPOSITIONS can then be chosen.\n" + save_help() + file_help(),
       {"--ir", "--table", "--load", "--limit", "--program", "--out"}, {"--tables"}, cmd_decompose},
  };
}

}  // namespace exportlens::app
