#pragma once
// The browsing oracle's programs (oracle/browse_models.py): deep module
// hierarchies exported by real torch, with torch's record of their module
// calls (hierarchy.json). Suites that include this call
// exportlens_uses_browse_fixtures() in their CMakeLists.txt.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace exportlens::testing {

inline QString browse_fixture(const QString& name, const QString& file) {
  return QStringLiteral(EXPORTLENS_BROWSE_FIXTURES) + "/" + name + "/" + file;
}

/// The programs, in manifest order; a missing manifest stops the suite.
inline QStringList browse_fixture_names() {
  QFile f(QStringLiteral(EXPORTLENS_BROWSE_FIXTURES "/manifest.json"));
  if (!f.open(QIODevice::ReadOnly))
    qFatal("no browsing fixtures at %s (build the browse_fixtures target)", EXPORTLENS_BROWSE_FIXTURES);
  QStringList out;
  for (const auto& v : QJsonDocument::fromJson(f.readAll()).array()) out << v.toString();
  if (out.isEmpty()) qFatal("the browsing manifest lists no programs");
  return out;
}

/// torch's record of one program's module calls (hierarchy.json).
inline QJsonObject browse_hierarchy(const QString& name) {
  QFile f(browse_fixture(name, QStringLiteral("hierarchy.json")));
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(f.fileName()));
  return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace exportlens::testing
