#pragma once
// The program's module calls as a tree (the Modules dock): name, class, op
// count and, after a run, each call's share of the run time. Rows are module
// scopes of the shown program's hierarchy (ScopeRole gives the index); a
// folded run of sibling calls (a stack, "6 × Block") is one row holding its
// instances, its ops and time summed (RunRole gives the run).
#include <QAbstractItemModel>
#include <QHash>

#include <vector>

#include "ui/core/loaded_program.h"

namespace exportlens::ui {

class ModuleTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { Name, Class, Ops, Time, ColumnCount };
  static constexpr int ScopeRole = Qt::UserRole + 101;
  static constexpr int RunRole = Qt::UserRole + 102;  // a folded run's row: its index; else -1

  explicit ModuleTreeModel(QObject* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);
  const LoadedProgramPtr& program() const { return program_; }
  /// Per-node run times in milliseconds (empty: no run); a scope's share is
  /// the sum of its nodes' over the whole run's.
  void setNodeTimes(const QHash<QString, double>& milliseconds);
  /// Whether a run's times are in (the Time column has values).
  bool hasTimes() const { return !time_ms_.empty(); }
  /// The row of a scope (the root has none: invalid index).
  QModelIndex indexOf(int scope, int column = 0) const;
  int scopeAt(const QModelIndex& index) const;
  /// A scope's share of the last run, in [0, 1] (negative: no run).
  double timeShare(int scope) const;
  /// Runs of sibling scopes shown as one row each, titled ("6 × Block"); the
  /// rows are made again. A run inside another (the 2 × ConvBlock of each
  /// group of 3 × [2 × ConvBlock, Mixer]) is a row under that one's row.
  void setFoldedRuns(std::vector<std::vector<int>> runs, QStringList titles);
  const std::vector<std::vector<int>>& foldedRuns() const { return runs_; }
  /// The run a row stands for, or -1 (scopeAt() of a run's row is its first member).
  int runAt(const QModelIndex& index) const;
  /// A run's row.
  QModelIndex indexOfRun(int run, int column = 0) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  const ir::ModuleHierarchy* hierarchy() const { return program_ ? program_->hierarchy.get() : nullptr; }
  // Row ids: a scope's is its index, a run's the hierarchy's size plus the run.
  void buildRows();
  const std::vector<int>& rowsOf(int id) const;

  LoadedProgramPtr program_;
  std::vector<std::vector<int>> runs_;
  QStringList run_titles_;
  std::vector<std::vector<int>> rows_;  // per scope: its rows' ids (runs folded)
  std::vector<std::vector<int>> run_rows_;  // per run: its rows' ids (its members, the runs inside it folded)
  std::vector<int> parent_id_;      // per id
  std::vector<int> row_in_parent_;  // per id
  std::vector<double> time_ms_;     // per scope (nested included)
  double total_ms_ = 0;
};

}  // namespace exportlens::ui
