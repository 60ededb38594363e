#include "ui/program_views/module_tree_model.h"

#include "ui/core/scope_display.h"

#include <algorithm>

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
  run_rows_.clear();
  parent_id_.clear();
  row_in_parent_.clear();
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h) return;
  const int scopes = static_cast<int>(h->size());
  const int runs = static_cast<int>(runs_.size());
  // The larger run first: each scope ends in its innermost run, and each
  // run learns the innermost larger run holding it.
  std::vector<int> order(runs_.size());
  for (int r = 0; r < runs; ++r) order[r] = r;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return runs_[a].size() > runs_[b].size(); });
  std::vector<int> run_of(h->size(), -1), outer(runs_.size(), -1);
  for (int r : order) {
    if (runs_[r].empty()) continue;
    const int first = runs_[r].front();
    if (first > ir::ModuleHierarchy::kRoot && first < scopes) outer[r] = run_of[first];
    for (int m : runs_[r])
      if (m > ir::ModuleHierarchy::kRoot && m < scopes) run_of[m] = r;
  }
  // The run directly below `within` (a run, or -1 for none) that holds `scope`.
  auto run_below = [&](int scope, int within) {
    int t = run_of[scope];
    for (int hops = 0; t >= 0 && outer[t] != within && hops < runs; ++hops) t = outer[t];
    return t;
  };
  rows_.assign(h->size(), {});
  run_rows_.assign(runs_.size(), {});
  parent_id_.assign(h->size() + runs_.size(), ir::ModuleHierarchy::kRoot);
  row_in_parent_.assign(h->size() + runs_.size(), 0);
  for (int s = 0; s < scopes; ++s)
    for (int child : (*h)[s].children) {
      const int run = run_below(child, -1);
      if (run < 0) {
        rows_[s].push_back(child);
      } else if (runs_[run].front() == child) {
        rows_[s].push_back(scopes + run);  // the run's row, where its first member was
        parent_id_[scopes + run] = s;
      }
      parent_id_[child] = run_of[child] < 0 ? s : scopes + run_of[child];
    }
  for (int r = 0; r < runs; ++r)
    for (int m : runs_[r]) {
      if (m <= ir::ModuleHierarchy::kRoot || m >= scopes) continue;
      const int inner = run_of[m] == r ? -1 : run_below(m, r);
      if (inner < 0) {
        run_rows_[r].push_back(m);
      } else if (runs_[inner].front() == m) {
        run_rows_[r].push_back(scopes + inner);
        parent_id_[scopes + inner] = scopes + r;
      }
    }
  for (const auto* lists : {&rows_, &run_rows_})
    for (const auto& rows : *lists)
      for (size_t i = 0; i < rows.size(); ++i) row_in_parent_[rows[i]] = static_cast<int>(i);
}

const std::vector<int>& ModuleTreeModel::rowsOf(int id) const {
  const int scopes = static_cast<int>(rows_.size());
  return id < scopes ? rows_[id] : run_rows_[id - scopes];
}

QModelIndex ModuleTreeModel::indexOfRun(int run, int column) const {
  if (run < 0 || run >= int(run_rows_.size())) return {};
  const int id = static_cast<int>(rows_.size()) + run;
  return createIndex(row_in_parent_[id], column, quintptr(id));
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
      case Class: {
        // A stack of groups of several classes (3 × [2 × ConvBlock, Mixer]) has no one class: its title says them.
        for (int m : members)
          if ((*h)[m].class_name() != scope.class_name()) return QString();
        return QString::fromStdString(scope.class_name());
      }
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
