#pragma once
// Item models over one export attempt's diagnosis (engine/capture/
// attempt_diagnosis.h): the violated spec entries, the guards (each
// expandable to the stack behind it), the symbols, the specializations and
// the data-dependent values. Rows that stand for graph nodes answer
// NodeNameRole, so the selection can follow them.
#include <QAbstractItemModel>

#include <memory>

#include "engine/capture/attempt_diagnosis.h"
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

using DiagnosisPtr = std::shared_ptr<const capture::AttemptDiagnosis>;

/// "cv.py:12" for a frame.
QString short_location(const capture::PythonFrame& frame);

class ViolatedEntriesModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Dim, Input, Fixes, Message };
  explicit ViolatedEntriesModel(QObject* parent = nullptr);
  void setDiagnosis(const DiagnosisPtr& diagnosis);

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;
  QString rowNode(int row) const override;
  QVariant toolTip(int row, int column) const override;

 private:
  DiagnosisPtr d_;
};

/// The guards in torch's order; each row's children are the frames of its
/// stack, outermost first, the user's frames in bold.
class GuardTreeModel : public QAbstractItemModel {
  Q_OBJECT
 public:
  enum Column { Guard, Line, Code, Nodes, ColumnCount };
  explicit GuardTreeModel(QObject* parent = nullptr);
  void setDiagnosis(const DiagnosisPtr& diagnosis);
  /// The guard rows that name `node` among their nodes.
  QList<int> guardsOfNode(const QString& node) const;

  QModelIndex index(int row, int column, const QModelIndex& parent = QModelIndex()) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  DiagnosisPtr d_;
  capture::FrameFilter frames_;
};

class SymbolsModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Symbol, Input, SpecEntry, Range, Example, MadeAt };
  explicit SymbolsModel(QObject* parent = nullptr);
  void setDiagnosis(const DiagnosisPtr& diagnosis);

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;

 private:
  DiagnosisPtr d_;
};

class SpecializationsModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Input, Value, Reason, Line, Code };
  explicit SpecializationsModel(QObject* parent = nullptr);
  void setDiagnosis(const DiagnosisPtr& diagnosis);

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;

 private:
  DiagnosisPtr d_;
};

/// The data-dependent values of a diagnosis as a page of text: for each, the
/// expression the trace needed, the line that made the value (`.item()`,
/// `nonzero`), the line that needed it, and torch's torch._check hints.
QString data_dependent_html(const capture::AttemptDiagnosis& diagnosis);

}  // namespace exportlens::ui
