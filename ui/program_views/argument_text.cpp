#include "ui/program_views/argument_text.h"

#include <QStringList>

#include <charconv>
#include <cmath>

#include "engine/ir/node.h"

namespace exportlens::ui {
namespace {

QString from_view(std::string_view text) { return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())); }

QString list_html(const ir::ArgumentList& list) {
  QStringList items;
  for (const auto& item : list.items) items << argument_html(item);
  if (list.is_tuple) {
    return QStringLiteral("(%1%2)").arg(items.join(QStringLiteral(", ")),
                                         items.size() == 1 ? QStringLiteral(",") : QString());
  }
  return QStringLiteral("[%1]").arg(items.join(QStringLiteral(", ")));
}

struct ArgumentVisitor {
  QString operator()(ir::None) const { return QStringLiteral("None"); }
  QString operator()(ir::Node* node) const { return node_link_html(node); }
  QString operator()(bool b) const { return b ? QStringLiteral("True") : QStringLiteral("False"); }
  QString operator()(int64_t i) const { return QString::number(i); }
  QString operator()(double d) const { return python_float(d); }
  QString operator()(const std::string& s) const {
    return QStringLiteral("'%1'").arg(QString::fromStdString(s).toHtmlEscaped());
  }
  QString operator()(ir::ScalarType t) const { return from_view(ir::torch_name(t)); }
  QString operator()(ir::Layout l) const { return from_view(ir::torch_name(l)); }
  QString operator()(ir::MemoryFormat m) const { return from_view(ir::torch_name(m)); }
  QString operator()(const ir::Device& d) const {
    const QString type = QString::fromStdString(d.type);
    return d.index ? QStringLiteral("device(type='%1', index=%2)").arg(type).arg(*d.index)
                   : QStringLiteral("device(type='%1')").arg(type);
  }
  QString operator()(const ir::OperatorRef& o) const { return QString::fromStdString(o.qualified).toHtmlEscaped(); }
  QString operator()(const ir::ArgumentList& l) const { return list_html(l); }
};

}  // namespace

QString node_link_html(const ir::Node* node) {
  if (!node) return QStringLiteral("None");
  const QString name = QString::fromStdString(node->name).toHtmlEscaped();
  return QStringLiteral("<a href=\"%1:%2\">%2</a>").arg(QLatin1String(kNodeLinkScheme), name);
}

QString argument_html(const ir::Argument& argument) { return std::visit(ArgumentVisitor{}, argument.v); }

QString python_float(double value) {
  if (std::isnan(value)) return QStringLiteral("nan");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  QString text = QString::fromLatin1(buffer, end - buffer);
  if (!text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e'))) text += QStringLiteral(".0");
  return text;
}

}  // namespace exportlens::ui
