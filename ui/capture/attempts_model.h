#pragma once
// The Attempts table: one row per torch.export call of the captured script,
// ✓ or ✗, the model, the user line of the call, the failure class and the time;
// a re-run with an edited spec sits under the attempt it re-ran.
#include "ui/capture/capture_session.h"
#include "ui/core/node_table_model.h"

namespace exportlens::ui {

class AttemptsModel : public NodeTableModel {
  Q_OBJECT
 public:
  enum Column { Outcome, Index, Model, Line, Failure, Time };
  explicit AttemptsModel(CaptureSession* session, QObject* parent = nullptr);

 protected:
  int rows() const override;
  QVariant text(int row, int column) const override;
  QVariant toolTip(int row, int column) const override;
  QVariant sortKey(int row, int column) const override;
  QVariant otherRole(int row, int column, int role) const override;

 private:
  CaptureSession* session_;
};

}  // namespace exportlens::ui
