#pragma once
// File › Save As… (Ctrl+Shift+S) and File › Export: the program on screen
// as a .pt2, the graph as SVG / PNG / PDF (what the view shows, or the whole
// graph), the program as Graphviz DOT or as the .pt2's JSON. The shell places
// the action and the menu; the no-dialog slots are what they call (and what
// tests call).
#include <QObject>
#include <QString>

#include "ui/core/background_jobs.h"
#include "ui/export/graph_image.h"

class QAction;
class QMenu;
class QWidget;

namespace exportlens::ui {

class GraphView;
class ProgramModel;

class ExportActions : public QObject {
  Q_OBJECT
 public:
  ExportActions(ProgramModel* model, GraphView* view, QWidget* window);
  ~ExportActions() override;

  QAction* saveAsAction() const { return save_as_; }
  QMenu* exportMenu() const { return menu_; }
  bool isSaving() const { return jobs_.isBusy(); }

 public slots:
  /// Writes the program on screen to `path` on a worker; saved() or failed() follows.
  void saveAs(const QString& path);
  /// `whole`: the whole graph; else the part the view shows. Emits exported() or failed().
  void exportGraph(const QString& path, ImageFormat format, bool whole);
  void exportDot(const QString& path);
  void exportJson(const QString& path);

 signals:
  void saved(const QString& path);
  void exported(const QString& path);
  void failed(const QString& message);
  /// A line for the status bar.
  void message(const QString& text);

 private:
  void updateEnabled();
  QString askPath(const QString& title, const QString& suffix, const QString& filter);
  void writeText(const QString& path, const std::string& text);

  ProgramModel* model_;
  GraphView* view_;
  QWidget* window_;
  QAction* save_as_ = nullptr;
  QMenu* menu_ = nullptr;
  BackgroundJobs<QString> jobs_;
};

}  // namespace exportlens::ui
