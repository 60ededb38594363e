// The headless build (EXPORTLENS_GUI=OFF): no render command (it draws the
// graph as the GUI's Graph tab does, through Qt) and no window to open.
#include "app/cli_command.h"

namespace exportlens::app {

std::vector<Command> render_commands() { return {}; }

std::vector<Command> open_commands() {
  return {{"open", "(no GUI in this build) say what a program source holds instead",
           "usage: exportlens open PATH\n\nThis build has no GUI (EXPORTLENS_GUI=OFF): `exportlens info PATH`\n"
           "says what PATH holds, `exportlens print PATH` prints its program.\n",
           {}, {}, [](const ParsedArgs&) -> int {
             throw UsageError("this build has no GUI (EXPORTLENS_GUI=OFF): use `exportlens info PATH`");
           }}};
}

}  // namespace exportlens::app
