// The headless build (EXPORTLENS_GUI=OFF): no render command (it draws the
// graph as the GUI's Graph tab does, through Qt).
#include "app/cli_command.h"

namespace exportlens::app {

std::vector<Command> render_commands() { return {}; }

}  // namespace exportlens::app
