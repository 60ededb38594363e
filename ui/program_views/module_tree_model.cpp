#include "ui/program_views/module_tree_model.h"

#include "ui/core/scope_display.h"

namespace exportlens::ui {

ModuleTreeModel::ModuleTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

void ModuleTreeModel::setProgram(const LoadedProgramPtr& program) {
  beginResetModel();
  program_ = program;
  runs_.clear();
  run_titles_.clear();
  time_ms_.clear();
  total_ms_ = 0;
  buildRows();
  endResetModel();
}

void ModuleTreeModel::setFoldedRuns(std::vector<std::vector<int>> runs, QStringList titles) {
  beginResetModel();
  runs_ = std::move(runs);
  run_titles_ = std::move(titles);
  buildRows();
  endResetModel();
}

void ModuleTreeModel::buildRows() {
  rows_.clear();
  parent_id_.clear();
  row_in_parent_.clear();
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h) return;
  const int scopes = static_cast<int>(h->size());
  std::vector<int> run_of(h->size(), -1);
  for (size_t r = 0; r < runs_.size(); ++r)
    for (int m : runs_[r])
      if (m > ir::ModuleHierarchy::kRoot && m < scopes) run_of[m] = static_cast<int>(r);
  rows_.assign(h->size(), {});
  parent_id_.assign(h->size() + runs_.size(), ir::ModuleHierarchy::kRoot);
  row_in_parent_.assign(h->size() + runs_.size(), 0);
  for (int s = 0; s < scopes; ++s)
    for (int child : (*h)[s].children) {
      const int run = run_of[child];
      if (run < 0) {
        rows_[s].push_back(child);
      } else if (runs_[run].front() == child) {
        rows_[s].push_back(scopes + run);  // the run's row, where its first member was
      }
      parent_id_[child] = run < 0 ? s : scopes + run;
      if (run >= 0) parent_id_[scopes + run] = s;
    }
  for (int s = 0; s < scopes; ++s)
    for (size_t i = 0; i < rows_[s].size(); ++i) row_in_parent_[rows_[s][i]] = static_cast<int>(i);
  for (size_t r = 0; r < runs_.size(); ++r)
    for (size_t i = 0; i < runs_[r].size(); ++i) row_in_parent_[runs_[r][i]] = static_cast<int>(i);
}

const std::vector<int>& ModuleTreeModel::rowsOf(int id) const {
  const int scopes = static_cast<int>(rows_.size());
  return id < scopes ? rows_[id] : runs_[id - scopes];
}

int ModuleTreeModel::runAt(const QModelIndex& index) const {
  const int id = index.isValid() ? static_cast<int>(index.internalId()) : 0;
  return id >= int(rows_.size()) ? id - int(rows_.size()) : -1;
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
  const int run = runAt(index);
  if (run >= 0) return runs_[run].front();
  return index.isValid() ? static_cast<int>(index.internalId()) : ir::ModuleHierarchy::kRoot;
}

QModelIndex ModuleTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (!hierarchy() || column < 0 || column >= ColumnCount || (parent.isValid() && parent.column() != 0)) return {};
  const auto& rows = rowsOf(parent.isValid() ? static_cast<int>(parent.internalId()) : ir::ModuleHierarchy::kRoot);
  if (row < 0 || row >= int(rows.size())) return {};
  return createIndex(row, column, quintptr(rows[row]));
}

QModelIndex ModuleTreeModel::parent(const QModelIndex& child) const {
  if (!hierarchy() || !child.isValid()) return {};
  const int p = parent_id_[child.internalId()];
  if (p == ir::ModuleHierarchy::kRoot) return {};
  return createIndex(row_in_parent_[p], 0, quintptr(p));
}

int ModuleTreeModel::rowCount(const QModelIndex& parent) const {
  if (!hierarchy() || (parent.isValid() && parent.column() != 0)) return 0;
  return static_cast<int>(rowsOf(parent.isValid() ? static_cast<int>(parent.internalId()) : 0).size());
}

int ModuleTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant ModuleTreeModel::data(const QModelIndex& index, int role) const {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h || !index.isValid()) return {};
  const int s = scopeAt(index);
  const auto& scope = (*h)[s];
  if (role == ScopeRole) return s;
  if (role == RunRole) return runAt(index);
  if (const int run = runAt(index); run >= 0) {
    // A folded run: its title, the class, the ops and the time of all its instances.
    const auto& members = runs_[run];
    size_t ops = 0;
    double ms = 0;
    for (int m : members) {
      ops += (*h)[m].op_count;
      if (!time_ms_.empty()) ms += time_ms_[m];
    }
    const double share = time_ms_.empty() || total_ms_ <= 0 ? -1 : ms / total_ms_;
    if (role == Qt::ToolTipRole)
      return tr("<b>%1</b> (%2 … %3)").arg(run_titles_.value(run).toHtmlEscaped(),
                                           QString::fromStdString((*h)[members.front()].path),
                                           QString::fromStdString((*h)[members.back()].path));
    if (role == Qt::TextAlignmentRole && (index.column() == Ops || index.column() == Time))
      return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::UserRole && index.column() == Time) return share;
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
      case Name: return run_titles_.value(run);
      case Class: return QString::fromStdString(scope.class_name());
      case Ops: return qulonglong(ops);
      case Time: return share < 0 ? QVariant() : QStringLiteral("%1 %").arg(share * 100, 0, 'f', 1);
      default: return {};
    }
  }
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
