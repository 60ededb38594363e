#pragma once
// Numerics in the window: the Numerics dock (numerics_panel.h) over the
// shown program, its figures drawn on the canvas (numerics_overlay.h), and
// the tensor viewer, which follows the node clicked in the dock and opens
// from the Inspector ("Open in the tensor viewer"), a row of the signature
// table, or View › Tensor Values of Selected Node (a weight's stored values,
// a graph input's, or a computed value in A and B).
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QAction;
class QDockWidget;
class QMainWindow;

namespace exportlens::ui {

class GraphScene;
class NumericsOverlay;
class NumericsPanel;
class NumericsWorker;
class ProgramModel;
class TensorViewer;
struct TensorValues;

struct NumericsParts {
  QMainWindow* window;
  ProgramModel* model;
  GraphScene* scene;
  /// Shows a line in the status bar.
  std::function<void(const QString&)> status;
};

class NumericsController : public QObject {
  Q_OBJECT
 public:
  explicit NumericsController(const NumericsParts& parts);

  QDockWidget* dock() const { return dock_; }
  NumericsPanel* panel() const { return panel_; }
  NumericsWorker* worker() const { return worker_; }
  NumericsOverlay* overlay() const { return overlay_; }
  QAction* valuesAction() const { return values_action_; }
  /// The viewer opened last (null before one, or once closed).
  TensorViewer* lastViewer() const;

 public slots:
  /// Opens `node`'s values in a tensor viewer (reads or computes them first).
  void showValues(const QString& node);

 signals:
  void viewerOpened(exportlens::ui::TensorViewer* viewer);

 private:
  void onValues(const TensorValues& values);

  NumericsParts parts_;
  NumericsWorker* worker_;
  NumericsOverlay* overlay_;
  NumericsPanel* panel_;
  QDockWidget* dock_;
  QAction* values_action_;
  QPointer<TensorViewer> last_viewer_;
};

}  // namespace exportlens::ui
