#pragma once
// The constants a compiled model holds (weights, buffers, lifted and folded
// tensors): the wrapper's name, the module's name, kind, dtype, shape and bytes.
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

class CompiledSession;

class ConstantsModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Name, OriginalName, Kind, Dtype, Shape, Bytes };
  explicit ConstantsModel(CompiledSession* session, QObject* parent = nullptr);

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;
  QVariant sortKey(int row, int column) const override;

 private:
  CompiledSession* session_;
};

}  // namespace exportlens::ui
