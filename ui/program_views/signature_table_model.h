#pragma once
// The graph signature as a table: one row per input spec, then one per
// output spec; columns kind, name, target, persistent and shape (the file's,
// or the one a re-solve of the dynamic_shapes spec gives).
#include <QAbstractTableModel>

#include "ui/core/loaded_program.h"
#include "ui/core/node_name_role.h"
#include "ui/core/node_solve_facts.h"

namespace exportlens::ui {

class ProgramModel;

class SignatureTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Kind, Name, Target, Persistent, Shape, ColumnCount };

  explicit SignatureTableModel(QObject* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);
  /// Shows the model's program (setProgram on each change).
  void follow(ProgramModel* model);
  /// Shapes from a solve (empty: the file's).
  void setSolved(const NodeSolveFactsMap& facts);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  /// The graph node a row names (placeholder or returned value), or empty.
  QString nodeAt(int row) const;
  /// The first row naming `node`, or -1.
  int rowOf(const QString& node) const;

 private:
  struct Row {
    bool input;
    QString kind, name, target, persistent;
    QString node;  // empty for constants
  };
  QString shapeOf(const Row& row) const;

  QVector<Row> rows_;
  LoadedProgramPtr program_;
  NodeSolveFactsMap solved_;
};

}  // namespace exportlens::ui
