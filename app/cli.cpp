#include "app/cli.h"

#include <functional>
#include <iostream>

#include "app/cli_args.h"
#include "app/cli_command.h"
#include "engine/base/error.h"
#include "engine/runtime/libtorch_info.h"

namespace exportlens::app {
namespace {

// Errors reach the user as one line: a library's multi-line detail (LibTorch
// appends "Exception raised from ..." and a C++ backtrace) is cut off.
std::string one_line(std::string what) {
  if (const auto trace = what.find("Exception raised from"); trace != std::string::npos) what.resize(trace);
  for (char& c : what)
    if (c == '\n' || c == '\r') c = ' ';
  while (!what.empty() && what.back() == ' ') what.pop_back();
  return what;
}

const std::vector<Command>& commands() {
  static const std::vector<Command> table = [] {
    std::vector<Command> all;
    for (auto family : {program_commands, run_commands, check_commands, trace_commands, decompose_commands,
                        render_commands, capture_commands, numerics_commands, diff_commands, compiled_commands,
                        open_commands})
      for (auto& c : family()) all.push_back(std::move(c));
    return all;
  }();
  return table;
}

const Command* find_command(const std::string& name) {
  for (const auto& c : commands())
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace

std::filesystem::path executable_path() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path("exportlens") : self;
}

std::string main_help() {
  std::string h =
      "ExportLens — a workbench for torch.export programs\n\n"
      "usage: exportlens [FILE.pt2 | LIB.so]   open the GUI (on FILE or a C++ model library, else the Examples page)\n"
      "       exportlens --example             open the GUI on the built-in example program\n"
      "       exportlens COMMAND [ARGS...]     run headless\n"
      "       exportlens COMMAND --help        help for one command\n\ncommands:\n";
  for (const auto& c : commands()) h += "  " + c.name + std::string(8 - std::min<size_t>(7, c.name.size()), ' ') + c.summary + "\n";
  return h;
}

bool is_cli_invocation(const std::string& first_arg) {
  return find_command(first_arg) || first_arg == "--help" || first_arg == "-h" || first_arg == "help" ||
         first_arg == "--version";
}

int run_cli(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    if (args.size() >= 2 && find_command(args[1])) {
      std::cout << find_command(args[1])->usage;
    } else {
      std::cout << main_help();
    }
    return 0;
  }
  if (args[0] == "--version") {
    std::cout << "exportlens " EXPORTLENS_VERSION "\n" << runtime::libtorch_description() << "\n";
    return 0;
  }
  const Command* cmd = find_command(args[0]);
  if (!cmd) {
    std::cerr << "exportlens: error: unknown command '" << args[0] << "'\n\n" << main_help();
    return 2;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  for (const auto& a : rest) {
    if (a == "--help" || a == "-h") {
      std::cout << cmd->usage;
      return 0;
    }
  }
  try {
    return cmd->run(parse_args(rest, cmd->valued, cmd->flags));
  } catch (const UsageError& e) {
    std::cerr << "exportlens " << cmd->name << ": error: " << e.what() << "\n\n" << cmd->usage;
    return 2;
  } catch (const Error& e) {
    // Our own errors say what and where; a request that cannot be met is a usage error,
    // and a command whose exit 1 means something else (diff: they differ) keeps its own code.
    std::cerr << "exportlens " << cmd->name << ": error: " << one_line(e.what()) << "\n";
    return e.kind() == ErrorKind::Usage ? 2 : cmd->error_exit;
  } catch (const std::bad_alloc&) {
    std::cerr << "exportlens " << cmd->name << ": error: out of memory (a size in the input is larger than this machine can hold)\n";
    return cmd->error_exit;
  } catch (const std::exception& e) {
    std::cerr << "exportlens " << cmd->name << ": error: " << one_line(e.what()) << "\n";
    return cmd->error_exit;
  }
}

}  // namespace exportlens::app
