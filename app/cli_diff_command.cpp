// diff: what changed between two programs (engine/diff), for people and
// for CI: exit 0 when they are the same, 1 when they differ, 2 on an error.
#include <iostream>

#include "app/cli_command.h"
#include "engine/diff/diff_report.h"
#include "engine/diff/program_diff.h"
#include "engine/runtime/op_signatures.h"
#include "engine/runtime/pt2_torch_options.h"

namespace exportlens::app {
namespace {

int cmd_diff(const ParsedArgs& a) {
  if (a.positionals.size() != 2)
    throw UsageError("diff takes two programs, A and B (got " + std::to_string(a.positionals.size()) + ")");
  ir_level_option(a);  // a usage error before reading anything
  const ir::ExportedProgram pa = lower_to_ir_option(a, load_program_source(a, a.positionals[0]));
  const ir::ExportedProgram pb = lower_to_ir_option(a, load_program_source(a, a.positionals[1]));
  diff::DiffOptions options;
  options.weight_values = a.flag("--weights");
  options.signatures = runtime::dispatcher_signatures();
  const matching::IndexedProgram ia(pa), ib(pb);
  const diff::ProgramDiff d = diff::diff_programs(ia, ib, options);
  const diff::ReportNames names{a.positionals[0], a.positionals[1]};
  std::cout << (a.flag("--json") ? diff::diff_to_json(ia, ib, d, names) : diff::format_diff(ia, ib, d, names));
  return d.same() ? 0 : 1;
}

}  // namespace

std::vector<Command> diff_commands() {
  Command diff{
      "diff", "what changed between two programs: nodes, signature, guards, weights",
      "usage: exportlens diff A.pt2 B.pt2 [--ir training|functional|core] [--table NAME] [--json] [--weights]\n\n"
      "Matches the nodes of the two programs (by module call, op and position,\n"
      "then by neighbourhood and source line; node names and symbol names do not\n"
      "matter) and prints what differs: a summary by module call (stacks of\n"
      "repeated layers in one line), the graph signature, the guards and range\n"
      "constraints with both programs solved under one spec, the weights' shapes\n"
      "and dtypes, then every changed, added and removed node. --ir lowers both\n"
      "first. --weights also compares the weights' values (max |a - b|). --json\n"
      "prints the same as JSON, with every node match and its confidence.\n\n"
      "Exit 0 when the programs are the same, 1 when they differ, 2 on an error.\n" +
          file_help(),
      {"--ir", "--table", "--limit", "--program", "--load"}, {"--json", "--weights"}, cmd_diff};
  diff.error_exit = 2;
  return {diff};
}

}  // namespace exportlens::app
