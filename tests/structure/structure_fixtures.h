#pragma once
// The repeated-structure oracle's programs (oracle/structure_models.py):
// stacks of identical modules and planted odd instances, exported by real
// torch, with the model's expected stacks and torch's record of every module
// call (structure.json).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include "support/fixture_folder.h"

namespace exportlens::testing {

inline QString structure_fixture(const QString& name, const QString& file) {
  return fixture_file(EXPORTLENS_STRUCTURE_FIXTURES, name, file);
}

/// The programs, in manifest order; a missing manifest stops the suite.
inline QStringList structure_fixture_names() {
  return fixture_manifest(EXPORTLENS_STRUCTURE_FIXTURES, "structure_fixtures");
}

inline QJsonObject structure_record(const QString& name) {
  return fixture_json(EXPORTLENS_STRUCTURE_FIXTURES, name, QStringLiteral("structure.json"));
}

/// torch's ops of one module call at one level (size expressions left out), by op.
inline QMap<QString, int> torch_op_counts(const QJsonObject& record, const QString& level, const QString& path) {
  QMap<QString, int> out;
  bool found = false;
  for (const auto& c : record["levels"][level]["calls"].toArray()) {
    const auto call = c.toObject();
    if (call["path"].toString() != path) continue;
    found = true;
    for (const auto& op : call["ops"].toArray())
      if (!op.toArray()[1].toBool()) ++out[op.toArray()[0].toString()];
    break;
  }
  if (!found) qFatal("torch recorded no module call %s", qPrintable(path));
  return out;
}

/// torch's parameters and buffers below a module path: name below it -> "f32[64, 16]".
inline QMap<QString, QString> torch_weights(const QJsonObject& record, const QString& level, const QString& path) {
  static const QMap<QString, QString> short_dtype{{"float32", "f32"}, {"float64", "f64"}, {"int64", "i64"},
                                                  {"float16", "f16"}, {"bfloat16", "bf16"}, {"bool", "b8"}};
  QMap<QString, QString> out;
  const auto weights = record["levels"][level]["weights"].toObject();
  for (auto it = weights.begin(); it != weights.end(); ++it) {
    const auto w = it.value().toObject();
    const QString target = w["target"].toString();
    if (!target.startsWith(path + ".")) continue;
    QStringList dims;
    for (const auto& d : w["shape"].toArray()) dims << d.toString();
    out[target.mid(path.size() + 1)] = short_dtype.value(w["dtype"].toString(), w["dtype"].toString()) + "[" +
                                       dims.join(", ") + "]";
  }
  return out;
}

}  // namespace exportlens::testing
