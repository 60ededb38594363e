#pragma once
// Runs the exportlens executable (EXPORTLENS_BINARY) headless, with no
// display and no Qt platform: the CLI must not need one; and the oracle's
// Python (EXPORTLENS_PYTHON), to ask torch about what the CLI wrote.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace exportlens::testing {

struct ProcessResult {
  int code = -1;  // -1: crashed
  QString out, err;
};

/// This process's environment without a display or a Qt platform.
inline QProcessEnvironment headless_environment() {
  auto env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  env.remove("QT_QPA_PLATFORM");
  return env;
}

inline ProcessResult run_exportlens(const QStringList& args) {
  QProcess p;
  p.setProcessEnvironment(headless_environment());
  p.start(EXPORTLENS_BINARY, args);
  if (!p.waitForFinished(120000)) qFatal("exportlens %s did not finish", qPrintable(args.join(' ')));
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

/// `python -c code args...` with the venv's Python (torch).
inline ProcessResult run_python(const QString& code, const QStringList& args) {
  QProcess p;
  p.start(EXPORTLENS_PYTHON, QStringList{"-c", code} + args);
  if (!p.waitForFinished(120000)) qFatal("python did not finish");
  return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace exportlens::testing
