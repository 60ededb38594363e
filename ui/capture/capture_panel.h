#pragma once
// The Export attempts dock: the Attempts table (one row per torch.export call
// of the captured script) over the attempt view of the current row, with
// Re-run (the script again, the spec being edited in place of that call's
// dynamic_shapes) and Capture Again with draft_export.
#include <QWidget>

class QPushButton;
class QSplitter;
class QTableView;

namespace exportlens::ui {

class AttemptView;
class AttemptsModel;
class CaptureSession;

class CapturePanel : public QWidget {
  Q_OBJECT
 public:
  explicit CapturePanel(CaptureSession* session, QWidget* parent = nullptr);

  QTableView* attemptsTable() const { return table_; }
  AttemptsModel* attemptsModel() const { return model_; }
  AttemptView* attemptView() const { return view_; }
  QPushButton* rerunButton() const { return rerun_; }
  QPushButton* draftButton() const { return draft_; }

 signals:
  void rerunRequested(int row);
  void draftRequested();

 private:
  void updateButtons();

  CaptureSession* session_;
  AttemptsModel* model_;
  QTableView* table_;
  AttemptView* view_;
  QPushButton* rerun_;
  QPushButton* draft_;
};

}  // namespace exportlens::ui
