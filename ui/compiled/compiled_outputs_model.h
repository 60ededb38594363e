#pragma once
// The latest run of the compiled model, output by output: what it computed
// and how it compares with the exported program as ExportLens interprets it
// on the same inputs (max |Δ|, max relative error, torch.testing's verdict),
// or why it could not be compared.
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

class CompiledSession;

class CompiledOutputsModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Output, Value, MaxAbs, MaxRel, Verdict };
  explicit CompiledOutputsModel(CompiledSession* session, QObject* parent = nullptr);

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;
  QVariant otherRole(int row, int column, int role) const override;

 private:
  CompiledSession* session_;
};

}  // namespace exportlens::ui
