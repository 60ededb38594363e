#pragma once
// The oracle fixtures for QtTest suites (the GUI's, the CLI's): unit/fixtures.h
// in Qt's types. A fixture that cannot be read stops the suite (qFatal).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTest>

#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/unit.h"

namespace exportlens::testing {

/// `fn()`, stopping the suite on the helper's failure (QtTest has no place for it).
template <class Fn>
auto or_stop(Fn&& fn) {
  try {
    return fn();
  } catch (const unit::Failure& f) {
    qFatal("%s", f.message.c_str());
  }
}

inline QStringList to_qt(const std::vector<std::string>& v) {
  QStringList out;
  for (const auto& s : v) out << QString::fromStdString(s);
  return out;
}

inline QString fixtures_dir() { return QString::fromStdString(unit::fixtures_dir()); }

inline QString fixture_file(const QString& name, const QString& file) {
  return QString::fromStdString(unit::fixture_file(name.toStdString(), file.toStdString()));
}

inline QString read_text(const QString& path) {
  return QString::fromStdString(or_stop([&] { return unit::read_text(path.toStdString()); }));
}

inline QJsonObject read_json(const QString& path) {
  return QJsonDocument::fromJson(or_stop([&] { return unit::read_text(path.toStdString()); }).c_str()).object();
}

inline QJsonObject fixture_meta(const QString& name) { return read_json(fixture_file(name, "meta.json")); }

/// Fixture names with the given status ("ok" or "error"), in manifest order.
inline QStringList fixtures_with_status(const QString& status) {
  return to_qt(or_stop([&] { return unit::fixtures_with_status(status.toStdString()); }));
}

}  // namespace exportlens::testing
