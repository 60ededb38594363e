#include "ui/gui_main.h"

#include <QApplication>
#include <QIcon>

#include "ui/main_window.h"

namespace exportlens::ui {

int run_gui(int argc, char** argv, const std::optional<std::string>& file) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("ExportLens"));
  QApplication::setApplicationName(QStringLiteral("ExportLens"));
  QApplication::setApplicationDisplayName(QStringLiteral("ExportLens"));
  MainWindow window;
  window.show();
  if (file) {
    window.openFile(QString::fromStdString(*file));
  } else {
    window.openBuiltinExample();
  }
  return QApplication::exec();
}

}  // namespace exportlens::ui
