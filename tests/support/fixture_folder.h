#pragma once
// A folder of oracle-exported programs (build/fixtures_browse, ...) for QtTest
// suites: unit/fixtures.h's folder functions in Qt's types.
#include "support/fixtures.h"

namespace exportlens::testing {

/// `file` of program `name` in `folder`.
inline QString fixture_file(const char* folder, const QString& name, const QString& file) {
  return QString::fromStdString(unit::fixture_file(folder, name.toStdString(), file.toStdString()));
}

/// The programs `folder`'s manifest lists, in order; a missing or empty
/// manifest stops the suite, naming the `target` that builds it.
inline QStringList fixture_manifest(const char* folder, const char* target) {
  return to_qt(or_stop([&] { return unit::fixture_manifest(folder, target); }));
}

/// A JSON object file of program `name`; an unreadable one stops the suite.
inline QJsonObject fixture_json(const char* folder, const QString& name, const QString& file) {
  return read_json(fixture_file(folder, name, file));
}

}  // namespace exportlens::testing
