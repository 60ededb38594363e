#pragma once
// The Numerics dock: what B is (a dtype, an IR level, the device), the
// metric and the inputs; Run / Cancel with progress; then the verdict (the
// outputs within tolerance or not, the first node beyond tolerance, the first
// to introduce error, where a NaN or Inf was first made) and every node in a
// table sorted by the error it introduced, worst first. A click selects the
// node and shows its values in the tensor viewer. The graph is
// coloured by the metric between two thresholds the user edits; node data in
// Model Explorer's format is exported and imported here.
#include <QWidget>

#include <QHash>

#include <functional>
#include <memory>

#include "engine/numerics/numerics_run.h"
#include "ui/core/loaded_program.h"
#include "ui/numerics/numerics_settings.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace exportlens::ui {

class NumericsOverlay;
class NumericsTableModel;
class NumericsWorker;
struct NumericsOutcome;

class NumericsPanel : public QWidget {
  Q_OBJECT
 public:
  NumericsPanel(NumericsWorker* worker, NumericsOverlay* overlay, QWidget* parent = nullptr);

  void setProgram(const LoadedProgramPtr& program);
  NumericsSettings settings() const;
  void setSettings(const NumericsSettings& settings);

  QComboBox* wayBox() const { return way_; }
  QComboBox* deviceBox() const { return device_; }
  QComboBox* metricBox() const { return metric_; }
  QPushButton* runButton() const { return run_; }
  QTableView* table() const { return table_; }
  NumericsTableModel* tableModel() const { return model_; }
  QSortFilterProxyModel* sortedModel() const { return sorted_; }
  QCheckBox* colourCheck() const { return colour_; }
  QLineEdit* lowEdit() const { return low_; }
  QLineEdit* highEdit() const { return high_; }
  QString verdictText() const;
  std::shared_ptr<const numerics::NumericsResult> result() const { return result_; }

  /// Writes the numerics figures as Model Explorer node data; false (with `error`) when it cannot.
  bool exportNodeData(const QString& path, QString* error = nullptr) const;
  /// Writes the last run's per-node times (ms) as node data.
  bool exportRunTimes(const QString& path, QString* error = nullptr) const;
  /// Where the last run's per-node times come from (the Run dock's run).
  void setRunTimesSource(std::function<QHash<QString, double>()> source) { run_times_ = std::move(source); }
  /// Colours the graph by a node-data file's values (the graph whose names match best).
  bool importNodeData(const QString& path, QString* error = nullptr);

 public slots:
  void runNow();

 signals:
  /// A row was clicked: select the node and show its values.
  void nodeActivated(const QString& name);
  void statusMessage(const QString& text);

 private:
  void onFinished(const NumericsOutcome& outcome);
  void setBusy(bool busy);
  void showOverlay();
  void thresholdsEdited();
  void overlayChanged();

  NumericsWorker* worker_;
  NumericsOverlay* overlay_;
  LoadedProgramPtr program_;
  std::function<QHash<QString, double>()> run_times_;
  std::shared_ptr<const numerics::NumericsResult> result_;
  QComboBox* way_;
  QComboBox* device_;
  QComboBox* metric_;
  QLineEdit* inputs_;
  QPushButton* run_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* verdict_;
  NumericsTableModel* model_;
  QSortFilterProxyModel* sorted_;
  QTableView* table_;
  QCheckBox* colour_;
  QLineEdit* low_;
  QLineEdit* high_;
  QLabel* overlay_title_;
};

}  // namespace exportlens::ui
