#pragma once
// The GUI's entry point, called by the app's main() when no subcommand is given.
#include <optional>
#include <string>

namespace exportlens::ui {

/// Runs the main window until it closes; opens `file`, or the built-in
/// example without one. Returns the application's exit code.
int run_gui(int argc, char** argv, const std::optional<std::string>& file);

/// Where the built-in example .pt2 lives, if the app ships it as a file
/// (otherwise the Qt resource :/examples/dynamic_model.pt2 is used).
void set_builtin_example_path(const std::string& path);

}  // namespace exportlens::ui
