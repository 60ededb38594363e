#pragma once
// The exportlens executable and the oracle's Python for QtTest suites:
// unit/process.h in Qt's types (run headless, with no display and no Qt
// platform: the CLI must not need one).
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include "support/fixtures.h"
#include "support/unit/process.h"

namespace exportlens::testing {

struct ProcessResult {
  int code = -1;  // -1: crashed
  QString out, err;
};

inline std::vector<std::string> to_std(const QStringList& list) {
  std::vector<std::string> out;
  for (const auto& s : list) out.push_back(s.toStdString());
  return out;
}

inline ProcessResult to_qt(const unit::ProcessResult& r) {
  return {r.code, QString::fromStdString(r.out), QString::fromStdString(r.err)};
}

/// This process's environment without a display or a Qt platform (for a QProcess of one's own).
inline QProcessEnvironment headless_environment() {
  auto env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  env.remove("QT_QPA_PLATFORM");
  return env;
}

#ifdef EXPORTLENS_BINARY
inline ProcessResult run_exportlens(const QStringList& args) {
  return to_qt(or_stop([&] { return unit::run_exportlens(to_std(args)); }));
}
#endif

/// `python -c code args...` with the venv's Python (torch).
inline ProcessResult run_python(const QString& code, const QStringList& args) {
  return to_qt(or_stop([&] { return unit::run_python(code.toStdString(), to_std(args)); }));
}

}  // namespace exportlens::testing
