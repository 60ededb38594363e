#include "ui/export/export_actions.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QScrollBar>

#include "engine/ir/dot_writer.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/core/program_model.h"
#include "ui/export/program_saving.h"

namespace exportlens::ui {

ExportActions::ExportActions(ProgramModel* model, GraphView* view, QWidget* window)
    : QObject(window), model_(model), view_(view), window_(window), jobs_(this) {
  save_as_ = new QAction(tr("Save &As…"), this);
  save_as_->setObjectName("saveAsAction");
  save_as_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  save_as_->setStatusTip(tr("Save the program shown (at its IR level) as a .pt2 that torch.export.load reads"));
  connect(save_as_, &QAction::triggered, this, [this] {
    const QString path = askPath(tr("Save Program As"), "pt2", tr("torch.export program (*.pt2)"));
    if (!path.isEmpty()) saveAs(path);
  });

  menu_ = new QMenu(tr("&Export"), window);
  menu_->setObjectName("exportMenu");
  for (const ImageFormat f : {ImageFormat::Svg, ImageFormat::Png, ImageFormat::Pdf}) {
    const QString upper = image_format_suffix(f).toUpper();
    menu_->addAction(tr("Whole Graph as %1…").arg(upper), this, [this, f] {
      const QString path = askPath(tr("Export Graph"), image_format_suffix(f), image_format_filter(f));
      if (!path.isEmpty()) exportGraph(path, f, true);
    })->setObjectName("exportWhole" + upper);
    menu_->addAction(tr("Current View as %1…").arg(upper), this, [this, f] {
      const QString path = askPath(tr("Export View"), image_format_suffix(f), image_format_filter(f));
      if (!path.isEmpty()) exportGraph(path, f, false);
    })->setObjectName("exportView" + upper);
  }
  menu_->addSeparator();
  menu_->addAction(tr("Program as &DOT…"), this, [this] {
    const QString path = askPath(tr("Export Program as DOT"), "dot", tr("Graphviz DOT (*.dot *.gv)"));
    if (!path.isEmpty()) exportDot(path);
  })->setObjectName("exportDot");
  menu_->addAction(tr("Program as &JSON…"), this, [this] {
    const QString path = askPath(tr("Export Program as JSON"), "json", tr("JSON (*.json)"));
    if (!path.isEmpty()) exportJson(path);
  })->setObjectName("exportJson");

  connect(model_, &ProgramModel::programChanged, this, &ExportActions::updateEnabled);
  connect(this, &ExportActions::failed, this, [this](const QString& message) {
    if (window_->isVisible()) QMessageBox::warning(window_, tr("Export"), message);
  });
  updateEnabled();
}

ExportActions::~ExportActions() = default;

void ExportActions::updateEnabled() {
  const bool has = model_->program() != nullptr;
  save_as_->setEnabled(has);
  menu_->setEnabled(has);
}

QString ExportActions::askPath(const QString& title, const QString& suffix, const QString& filter) {
  const auto& loaded = model_->loaded();
  const QString base = loaded ? QFileInfo(loaded->displayName).completeBaseName() : QStringLiteral("program");
  QString path = QFileDialog::getSaveFileName(window_, title, base + "." + suffix, filter + tr(";;All files (*)"));
  if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += "." + suffix;
  return path;
}

void ExportActions::saveAs(const QString& path) {
  const auto& loaded = model_->loaded();
  if (!loaded) return;
  emit message(tr("Saving %1…").arg(QFileInfo(path).fileName()));
  jobs_.start(
      [program = loaded->program, source = loaded->path, path](JobContext&, QString& out) {
        save_program(*program, source, path);
        out = path;
      },
      [this](JobOutcome<QString>& outcome) {
        if (!outcome.ok()) {
          emit message(tr("Saving failed"));
          emit failed(tr("Cannot save the program: %1").arg(outcome.error));
          return;
        }
        emit message(tr("Saved %1").arg(QFileInfo(outcome.value).fileName()));
        emit saved(outcome.value);
      });
}

void ExportActions::exportGraph(const QString& path, ImageFormat format, bool whole) {
  auto* scene = qobject_cast<GraphScene*>(view_->scene());
  if (!scene || !model_->program()) return;
  const QRectF shown = view_->mapToScene(view_->viewport()->rect()).boundingRect();
  const QRectF source = whole ? scene->itemsBoundingRect() : shown.intersected(scene->itemsBoundingRect());  // the drawing's part in view
  ImageOptions options;
  options.background = scene->backgroundBrush().color();  // the canvas's own (light or dark palette)
  if (!whole) options.margin = 0;
  try {
    write_scene_image(*scene, source, format, path, options);
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
    return;
  }
  emit message(tr("Exported %1").arg(QFileInfo(path).fileName()));
  emit exported(path);
}

void ExportActions::writeText(const QString& path, const std::string& text) {
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
      f.write(text.data(), qint64(text.size())) != qint64(text.size())) {
    emit failed(tr("Cannot write %1: %2").arg(path, f.errorString()));
    return;
  }
  emit message(tr("Exported %1").arg(QFileInfo(path).fileName()));
  emit exported(path);
}

void ExportActions::exportDot(const QString& path) {
  if (const auto* ep = model_->program()) writeText(path, ir::to_dot(*ep));
}

void ExportActions::exportJson(const QString& path) {
  const auto* ep = model_->program();
  if (!ep) return;
  std::string json;
  try {
    json = program_as_json(*ep);
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
    return;
  }
  writeText(path, json);
}

}  // namespace exportlens::ui
