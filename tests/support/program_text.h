#pragma once
// Comparing program text and op lists with torch's: node numbering
// normalised, torch's spelling of call targets, op multisets, the first line
// where two texts differ. Shared by the lowering and corpus suites.
#include <QJsonArray>
#include <QRegularExpression>
#include <QString>
#include <map>
#include <set>
#include <string>

#include "engine/ir/exported_program.h"
#include "engine/ir/op_key.h"

namespace exportlens::testing {

/// `text` with every name's numbering replaced by its order of first use per
/// base name (add_9, add_12 -> add#0, add#1; sym_size_int_8 -> sym_size_int#0;
/// attribute names such as the op in aten.add.Tensor are left alone),
/// so two programs that differ only in how the retrace numbered its nodes
/// compare equal; with `symbols`, unbacked and backed symbols (u3, s0) too.
inline QString renumbered(const QString& text, bool symbols) {
  static const QRegularExpression ident(QStringLiteral(R"(\b[A-Za-z_][A-Za-z0-9_]*\b)"));
  static const QRegularExpression numbered(QStringLiteral(R"(^(.*[A-Za-z])_\d+$)"));
  static const QRegularExpression symbol(QStringLiteral(R"(^([su])\d+$)"));
  std::map<QString, QString> seen;
  std::map<QString, int> next;
  QString out;
  qsizetype at = 0;
  for (auto it = ident.globalMatch(text); it.hasNext();) {
    const auto m = it.next();
    const QString token = m.captured();
    if (m.capturedStart() > 0 && text[m.capturedStart() - 1] == QLatin1Char('.')) continue;  // aten.add: an op, not a node
    QString base = token;
    if (const auto n = numbered.match(token); n.hasMatch()) base = n.captured(1);
    else if (const auto s = symbol.match(token); symbols && s.hasMatch()) base = s.captured(1);
    auto [entry, fresh] = seen.emplace(token, QString());
    if (fresh) entry->second = base + "#" + QString::number(next[base]++);
    out += text.mid(at, m.capturedStart() - at) + entry->second;
    at = m.capturedEnd();
  }
  return out + text.mid(at);
}

/// `text` without the range-constraint entries of unbacked symbols (", u3: VR[...]").
inline QString without_unbacked_ranges(QString text) {
  static const QRegularExpression unbacked(QStringLiteral(R"((, )?u\d+: VR\[[^\]]*\])"));
  return text.remove(unbacked);
}

/// torch's str(node.target) for one of our targets.
inline std::string torch_target_name(const ir::Target& t) {
  const std::string& q = t.qualified();
  if (q.rfind("_operator.", 0) == 0) return "<built-in function " + q.substr(10) + ">";
  if (t.is_higher_order()) return t.op_name();
  return ir::op_key(t);
}

inline void collect_ops(const ir::GraphModule& gm, std::multiset<std::string>& out) {
  for (const ir::Node* n : gm.graph.nodes())
    if (n->op == ir::OpKind::CallFunction) out.insert(torch_target_name(n->target));
  for (const auto& [name, sub] : gm.submodules) collect_ops(*sub, out);
}

inline std::string describe(const std::multiset<std::string>& ops) {
  std::map<std::string, int> counts;
  for (const auto& o : ops) ++counts[o];
  std::string s;
  for (const auto& [o, c] : counts) s += o + " x" + std::to_string(c) + "\n";
  return s;
}

inline std::multiset<std::string> json_ops(const QJsonArray& a) {
  std::multiset<std::string> out;
  for (const auto& v : a) out.insert(v.toString().toStdString());
  return out;
}

/// The first line where two texts differ, for failure messages.
inline QString first_difference(const QString& a, const QString& b) {
  const auto la = a.split('\n'), lb = b.split('\n');
  for (int i = 0; i < std::max(la.size(), lb.size()); ++i) {
    const QString x = i < la.size() ? la[i] : "<end>", y = i < lb.size() ? lb[i] : "<end>";
    if (x != y) return QString("line %1:\n  ours:  %2\n  torch: %3").arg(i + 1).arg(x, y);
  }
  return {};
}

}  // namespace exportlens::testing
