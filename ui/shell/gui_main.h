#pragma once
// The GUI's entry point, called by the app's main() when no subcommand is given.
#include <optional>
#include <string>

namespace exportlens::ui {

/// What the window shows first when no file is given.
enum class GuiStart { ExamplesPage, BuiltinExample };

/// How `file` opens: which program of an archive holding several ("" = its
/// default), and the program file an AOTInductor package without its program
/// was compiled from (linked once the package is open).
struct GuiOpenOptions {
  std::string program;
  std::string program_file;
};

/// Runs the main window until it closes; opens `file`, or without one shows
/// `start`. Returns the application's exit code.
int run_gui(int argc, char** argv, const std::optional<std::string>& file, GuiStart start = GuiStart::ExamplesPage,
            const GuiOpenOptions& options = {});

/// Where the built-in example .pt2 lives, if the app ships it as a file
/// (otherwise the Qt resource :/examples/dynamic_model.pt2 is used).
void set_builtin_example_path(const std::string& path);

}  // namespace exportlens::ui
