// The headless build without the C++ tracer (EXPORTLENS_TRACER=OFF): no
// trace / example commands.
#include "app/cli_command.h"

namespace exportlens::app {

std::vector<Command> trace_commands() { return {}; }

}  // namespace exportlens::app
