#pragma once
// The example program opened when the app starts without a file: a path the
// app sets, or the Qt resource :/examples/dynamic_model.pt2.
#include <QString>

#include <string>

namespace exportlens::ui {

inline constexpr char kBuiltinExampleResource[] = ":/examples/dynamic_model.pt2";

/// Set by the app before run_gui() when it ships the example as a file.
void set_builtin_example_path(const std::string& path);
/// A real file holding the example (the resource is copied to a temporary
/// file, since the reader needs a path), or empty when there is none.
QString builtin_example_file();

}  // namespace exportlens::ui
