#include "ui/core/scope_display.h"

#include <QObject>

#include "engine/layout/node_label.h"

namespace exportlens::ui {
namespace {

std::vector<const ir::Node*> values(const std::vector<int>& indices, const std::vector<ir::Node*>& nodes,
                                    const ir::WeightFolding* folded) {
  std::vector<const ir::Node*> out;
  for (int i : indices)
    if (!folded || !folded->is_folded(i)) out.push_back(nodes[i]);
  return out;
}

QString annotation(const ir::Node& node) {
  const std::string text = layout::value_annotation(node.value);
  return text.empty() ? QStringLiteral("?") : QString::fromStdString(text);
}

QString value_list_html(const std::vector<const ir::Node*>& list) {
  QStringList rows;
  for (const ir::Node* n : list)
    rows << QStringLiteral("<code>%1: %2</code>")
                .arg(QString::fromStdString(n->name).toHtmlEscaped(), annotation(*n).toHtmlEscaped());
  return rows.join(QStringLiteral("<br/>"));
}

}  // namespace

QString shapes_text(const std::vector<const ir::Node*>& list, int limit) {
  QStringList parts;
  for (size_t i = 0; i < list.size() && static_cast<int>(i) < limit; ++i) parts << annotation(*list[i]);
  if (static_cast<int>(list.size()) > limit) parts << QStringLiteral("+%1").arg(list.size() - limit);
  return parts.join(QStringLiteral(", "));
}

ScopeText scope_text(const ir::ModuleHierarchy& hierarchy, int scope, const std::vector<ir::Node*>& nodes,
                     const ir::WeightFolding* folded) {
  const auto& s = hierarchy[scope];
  ScopeText text;
  const std::string cls = s.class_name();
  text.title = QString::fromStdString(cls.empty() ? s.name() : cls);
  text.detail = QObject::tr("%1 · %n op(s)", nullptr, static_cast<int>(s.op_count)).arg(QString::fromStdString(s.path));
  if (s.call > 0) text.detail += QObject::tr(" · call %1").arg(s.call + 1);
  const auto in = values(s.inputs, nodes, folded), out = values(s.outputs, nodes, folded);
  if (!in.empty() || !out.empty()) text.boundary = shapes_text(in) + QStringLiteral(" → ") + shapes_text(out);
  text.tooltip = QStringLiteral("<b>%1</b> <code>%2</code><br/>%3")
                     .arg(text.title.toHtmlEscaped(), QString::fromStdString(s.type).toHtmlEscaped(),
                          text.detail.toHtmlEscaped());
  if (!in.empty()) text.tooltip += QObject::tr("<br/><b>in</b><br/>") + value_list_html(in);
  if (!out.empty()) text.tooltip += QObject::tr("<br/><b>out</b><br/>") + value_list_html(out);
  text.tooltip += QObject::tr("<br/><i>double-click or + to open</i>");
  return text;
}

}  // namespace exportlens::ui
