#pragma once
// A folder of oracle-exported programs (build/fixtures_browse,
// build/fixtures_structure, ...): one subfolder per program, and a
// manifest.json listing them. What browse_fixtures.h and
// structure/structure_fixtures.h read their programs with.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace exportlens::testing {

/// `file` of program `name` in `folder`.
inline QString fixture_file(const char* folder, const QString& name, const QString& file) {
  return QString::fromUtf8(folder) + "/" + name + "/" + file;
}

/// The programs `folder`'s manifest lists, in order; a missing or empty
/// manifest stops the suite, naming the `target` that builds it.
inline QStringList fixture_manifest(const char* folder, const char* target) {
  QFile f(QString::fromUtf8(folder) + "/manifest.json");
  if (!f.open(QIODevice::ReadOnly)) qFatal("no fixtures at %s (build the %s target)", folder, target);
  QStringList out;
  for (const auto& v : QJsonDocument::fromJson(f.readAll()).array()) out << v.toString();
  if (out.isEmpty()) qFatal("the manifest of %s lists no programs", folder);
  return out;
}

/// A JSON object file of program `name`; an unreadable one stops the suite.
inline QJsonObject fixture_json(const char* folder, const QString& name, const QString& file) {
  QFile f(fixture_file(folder, name, file));
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(f.fileName()));
  return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace exportlens::testing
