#include "ui/shell/gui_main.h"

#include <QApplication>
#include <QIcon>

#include "ui/shell/library_loading.h"
#include "ui/shell/main_window.h"
#include "ui/shell/trace_controller.h"

namespace exportlens::ui {

int run_gui(int argc, char** argv, const std::optional<std::string>& file, GuiStart start,
            const GuiOpenOptions& options) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("ExportLens"));
  QApplication::setApplicationName(QStringLiteral("ExportLens"));
  QApplication::setApplicationDisplayName(QStringLiteral("ExportLens"));
  MainWindow window;
  window.setLibraryApproval([&window](const QString& path) { return confirm_library_load(&window, path); });
  window.show();
  if (file && (!options.program.empty() || !options.program_file.empty())) {
    window.openArchive(QString::fromStdString(*file), QString::fromStdString(options.program),
                       QString::fromStdString(options.program_file));
  } else if (file) {
    window.openFile(QString::fromStdString(*file));
  } else if (start == GuiStart::BuiltinExample) {
    window.openBuiltinExample();  // the Examples page stays one tab away
  } else {
    window.traceController()->showExamplesPage();  // the start page: examples to trace, Open, the built-in .pt2
  }
  return QApplication::exec();
}

}  // namespace exportlens::ui
