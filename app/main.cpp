// exportlens: the GUI when called with no command (optionally a FILE.pt2 or
// a model library .so; --example opens the built-in example program), the
// headless CLI when the first argument is a command.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <cstdio>

#include "app/cli.h"
#include "engine/runtime/op_signatures.h"
#include "engine/sources/program_source.h"
#ifdef EXPORTLENS_WITH_GUI
#include "ui/shell/gui_main.h"
#endif

namespace {

/// Ends the process once its work is done and written: streams flushed, then
/// out without running static destructors. LibTorch's profiler (Kineto, which
/// times kernels) leaves a config-polling thread running that races
/// LibTorch's exit-time destructors: under load a run that had finished its
/// work aborted at exit on a corrupted heap (4 of 40 runs of `run
/// --compiled`), losing its buffered output. Nothing of ExportLens' needs a
/// destructor at exit: files are closed where they are written.
[[noreturn]] void end_process(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) { end_process(run(argc, argv)); }

namespace {

int run(int argc, char** argv) {
  // LibTorch's profiler (kineto, which times a compiled model's kernels) logs
  // each start and stop on stderr; a user's own KINETO_LOG_LEVEL still wins.
  // Set before any thread exists.
  setenv("KINETO_LOG_LEVEL", "6", 0);
  // The purity rule's schema facts (which ops write an argument or draw from
  // the RNG) come from LibTorch's dispatcher, for every pass (ir/purity.h).
  exportlens::runtime::use_dispatcher_schema_effects();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && exportlens::app::is_cli_invocation(args[0])) return exportlens::app::run_cli(args);
#ifndef EXPORTLENS_WITH_GUI
  // The headless build (EXPORTLENS_GUI=OFF): commands only.
  if (!args.empty())
    std::cerr << "exportlens: error: unknown command '" << args[0] << "' (this build has no GUI; its commands:)\n\n";
  else
    std::cerr << "exportlens: this build has no GUI (EXPORTLENS_GUI=OFF); give a command\n\n";
  std::cerr << exportlens::app::main_help();
  return 2;
#else
  if (args.size() == 1 && args[0] == "--example")
    return exportlens::ui::run_gui(argc, argv, std::nullopt, exportlens::ui::GuiStart::BuiltinExample);
  std::optional<std::string> file;
  if (!args.empty()) {
    // Anything that is neither a command nor a program source (a .pt2, a model library) is a typo, not a file to open.
    std::error_code ec;
    if (!std::filesystem::exists(args[0], ec) &&
        exportlens::sources::match_source(args[0]) == exportlens::sources::SourceKind::Unknown) {
      std::cerr << "exportlens: error: unknown command or file '" << args[0] << "'\n\n"
                << exportlens::app::main_help();
      return 2;
    }
    file = args[0];
  }
  return exportlens::ui::run_gui(argc, argv, file);
#endif
}

}  // namespace
