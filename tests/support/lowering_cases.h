#pragma once
// The oracle's lowering-only cases (decomp_cases.py's LOWERING_CASES): models
// only the lowering is compared on, in the fixtures' lowering_cases folder.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include "support/fixtures.h"

namespace exportlens::testing {

/// "lowering_cases/NAME" for every case, in the oracle's order (usable as a fixture name).
inline QStringList lowering_cases() {
  QFile f(fixtures_dir() + "/lowering_cases/index.json");
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s (build the oracle_fixtures target)", qPrintable(f.fileName()));
  QStringList out;
  for (const auto& v : QJsonDocument::fromJson(f.readAll()).array()) out << "lowering_cases/" + v.toObject()["name"].toString();
  if (out.isEmpty()) qFatal("the oracle wrote no lowering cases");
  return out;
}

}  // namespace exportlens::testing
