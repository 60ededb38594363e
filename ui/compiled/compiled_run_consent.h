#pragma once
// Running a compiled model loads the package's shared library and runs its
// code in ExportLens, with the user's permissions: as for a model library
// (ui/shell/library_loading.h), the window says whose code is about to run
// and asks first; "No" is the default and loads nothing.
#include <QString>

class QWidget;

namespace exportlens::ui {

/// Asks whether to load and run `model` of `package` (its path, size and library named).
bool confirm_compiled_run(QWidget* parent, const QString& package, const QString& model, const QString& library);

}  // namespace exportlens::ui
