// open: the GUI on a program source — a .pt2, a model library, example:NAME,
// a capture folder or a torch trace log — as `exportlens PATH` does, spelled
// as a command for scripts and docs.
#include "app/cli_command.h"
#include "ui/shell/gui_main.h"

namespace exportlens::app {
namespace {

int cmd_open(const ParsedArgs& a) {
  if (a.positionals.size() != 1) throw UsageError("open takes exactly one PATH");
  if (sources::match_source(a.positionals[0]) == sources::SourceKind::Unknown)
    throw UsageError("'" + a.positionals[0] + "' is not a program source: " + file_kinds());
  static int argc = 1;
  static char name[] = "exportlens";
  static char* argv[] = {name, nullptr};
  ui::GuiOpenOptions options;
  options.program = a.option("--program").value_or("");
  options.program_file = a.option("--program-file").value_or("");
  return ui::run_gui(argc, argv, a.positionals[0], ui::GuiStart::ExamplesPage, options);
}

}  // namespace

std::vector<Command> open_commands() {
  return {{"open", "open the GUI on a .pt2, a model library, example:NAME, a capture folder or a trace log",
           "usage: exportlens open PATH [--program NAME] [--program-file FILE.pt2]\n\n"
           "Opens the window on PATH, as `exportlens PATH` does: " + file_kinds() + ".\n"
           "A capture folder or trace log is read, never run.\n\n"
           "--program NAME opens that program of an archive holding several (the\n"
           "toolbar's Program switch changes it); --program-file FILE.pt2 links an\n"
           "AOTInductor package without its program to the one it was compiled from,\n"
           "as File › Link Program File… does. Opening never loads a package's code.\n",
           {"--program", "--program-file"}, {}, cmd_open}};
}

}  // namespace exportlens::app
