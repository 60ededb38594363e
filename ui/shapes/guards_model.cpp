#include "ui/shapes/guards_model.h"

#include <QFontDatabase>

namespace exportlens::ui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

QString provenance_kind_name(symbolic::Provenance::Kind kind) {
  using Kind = symbolic::Provenance::Kind;
  switch (kind) {
    case Kind::ShapeRule: return QObject::tr("shape rule");
    case Kind::RecordedGuard: return QObject::tr("recorded guard");
    case Kind::SpecRelation: return QObject::tr("spec");
    case Kind::RuntimeAssert: return QObject::tr("runtime assert");
    case Kind::Input: return QObject::tr("input");
  }
  return {};
}

QString provenance_source(const symbolic::Provenance& origin) {
  QString text = qs(origin.location);
  if (!origin.code.empty()) text += (text.isEmpty() ? QString() : QStringLiteral(": ")) + qs(origin.code);
  return text;
}

GuardsModel::GuardsModel(QObject* parent) : QAbstractTableModel(parent) {}

void GuardsModel::setResult(const SolveResultPtr& result) {
  beginResetModel();
  result_ = result;
  endResetModel();
}

int GuardsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !result_ ? 0 : static_cast<int>(result_->guards.size());
}

int GuardsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant GuardsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  if (role == NodeNameRole) return nodeAt(index.row());
  const ops::GuardInfo& guard = result_->guards[index.row()];
  const symbolic::Provenance& origin = guard.origin;
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Guard: return qs(guard.python.empty() ? guard.expr : guard.python);
      case Origin:
        return guard.runtime_assert ? tr("%1 (run time)").arg(provenance_kind_name(origin.kind))
                                    : provenance_kind_name(origin.kind);
      case Node: return qs(origin.node);
      case Op: return qs(origin.op);
      case Rule: return qs(origin.kind == symbolic::Provenance::Kind::RecordedGuard ? origin.detail : origin.rule);
      case Source: return provenance_source(origin);
    }
  } else if (role == Qt::ToolTipRole) {
    return QStringLiteral("%1\n%2\n%3").arg(qs(guard.expr), qs(guard.python), qs(origin.describe()));
  } else if (role == Qt::FontRole && (index.column() == Guard || index.column() == Op)) {
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
  }
  return {};
}

QVariant GuardsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Vertical) return section + 1;
  switch (section) {
    case Guard: return tr("Guard");
    case Origin: return tr("From");
    case Node: return tr("Node");
    case Op: return tr("Op");
    case Rule: return tr("Rule");
    case Source: return tr("Source");
  }
  return {};
}

QString GuardsModel::nodeAt(int row) const {
  return row >= 0 && row < rowCount() ? qs(result_->guards[row].origin.node) : QString();
}

int GuardsModel::rowOf(const QString& node) const {
  if (node.isEmpty()) return -1;
  for (int i = 0; i < rowCount(); ++i)
    if (qs(result_->guards[i].origin.node) == node) return i;
  return -1;
}

}  // namespace exportlens::ui
