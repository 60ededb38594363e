#pragma once
// The Run dock: inputs (random from the signature with a seed, or a
// torch.save'd file), the device, Run / Cancel with progress; then the
// outputs (shape, dtype, min / max / mean, difference from the CPU for GPU
// runs), the total time and the per-node times, which can also tint the canvas.
#include <QWidget>

#include <functional>

#include "ui/core/loaded_program.h"
#include "ui/run/run_outcome.h"

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;

namespace exportlens::ui {

class NodeTimesModel;
class ProgramModel;
class RunOutputsModel;
class RunWorker;

class RunPanel : public QWidget {
  Q_OBJECT
 public:
  RunPanel(RunWorker* worker, QWidget* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);
  /// Runs the model's opened program; a run's per-node times go to the model.
  void follow(ProgramModel* model);
  RunSettings settings() const;
  void setSettings(const RunSettings& settings);

  /// Devices offered: "cpu", "cuda" (item data); shared with the toolbar's combo.
  QComboBox* deviceBox() const { return device_; }
  QAction* heatAction() const { return heat_; }
  QPushButton* runButton() const { return run_; }
  QString messageText() const;
  RunOutputsModel* outputsModel() const { return outputs_; }
  NodeTimesModel* timesModel() const { return times_; }
  QTableView* outputsTable() const { return outputs_table_; }
  QTableView* timesTable() const { return times_table_; }
  /// The last finished outcome (empty before the first).
  const RunOutcome& lastOutcome() const { return last_; }

  /// Asked before a run of a program calling ops that do more than compute
  /// (each line: node, op, what it does); true runs it with those ops allowed.
  /// The default asks the user in a dialog.
  using OpApproval = std::function<bool(const QStringList& refused)>;
  void setOpApproval(OpApproval approval) { approve_ops_ = std::move(approval); }

 public slots:
  void runNow();

 signals:
  void nodeActivated(const QString& name);

 private:
  void buildControls();
  void showStarted();
  void showIdle();
  void showProgress(int percent, const QString& stage);
  void showOutcome(const RunOutcome& outcome);
  void showCancelled();
  void showMessage(const QString& text, bool error);
  void updateDeviceNote();
  void updateInputsMode();
  void chooseInputsFile();
  void remember() const;

  bool approveRefusedOps(RunSettings& settings);

  RunWorker* worker_;
  OpApproval approve_ops_;
  LoadedProgramPtr program_;
  ProgramModel* model_ = nullptr;
  RunOutcome last_;
  RunOutputsModel* outputs_;
  NodeTimesModel* times_;
  QSortFilterProxyModel* sorted_times_;

  QRadioButton* random_ = nullptr;
  QRadioButton* from_file_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QLineEdit* file_ = nullptr;
  QPushButton* browse_ = nullptr;
  QComboBox* device_ = nullptr;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* message_ = nullptr;
  QAction* heat_ = nullptr;
  QTableView* outputs_table_ = nullptr;
  QTableView* times_table_ = nullptr;
};

}  // namespace exportlens::ui
