#pragma once
// The files of a compiled model as the package stores them: the wrapper and
// kernel sources (open in the source viewer), metadata, provenance, weights
// and the shared library, listed with its size and never loaded.
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

class CompiledSession;

class CompiledFilesModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Entry, Role, Size };
  explicit CompiledFilesModel(CompiledSession* session, QObject* parent = nullptr);
  /// The archive entry of `row`, and whether it opens in the source viewer.
  QString entryAt(int row) const;
  bool isText(int row) const;

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;
  QVariant toolTip(int row, int column) const override;
  QVariant sortKey(int row, int column) const override;

 private:
  CompiledSession* session_;
};

}  // namespace exportlens::ui
