#include "ui/shell/library_loading.h"

#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QMessageBox>
#include <QtConcurrent/QtConcurrentRun>

namespace exportlens::ui {

bool confirm_library_load(QWidget* parent, const QString& path) {
  const QFileInfo info(path);
  QMessageBox box(QMessageBox::Warning, QObject::tr("Load model library?"),
                  QObject::tr("Loading a model library runs its code in ExportLens, with your permissions."),
                  QMessageBox::Yes | QMessageBox::No, parent);
  box.setObjectName(QStringLiteral("libraryApprovalBox"));
  box.setInformativeText(QObject::tr("%1\n%2\n\nLoad it only if you trust where it came from.")
                             .arg(info.absoluteFilePath(), QLocale().formattedDataSize(info.size())));
  box.setDefaultButton(QMessageBox::No);
  return box.exec() == QMessageBox::Yes;
}

LibraryContents load_library_off_thread(const QString& path) {
  const std::string file = QFile::encodeName(path).toStdString();
  QFutureWatcher<LibraryContents> watcher;
  QEventLoop loop;
  QObject::connect(&watcher, &QFutureWatcher<LibraryContents>::finished, &loop, &QEventLoop::quit);
  watcher.setFuture(QtConcurrent::run([file] {
    LibraryContents out;
    try {
      out.models = trace::library_models(file);
      out.tables = trace::library_tables(file);
    } catch (const std::exception& e) {  // not a library, wrong LibTorch, no models, ...
      out.error = QString::fromUtf8(e.what());
    }
    return out;
  }));
  if (!watcher.isFinished()) loop.exec(QEventLoop::ExcludeUserInputEvents);
  return watcher.result();
}

}  // namespace exportlens::ui
