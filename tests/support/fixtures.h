#pragma once
// Access to the oracle fixtures (real torch.export outputs) from QtTest suites.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTest>

namespace exportlens::testing {

inline QString fixtures_dir() {
  const QByteArray env = qgetenv("EXPORTLENS_FIXTURES");
  return env.isEmpty() ? QStringLiteral(EXPORTLENS_FIXTURES) : QString::fromLocal8Bit(env);
}

inline QString fixture_file(const QString& name, const QString& file) {
  return fixtures_dir() + "/" + name + "/" + file;
}

inline QJsonObject read_json(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  return QJsonDocument::fromJson(f.readAll()).object();
}

inline QJsonObject fixture_meta(const QString& name) { return read_json(fixture_file(name, "meta.json")); }

/// Fixture names with the given status ("ok" or "error"), in manifest order.
inline QStringList fixtures_with_status(const QString& status) {
  QFile f(fixtures_dir() + "/manifest.json");
  if (!f.open(QIODevice::ReadOnly)) qFatal("no oracle fixtures at %s (build the oracle_fixtures target)",
                                           qPrintable(fixtures_dir()));
  QStringList out;
  for (const auto& v : QJsonDocument::fromJson(f.readAll()).array()) {
    const auto o = v.toObject();
    if (o["status"].toString() == status) out << o["name"].toString();
  }
  if (out.isEmpty()) qFatal("the fixture manifest lists no '%s' fixtures", qPrintable(status));
  return out;
}

inline QString read_text(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  return QString::fromUtf8(f.readAll());
}

}  // namespace exportlens::testing
