#pragma once
// Runs the exportlens executable (EXPORTLENS_BINARY) headless, with no
// display and no Qt platform: the CLI must not need one.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace exportlens::testing {

struct ProcessResult {
  int code = -1;  // -1: crashed
  QString out, err;
};

inline ProcessResult run_exportlens(const QStringList& args) {
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  env.remove("QT_QPA_PLATFORM");
  p.setProcessEnvironment(env);
  p.start(EXPORTLENS_BINARY, args);
  if (!p.waitForFinished(120000)) qFatal("exportlens %s did not finish", qPrintable(args.join(' ')));
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace exportlens::testing
