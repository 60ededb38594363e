#pragma once
// The module tree with repeated structure folded, as an item model: a stack
// is one row "6 × Block (blocks.0 … blocks.5)" holding its differing
// instances (flagged with a badge, their differences in the tooltip) and
// its representative instance's children; any other module call is a row of
// its own. Rows answer NodeNameRole (a differing instance: the first node a
// difference names; a module call or stack: its first op), so a click
// selects a node everywhere.
#include <QAbstractItemModel>

#include <memory>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/structure/repeated_structure.h"
#include "ui/core/loaded_program.h"

namespace exportlens::ui {

/// One program's analysis, immutable once made (on a worker).
struct StructureSnapshot {
  LoadedProgramPtr program;  // keeps the nodes alive
  ir::ModuleHierarchy hierarchy;
  structure::RepeatedStructure structure;
  bool timed = false;        // run times were weighed
  QString note;              // why guards could not be attributed, if so
};
using StructureSnapshotPtr = std::shared_ptr<const StructureSnapshot>;

class RepeatedStructureModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { Module, Class, Ops, Note, ColumnCount };
  enum class Kind { Scope, Stack, Odd };
  static constexpr int KindRole = Qt::UserRole + 151;
  static constexpr int IdRole = Qt::UserRole + 152;  // scope, stack or odd-instance index

  explicit RepeatedStructureModel(QObject* parent = nullptr);

  void setSnapshot(StructureSnapshotPtr snapshot);
  const StructureSnapshotPtr& snapshot() const { return snapshot_; }
  /// The row of a stack, or of an odd instance (invalid when none).
  QModelIndex indexOfStack(int stack) const;
  QModelIndex indexOfOdd(int odd) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    Kind kind = Kind::Scope;
    int id = -1;
    int parent = -1;  // row index, -1 for top-level rows
    int position = 0;
    std::vector<int> children;
    size_t ops = 0;   // a stack: per instance
    QString node;     // NodeNameRole
  };
  void build();
  int addRow(Kind kind, int id, int parent);
  void addChildren(int row, const std::vector<structure::FoldedChild>& items);
  QModelIndex indexOfRow(int row) const;
  QString firstNode(const Row& row) const;
  size_t ops(const Row& row) const;
  QString tooltip(const Row& row) const;

  StructureSnapshotPtr snapshot_;
  std::vector<Row> rows_;
  std::vector<int> top_;
  std::vector<int> stack_row_, odd_row_;
  std::vector<ir::Node*> nodes_;
};

}  // namespace exportlens::ui
