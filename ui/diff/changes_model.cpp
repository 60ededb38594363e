#include "ui/diff/changes_model.h"

#include <map>

#include "engine/ir/op_key.h"
#include "ui/core/qstring_from.h"
#include "ui/diff/diff_colours.h"

namespace exportlens::ui {
namespace {

using Side = SideBySideView::Side;

QString node_label(const matching::IndexedProgram& p, int node) {
  const ir::Node& n = *p.nodes()[static_cast<size_t>(node)];
  return qs(n.name) + QStringLiteral(" (") +
         (n.op == ir::OpKind::CallFunction ? qs(ir::op_key(n.target)) : qs(std::string(ir::op_kind_name(n.op)))) +
         QStringLiteral(")");
}

QString changes_text(const diff::NodeDiff& d) {
  QStringList parts;
  for (const diff::Change& c : d.changes)
    parts << QStringLiteral("%1 %2: %3 → %4")
                 .arg(QString::fromUtf8(diff::aspect_name(c.aspect).data()), qs(c.what), qs(c.before), qs(c.after));
  if (d.status == diff::Status::Changed || d.status == diff::Status::Same)
    parts << QObject::tr("matched by %1 (%2)")
                 .arg(QString::fromUtf8(matching::reason_name(d.match.reason).data()))
                 .arg(d.match.confidence, 0, 'f', 2);
  return parts.join(QStringLiteral("; "));
}

QList<QStandardItem*> row(const QString& first, const QString& second) {
  auto* a = new QStandardItem(first);
  auto* b = new QStandardItem(second);
  a->setEditable(false);
  b->setEditable(false);
  b->setToolTip(second);
  return {a, b};
}

QList<QStandardItem*> change_row(const diff::SignatureChange& c) {
  const QString text = c.status == diff::Status::Added     ? qs(c.after)
                       : c.status == diff::Status::Removed ? qs(c.before)
                                                           : qs(c.before) + QStringLiteral(" → ") + qs(c.after);
  auto r = row(QString::fromUtf8(diff::status_name(c.status).data()) + QStringLiteral(" ") + qs(c.what), text);
  r[0]->setForeground(change_colour(c.status));
  return r;
}

}  // namespace

ChangesModel::ChangesModel(QObject* parent) : QStandardItemModel(parent) {
  setHorizontalHeaderLabels({tr("Change"), tr("What")});
}

void ChangesModel::setSnapshot(const DiffSnapshotPtr& snap) {
  removeRows(0, rowCount());
  if (!snap) return;
  const auto& d = snap->diff;
  const auto& ha = snap->ia->hierarchy();
  const auto& hb = snap->ib->hierarchy();
  // The summary's words for each call, by its path on either side.
  std::map<std::string, std::string> said;
  for (const diff::ModuleChange& m : d.modules) said.emplace(m.path, m.text);
  // Groups by module call: B's for what B has, A's for what only A has; in diff order.
  std::map<std::pair<int, int>, QStandardItem*> groups;  // (scope of A, scope of B)
  for (const diff::NodeDiff& n : d.nodes) {
    if (n.status == diff::Status::Same) continue;
    // Graph inputs are the signature's and the weights' rows.
    const bool input = (n.a >= 0 && snap->ia->nodes()[static_cast<size_t>(n.a)]->op == ir::OpKind::Placeholder) ||
                       (n.b >= 0 && snap->ib->nodes()[static_cast<size_t>(n.b)]->op == ir::OpKind::Placeholder);
    if (input) continue;
    int sa = n.a >= 0 ? ha.scope_of[static_cast<size_t>(n.a)] : -1;
    int sb = n.b >= 0 ? hb.scope_of[static_cast<size_t>(n.b)] : -1;
    if (sa < 0) sa = d.matching.scope_b_to_a[static_cast<size_t>(sb)];
    if (sb < 0) sb = d.matching.scope_a_to_b[static_cast<size_t>(sa)];
    QStandardItem*& group = groups[{sa, sb}];
    if (!group) {
      const std::string& path = sb >= 0 ? hb[sb].path : ha[sa].path;
      const int scope = sb >= 0 ? sb : sa;
      const std::string label = scope == ir::ModuleHierarchy::kRoot ? "(top level)"
                                : sb >= 0                           ? hb[sb].label()
                                                                    : ha[sa].label();
      const auto it = said.find(path);
      auto r = row(qs(label), it == said.end() ? QString() : qs(it->second));
      group = r[0];
      group->setData(sa, LeftScopeRole);
      group->setData(sb, RightScopeRole);
      appendRow(r);
    }
    QString first = QString::fromUtf8(diff::status_name(n.status).data()) + QStringLiteral(" ");
    if (n.status == diff::Status::Added) first += node_label(*snap->ib, n.b);
    else if (n.status == diff::Status::Removed) first += node_label(*snap->ia, n.a);
    else first += qs(snap->ia->nodes()[static_cast<size_t>(n.a)]->name) + QStringLiteral(" → ") + node_label(*snap->ib, n.b);
    auto r = row(first, changes_text(n));
    r[0]->setForeground(change_colour(n.status));
    if (n.a >= 0) r[0]->setData(qs(snap->ia->nodes()[static_cast<size_t>(n.a)]->name), LeftNodeRole);
    if (n.b >= 0) r[0]->setData(qs(snap->ib->nodes()[static_cast<size_t>(n.b)]->name), RightNodeRole);
    r[0]->setData(static_cast<int>(n.status), StatusRole);
    group->appendRow(r);
    group->setText(group->text().section(QStringLiteral("  ("), 0, 0) +
                   tr("  (%n change(s))", nullptr, group->rowCount()));
  }
  auto section = [&](const QString& title, const QList<QList<QStandardItem*>>& rows) {
    if (rows.isEmpty()) return;
    auto r = row(title, tr("%n difference(s)", nullptr, int(rows.size())));
    for (const auto& child : rows) r[0]->appendRow(child);
    appendRow(r);
  };
  QList<QList<QStandardItem*>> signature, guards, weights;
  for (const auto& c : d.signature) signature << change_row(c);
  for (const auto& g : d.guards.only_a) guards << change_row({diff::Status::Removed, "guard", g, ""});
  for (const auto& g : d.guards.only_b) guards << change_row({diff::Status::Added, "guard", "", g});
  for (const auto& c : d.guards.ranges) guards << change_row(c);
  for (const auto& c : d.guards.input_shapes) guards << change_row(c);
  for (const auto& w : d.weights) {
    if (w.status == diff::Status::Same) continue;
    const std::string name = w.name_b.empty() ? w.name_a : w.name_b;
    weights << change_row({w.status, w.kind + " " + name, w.before, w.after});
  }
  section(tr("Signature"), signature);
  section(tr("Guards and ranges (one spec)"), guards);
  section(tr("Weights"), weights);
}

QModelIndex ChangesModel::indexOfNode(Side side, const QString& name) const {
  const int role = side == Side::Left ? LeftNodeRole : RightNodeRole;
  for (int g = 0; g < rowCount(); ++g) {
    const QStandardItem* group = item(g);
    for (int r = 0; r < group->rowCount(); ++r)
      if (group->child(r)->data(role).toString() == name) return group->child(r)->index();
  }
  return {};
}

}  // namespace exportlens::ui
