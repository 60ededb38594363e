#include "ui/structure/repeated_structure_model.h"

#include <QApplication>
#include <QStyle>

#include "engine/structure/structure_report.h"
#include "ui/core/node_name_role.h"

namespace exportlens::ui {
namespace {

// Row ids travel in QModelIndex::internalId: the row index plus one (0: none).
quintptr tag(int row) { return static_cast<quintptr>(row) + 1; }

}  // namespace

RepeatedStructureModel::RepeatedStructureModel(QObject* parent) : QAbstractItemModel(parent) {}

void RepeatedStructureModel::setSnapshot(StructureSnapshotPtr snapshot) {
  beginResetModel();
  snapshot_ = std::move(snapshot);
  build();
  endResetModel();
}

int RepeatedStructureModel::addRow(Kind kind, int id, int parent) {
  const int row = static_cast<int>(rows_.size());
  auto& siblings = parent < 0 ? top_ : rows_[static_cast<size_t>(parent)].children;
  rows_.push_back({kind, id, parent, static_cast<int>(siblings.size()), {}});
  (parent < 0 ? top_ : rows_[static_cast<size_t>(parent)].children).push_back(row);
  if (kind == Kind::Stack) stack_row_[static_cast<size_t>(id)] = row;
  if (kind == Kind::Odd) odd_row_[static_cast<size_t>(id)] = row;
  return row;
}

void RepeatedStructureModel::addChildren(int row, const std::vector<structure::FoldedChild>& items) {
  const auto& s = snapshot_->structure;
  for (const auto& item : items) {
    if (item.stack < 0) {
      const int r = addRow(Kind::Scope, item.scope, row);
      addChildren(r, s.folded_children(snapshot_->hierarchy, item.scope));
      continue;
    }
    const int r = addRow(Kind::Stack, item.stack, row);
    const structure::Stack& st = s.stacks[static_cast<size_t>(item.stack)];
    for (int o : st.odd) addRow(Kind::Odd, o, r);
    if (st.period == 1)
      addChildren(r, s.folded_children(snapshot_->hierarchy, st.instances[static_cast<size_t>(st.representative)][0]));
    else
      addChildren(r, s.folded_unit(item.stack));
  }
}

void RepeatedStructureModel::build() {
  rows_.clear();
  top_.clear();
  stack_row_.clear();
  odd_row_.clear();
  if (!snapshot_) return;
  stack_row_.assign(snapshot_->structure.stacks.size(), -1);
  odd_row_.assign(snapshot_->structure.odd.size(), -1);
  nodes_ = snapshot_->program->graph().nodes();
  addChildren(-1, snapshot_->structure.folded_children(snapshot_->hierarchy, ir::ModuleHierarchy::kRoot));
  for (Row& row : rows_) {
    row.ops = ops(row);
    row.node = firstNode(row);
  }
}

size_t RepeatedStructureModel::ops(const Row& row) const {
  const auto& s = snapshot_->structure;
  const ir::ExportedProgram& program = *snapshot_->program->program;
  if (row.kind == Kind::Scope) return structure::op_count(program, s, row.id);
  if (row.kind == Kind::Odd) return structure::op_count(program, s, s.odd[static_cast<size_t>(row.id)].scope);
  const auto& st = s.stacks[static_cast<size_t>(row.id)];
  size_t n = 0;
  for (int sc : st.instances[static_cast<size_t>(st.representative)]) n += structure::op_count(program, s, sc);
  return n;
}

QModelIndex RepeatedStructureModel::indexOfRow(int row) const {
  if (row < 0) return {};
  return createIndex(rows_[static_cast<size_t>(row)].position, 0, tag(row));
}

QModelIndex RepeatedStructureModel::indexOfStack(int stack) const {
  return stack >= 0 && static_cast<size_t>(stack) < stack_row_.size() ? indexOfRow(stack_row_[static_cast<size_t>(stack)]) : QModelIndex();
}

QModelIndex RepeatedStructureModel::indexOfOdd(int odd) const {
  return odd >= 0 && static_cast<size_t>(odd) < odd_row_.size() ? indexOfRow(odd_row_[static_cast<size_t>(odd)]) : QModelIndex();
}

QModelIndex RepeatedStructureModel::index(int row, int column, const QModelIndex& parent) const {
  const auto& siblings = parent.isValid() ? rows_[parent.internalId() - 1].children : top_;
  if (row < 0 || static_cast<size_t>(row) >= siblings.size() || column < 0 || column >= ColumnCount) return {};
  return createIndex(row, column, tag(siblings[static_cast<size_t>(row)]));
}

QModelIndex RepeatedStructureModel::parent(const QModelIndex& child) const {
  if (!child.isValid()) return {};
  return indexOfRow(rows_[child.internalId() - 1].parent);
}

int RepeatedStructureModel::rowCount(const QModelIndex& parent) const {
  if (parent.column() > 0) return 0;
  return static_cast<int>(parent.isValid() ? rows_[parent.internalId() - 1].children.size() : top_.size());
}

int RepeatedStructureModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QString RepeatedStructureModel::firstNode(const Row& row) const {
  const auto& s = snapshot_->structure;
  const auto& nodes = nodes_;
  int scope = row.id;
  if (row.kind == Kind::Odd) {
    const auto& odd = s.odd[static_cast<size_t>(row.id)];
    for (const auto& d : odd.differences)
      for (const auto& det : d.details)
        if (d.kind != structure::DifferenceKind::Weights)  // a weight's node is the program's input
          if (det.node >= 0) return QString::fromStdString(nodes[static_cast<size_t>(det.node)]->name);
    scope = odd.scope;
  } else if (row.kind == Kind::Stack) {
    const auto& st = s.stacks[static_cast<size_t>(row.id)];
    scope = st.instances[static_cast<size_t>(st.representative)][0];
  }
  for (int n : s.fingerprints.canonical_nodes(scope))
    if (nodes[static_cast<size_t>(n)]->op == ir::OpKind::CallFunction) return QString::fromStdString(nodes[static_cast<size_t>(n)]->name);
  return {};
}

QString RepeatedStructureModel::tooltip(const Row& row) const {
  const auto& s = snapshot_->structure;
  const auto& h = snapshot_->hierarchy;
  if (row.kind == Kind::Odd) {
    const auto& odd = s.odd[static_cast<size_t>(row.id)];
    QString text = tr("%1 differs from %2:").arg(QString::fromStdString(h.relative_path(odd.scope)),
                                                 QString::fromStdString(h.relative_path(odd.reference)));
    for (const auto& d : odd.differences) text += "\n• " + QString::fromStdString(d.text());
    return text;
  }
  if (row.kind == Kind::Stack) {
    const auto& st = s.stacks[static_cast<size_t>(row.id)];
    QString text = QString::fromStdString(st.label(h));
    if (st.varied()) {
      text += tr("\nits instances are one layer built with other settings (none is the odd one):");
      for (const std::string& setting : st.setting_texts(h)) text += "\n• " + QString::fromStdString(setting);
    }
    if (st.identical)
      text += tr("\nevery instance computes the same thing the same way");
    else if (!st.odd.empty())
      text += st.odd.size() == 1 ? tr("\n1 instance differs from the majority:")
                                 : tr("\n%1 instances differ from the majority:").arg(st.odd.size());
    for (int o : st.odd) text += "\n• " + QString::fromStdString(h.relative_path(s.odd[static_cast<size_t>(o)].scope));
    if (st.identical && !st.odd.empty()) text += tr("\n(same structure; guards or run time differ)");
    return text;
  }
  return QString::fromStdString(h[row.id].label());
}

QVariant RepeatedStructureModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !snapshot_) return {};
  const Row& row = rows_[index.internalId() - 1];
  const auto& s = snapshot_->structure;
  const auto& h = snapshot_->hierarchy;
  if (role == KindRole) return static_cast<int>(row.kind);
  if (role == IdRole) return row.id;
  if (role == NodeNameRole) return row.node;
  if (role == Qt::ToolTipRole) return tooltip(row);
  if (role == Qt::DecorationRole && index.column() == Module) {
    const bool flagged = row.kind == Kind::Odd || (row.kind == Kind::Stack && !s.stacks[static_cast<size_t>(row.id)].odd.empty());
    if (flagged) return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (row.kind) {
    case Kind::Scope: {
      const auto& sc = h[row.id];
      switch (index.column()) {
        case Module: return QString::fromStdString(h.relative_path(row.id)) + (sc.call > 0 ? tr(" (call %1)").arg(sc.call + 1) : QString());
        case Class: return QString::fromStdString(sc.class_name());
        case Ops: return qulonglong(row.ops);
        default: return {};
      }
    }
    case Kind::Stack: {
      const auto& st = s.stacks[static_cast<size_t>(row.id)];
      switch (index.column()) {
        case Module: return QString::fromStdString(st.label(h));
        case Class: {  // the unit without the count: "ResBlock", "[2 × ConvBlock, Mixer]"
          const std::string title = st.title(h);
          return QString::fromStdString(title.substr(title.find("× ") + std::string("× ").size()));
        }
        case Ops: return st.varied() ? tr("%1 in the first").arg(row.ops) : tr("%1 each").arg(row.ops);
        case Note: {
          QString note = st.odd.empty() ? (st.varied() ? QString() : tr("identical")) : tr("%1 differ").arg(st.odd.size());
          if (st.varied()) note += (note.isEmpty() ? QString() : QStringLiteral("; ")) + QString::fromStdString(st.settings_text(h));
          return note;
        }
        default: return {};
      }
    }
    case Kind::Odd: {
      const auto& odd = s.odd[static_cast<size_t>(row.id)];
      switch (index.column()) {
        case Module: return QString::fromStdString(h.relative_path(odd.scope));
        case Class: return QString::fromStdString(h[odd.scope].class_name());
        case Ops: return qulonglong(row.ops);
        case Note: return QString::fromStdString(odd.headline());  // every difference: the tooltip
        default: return {};
      }
    }
  }
  return {};
}

QVariant RepeatedStructureModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Module: return tr("Module");
    case Class: return tr("Class");
    case Ops: return tr("Ops");
    case Note: return tr("Differences");
    default: return {};
  }
}

}  // namespace exportlens::ui
