#pragma once
// Comparing a solve (exportlens check) with torch.export's outcome for the
// same spec, as the oracle scripts record it (status; ok: input shapes and
// range constraints with symbols renamed to torch's; violation: the fix lines
// and torch's whole message). Shared by the check and corpus suites.
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <map>
#include <string>

#include "engine/ops/solve_result.h"
#include "engine/symbolic/expr.h"

namespace exportlens::testing {

using symbolic::Expr;

inline QStringList lines(const std::string& text) {
  QStringList out;
  for (const auto& l : QString::fromStdString(text).split('\n'))
    if (!l.trimmed().isEmpty()) out << l.trimmed();
  return out;
}

inline QStringList strings(const QJsonArray& a) {
  QStringList out;
  for (const auto& v : a) out << v.toString();
  return out;
}

inline QString bound(const QJsonValue& v) { return v.isString() ? v.toString() : QString::number(v.toInteger()); }

/// Symbol renaming mine -> torch's, read off the input shapes position by
/// position; when it is not a bijection, *why says so (and the case fails).
inline std::map<std::string, Expr> renaming(const ops::SolveResult& r, const QJsonObject& torch_shapes, QString* why) {
  std::map<std::string, Expr> to_torch;
  std::map<std::string, std::string> back;
  for (const auto& in : r.input_shapes) {
    if (!in.is_tensor) continue;
    const QJsonArray theirs = torch_shapes[QString::fromStdString(in.name)].toArray();
    for (size_t i = 0; i < in.dims.size() && int(i) < theirs.size(); ++i) {
      const Expr mine = Expr::parse(in.dims[i]), torch = Expr::parse(theirs[int(i)].toString().toStdString());
      if (!mine.is_symbol() || !torch.is_symbol()) continue;
      auto [it, fresh] = to_torch.emplace(mine.symbol_name(), torch);
      auto [jt, fresh_back] = back.emplace(torch.symbol_name(), mine.symbol_name());
      if (!(it->second == torch) || jt->second != mine.symbol_name()) {
        *why = QString::fromStdString("ExportLens' symbols are not a renaming of torch's: " + in.name + " dim " +
                                      std::to_string(i) + " is " + in.dims[i] + ", torch's " + torch.str());
        return {};
      }
    }
  }
  return to_torch;
}

inline QString renamed(const std::string& text, const std::map<std::string, Expr>& to_torch) {
  const Expr e = Expr::parse(text);
  std::map<std::string, Expr> subs;
  for (const std::string& s : e.free_symbols())
    if (auto it = to_torch.find(s); it != to_torch.end()) subs.emplace(s, it->second);
  return QString::fromStdString(subs.empty() ? e.str() : e.substitute(subs).str());
}

/// "" when ExportLens' outcome is torch's: the status; for ok the input
/// shapes and range constraints (symbols renamed to torch's); for a
/// violation torch's whole message (the violated items, each guard in
/// torch's Python form, forced specializations and the suggested fixes,
/// character for character) and the fix lines.
inline QString solve_difference(const ops::SolveResult& r, const QJsonObject& meta) {
  const QString status = QString::fromUtf8(ops::status_name(r.status).data());
  if (status != meta["status"].toString())
    return "ExportLens: " + status + ": " + QString::fromStdString(r.message) + "\ntorch: " +
           meta["status"].toString() + ": " + meta["message"].toString();
  auto differ = [](const QString& what, const QStringList& mine, const QStringList& theirs) {
    return mine == theirs ? QString()
                          : what + "\n  ExportLens: " + mine.join("; ") + "\n  torch:      " + theirs.join("; ");
  };
  if (status == "ok") {
    QString why;
    const auto to_torch = renaming(r, meta["input_shapes"].toObject(), &why);
    if (!why.isEmpty()) return why;
    QStringList my_shapes, torch_shapes;
    for (const auto& in : r.input_shapes) {
      QStringList dims;
      for (const auto& d : in.dims) dims << renamed(d, to_torch);
      my_shapes << QString::fromStdString(in.name) + ": " + (in.is_tensor ? "[" + dims.join(", ") + "]" : "None");
    }
    const QJsonObject ts = meta["input_shapes"].toObject();
    for (auto it = ts.begin(); it != ts.end(); ++it)
      torch_shapes << it.key() + ": " +
                          (it.value().isNull() ? QStringLiteral("None") : "[" + strings(it.value().toArray()).join(", ") + "]");
    my_shapes.sort();
    torch_shapes.sort();
    if (QString d = differ("input shapes", my_shapes, torch_shapes); !d.isEmpty()) return d;
    QStringList my_ranges, torch_ranges;
    for (const auto& rc : r.range_constraints)
      my_ranges << renamed(rc.expr, to_torch) + ": [" + QString::fromStdString(rc.lower) + ", " +
                       QString::fromStdString(rc.upper) + "]";
    const QJsonObject tr = meta["range_constraints"].toObject();
    for (auto it = tr.begin(); it != tr.end(); ++it) {
      const QJsonArray b = it.value().toArray();
      torch_ranges << QString::fromStdString(Expr::parse(it.key().toStdString()).str()) + ": [" + bound(b[0]) +
                          ", " + bound(b[1]) + "]";
    }
    my_ranges.sort();
    torch_ranges.sort();
    return differ("range constraints", my_ranges, torch_ranges);
  }
  if (status == "violation") {
    if (QString d = differ("suggested fixes", lines(r.suggested_fixes_text), strings(meta["suggested_fixes"].toArray()));
        !d.isEmpty())
      return d;
    const QString mine = QString::fromStdString(r.message).trimmed(), theirs = meta["message"].toString().trimmed();
    if (mine != theirs) return "message\n  ExportLens:\n" + mine + "\n  torch:\n" + theirs;
  }
  return {};
}


}  // namespace exportlens::testing
