#include "ui/compiled/compiled_run_consent.h"

#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QObject>

namespace exportlens::ui {

bool confirm_compiled_run(QWidget* parent, const QString& package, const QString& model, const QString& library) {
  const QFileInfo info(package);
  QMessageBox box(QMessageBox::Warning, QObject::tr("Run compiled model?"),
                  QObject::tr("Running the compiled model \"%1\" loads its shared library and runs its code in "
                              "ExportLens, with your permissions.")
                      .arg(model),
                  QMessageBox::Yes | QMessageBox::No, parent);
  box.setObjectName(QStringLiteral("compiledRunApprovalBox"));
  box.setInformativeText(QObject::tr("%1\n%2\nlibrary: %3\n\nRun it only if you trust where it came from.")
                             .arg(info.absoluteFilePath(), QLocale().formattedDataSize(info.size()),
                                  library.isEmpty() ? QObject::tr("(none listed)") : library));
  box.setDefaultButton(QMessageBox::No);
  return box.exec() == QMessageBox::Yes;
}

}  // namespace exportlens::ui
