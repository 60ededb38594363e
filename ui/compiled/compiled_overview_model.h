#pragma once
// The compiled model at a glance, as rows of what and value: device,
// platform, machine, CPU ISA, compute capability, the archive and AOTI
// versions (every key of wrapper_metadata.json), its inputs and outputs by
// the wrapper's names, the pytree specs, where its weights live, whether it
// carries provenance, and what the reader left out.
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

class CompiledSession;

class CompiledOverviewModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { What, Value };
  explicit CompiledOverviewModel(CompiledSession* session, QObject* parent = nullptr);
  /// The value of the row titled `what`, or empty.
  QString value(const QString& what) const;

 protected:
  int rows() const override { return int(rows_.size()); }
  QVariant text(int row, int column) const override;
  QVariant toolTip(int row, int column) const override;

 private:
  void rebuild();
  CompiledSession* session_;
  QList<QPair<QString, QString>> rows_;
};

}  // namespace exportlens::ui
