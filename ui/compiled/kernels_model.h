#pragma once
// The kernels a compiled model's wrapper launches, in launch order: the
// program nodes each computes (as mapped onto the program shown), how that is
// known (provenance, the wrapper's source comments), where it is defined and
// launched, and its time in the latest run.
#include <QHash>

#include "ui/core/node_table_model.h"

namespace exportlens::ui {

class CompiledSession;

class KernelsModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Kernel, Nodes, MappedBy, DefinedIn, Launch, Time };
  explicit KernelsModel(CompiledSession* session, QObject* parent = nullptr);
  /// The row of kernel `kernel` (rows are kernels in launch order).
  int rowOfKernel(int kernel) const { return kernel; }

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;
  QVariant toolTip(int row, int column) const override;
  QVariant sortKey(int row, int column) const override;
  QVariant otherRole(int row, int column, int role) const override;

 private:
  CompiledSession* session_;
  QHash<int, double> milliseconds_;
};

}  // namespace exportlens::ui
