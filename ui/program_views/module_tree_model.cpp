#include "ui/program_views/module_tree_model.h"

#include "ui/core/scope_display.h"

namespace exportlens::ui {

ModuleTreeModel::ModuleTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void ModuleTreeModel::setProgram(const LoadedProgramPtr& program) {
  beginResetModel();
  program_ = program;
  row_in_parent_.clear();
  time_ms_.clear();
  total_ms_ = 0;
  if (const ir::ModuleHierarchy* h = hierarchy()) {
    row_in_parent_.assign(h->size(), 0);
    for (size_t s = 0; s < h->size(); ++s) {
      const auto& children = (*h)[static_cast<int>(s)].children;
      for (size_t i = 0; i < children.size(); ++i) row_in_parent_[children[i]] = static_cast<int>(i);
    }
  }
  endResetModel();
}

void ModuleTreeModel::setNodeTimes(const QHash<QString, double>& milliseconds) {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h) return;
  emit layoutAboutToBeChanged();  // the time column of every row, nested ones too
  time_ms_.assign(milliseconds.isEmpty() ? 0 : h->size(), 0);
  total_ms_ = 0;
  for (auto it = milliseconds.cbegin(); it != milliseconds.cend(); ++it) {
    const ir::Node* node = program_->graph().find(it.key().toStdString());
    if (!node) continue;
    total_ms_ += it.value();
    for (int s = h->scope_of[node->index()]; s >= 0; s = (*h)[s].parent) time_ms_[s] += it.value();
  }
  emit layoutChanged();
}

double ModuleTreeModel::timeShare(int scope) const {
  if (time_ms_.empty() || total_ms_ <= 0 || scope < 0 || scope >= int(time_ms_.size())) return -1;
  return time_ms_[scope] / total_ms_;
}

QModelIndex ModuleTreeModel::indexOf(int scope, int column) const {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h || scope <= ir::ModuleHierarchy::kRoot || scope >= int(h->size())) return {};
  return createIndex(row_in_parent_[scope], column, quintptr(scope));
}

int ModuleTreeModel::scopeAt(const QModelIndex& index) const {
  return index.isValid() ? static_cast<int>(index.internalId()) : ir::ModuleHierarchy::kRoot;
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h || column < 0 || column >= ColumnCount) return {};
  const auto& children = (*h)[scopeAt(parent)].children;
  if (row < 0 || row >= int(children.size())) return {};
  return createIndex(row, column, quintptr(children[row]));
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h || !child.isValid()) return {};
  return indexOf((*h)[scopeAt(child)].parent);
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h || (parent.isValid() && parent.column() != 0)) return 0;
  return static_cast<int>((*h)[scopeAt(parent)].children.size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h || !index.isValid()) return {};
  const int s = scopeAt(index);
  const auto& scope = (*h)[s];
  if (role == ScopeRole) return s;
  if (role == Qt::ToolTipRole)
    return scope_text(*h, s, program_->graph().nodes(), program_->weights.get()).tooltip;
  if (role == Qt::TextAlignmentRole && (index.column() == Ops || index.column() == Time))
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::UserRole && index.column() == Time) return timeShare(s);  // for sorting
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Name: {
      QString name = QString::fromStdString(h->relative_path(s));
      if (scope.call > 0) name += tr(" (call %1)").arg(scope.call + 1);
      return name;
    }
    case Class: return QString::fromStdString(scope.class_name());
    case Ops: return qulonglong(scope.op_count);
    case Time: {
      const double share = timeShare(s);
      return share < 0 ? QVariant() : QStringLiteral("%1 %").arg(share * 100, 0, 'f', 1);
    }
    default: return {};
  }
}

QVariant ModuleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Module");
    case Class: return tr("Class");
    case Ops: return tr("Ops");
    case Time: return tr("Time");
    default: return {};
  }
}

}  // namespace exportlens::ui
