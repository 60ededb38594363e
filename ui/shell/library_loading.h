#pragma once
// Opening a C++ model library runs its code (static constructors, model
// registration) in this process. The GUI therefore says whose code is about
// to run and asks first, and loads the library on a worker thread, so a slow
// or hanging constructor does not freeze the window.
#include <QString>
#include <QWidget>

#include <string>
#include <vector>

#include "engine/trace/trace_facade.h"

namespace exportlens::ui {

/// Asks the user whether to load `path`, showing its full path and size.
bool confirm_library_load(QWidget* parent, const QString& path);

struct LibraryContents {
  std::vector<trace::ModelSummary> models;
  std::vector<std::string> tables;  // decomposition tables it registered
  QString error;                    // non-empty: it could not be loaded
};

/// Loads the library on a worker thread; the calling (GUI) thread keeps
/// handling events until it is done.
LibraryContents load_library_off_thread(const QString& path);

}  // namespace exportlens::ui
