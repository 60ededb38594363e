#pragma once
// The headless command line: `exportlens COMMAND ...`.
#include <string>
#include <vector>

namespace exportlens::app {

/// True if `first_arg` names a CLI command (or a help/version flag).
bool is_cli_invocation(const std::string& first_arg);
/// Runs a command; returns the process exit code. Never throws.
int run_cli(const std::vector<std::string>& args);
/// The top-level help text.
std::string main_help();

}  // namespace exportlens::app
