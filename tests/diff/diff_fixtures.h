#pragma once
// The diff oracle's cases (diff/diff_cases.py): two programs real torch
// exported, A and B, with a planted edit between them, and the truth of
// which node is which (truth.json), from how the case was built.
#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>

#include "engine/diff/program_diff.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "support/fixture_folder.h"

namespace exportlens::testing {

inline QString diff_case_file(const QString& name, const QString& file) {
  return fixture_file(EXPORTLENS_DIFF_FIXTURES, name, file);
}

inline QStringList diff_case_names() { return fixture_manifest(EXPORTLENS_DIFF_FIXTURES, "diff_fixtures"); }

inline QJsonObject diff_truth(const QString& name) { return fixture_json(EXPORTLENS_DIFF_FIXTURES, name, "truth.json"); }

/// Two programs and everything the diff reads of them, kept together.
struct ProgramPair {
  ir::ExportedProgram a, b;
  std::unique_ptr<matching::IndexedProgram> ia, ib;
  ProgramPair(ir::ExportedProgram pa, ir::ExportedProgram pb) : a(std::move(pa)), b(std::move(pb)) {
    ia = std::make_unique<matching::IndexedProgram>(a);
    ib = std::make_unique<matching::IndexedProgram>(b);
  }
  QString name_a(int node) const { return QString::fromStdString(ia->nodes()[static_cast<size_t>(node)]->name); }
  QString name_b(int node) const { return QString::fromStdString(ib->nodes()[static_cast<size_t>(node)]->name); }
};

inline ir::ExportedProgram read_program(const QString& path) {
  return serde::read_pt2(path.toStdString(), "", runtime::pt2_read_options());
}

inline std::unique_ptr<ProgramPair> read_diff_case(const QString& name) {
  return std::make_unique<ProgramPair>(read_program(diff_case_file(name, "a.pt2")),
                                       read_program(diff_case_file(name, "b.pt2")));
}

/// "a -> b" for each pair of a JSON list of [a, b].
inline QSet<QString> pair_set(const QJsonArray& pairs) {
  QSet<QString> out;
  for (const auto& p : pairs) out.insert(p.toArray()[0].toString() + " -> " + p.toArray()[1].toString());
  return out;
}

inline QSet<QString> name_set(const QJsonArray& names) {
  QSet<QString> out;
  for (const auto& n : names) out.insert(n.toString());
  return out;
}

}  // namespace exportlens::testing
