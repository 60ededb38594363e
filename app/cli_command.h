#pragma once
// One CLI command: its name, help and handler. Families of commands live in
// their own files (cli_program_commands.cpp, ...) and are listed in cli.cpp.
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "app/cli_args.h"
#include "engine/ir/exported_program.h"

namespace exportlens::app {

struct Command {
  std::string name;
  std::string summary;  // one line for `exportlens --help`
  std::string usage;    // the whole `exportlens NAME --help` text
  std::set<std::string> valued;  // options taking a value
  std::set<std::string> flags;   // options without one
  std::function<int(const ParsedArgs&)> run;  // returns the exit code; throws on error
};

/// Reads the single FILE.pt2 positional argument of `command`.
ir::ExportedProgram load_program_argument(const ParsedArgs& a, const std::string& command);

/// print, info, run, dot.
std::vector<Command> program_commands();

/// check (dynamic_shapes solving).
std::vector<Command> check_commands();

}  // namespace exportlens::app
