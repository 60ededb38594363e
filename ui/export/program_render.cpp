#include "ui/export/program_render.h"

#include <QApplication>
#include <QEventLoop>
#include <QFileInfo>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_item.h"
#include "ui/core/program_presentation.h"

namespace exportlens::ui {

RenderResult render_program_image(std::shared_ptr<const ir::ExportedProgram> program, ImageFormat format,
                                  const QString& path, const ImageOptions& options) {
  const QFont font = QApplication::font();
  PresentationRequest request{path, QFileInfo(path).fileName(), NodeMetrics(font), cluster_label_height(font),
                              std::make_shared<CancelToken>()};
  const LoadedProgramPtr loaded = present_program(std::move(program), request);
  GraphScene scene;
  scene.setStyle(QApplication::palette(), font);
  scene.setProgram(loaded);
  // The whole graph: every module scope open and the weights as nodes, as
  // `exportlens dot` lists it (the window opens collapsed, weights folded).
  scene.setWeightsShown(true);
  if (const ir::ModuleHierarchy* h = scene.hierarchy()) scene.expandToDepth(int(h->scopes.size()) + 1);
  QEventLoop wait;  // the scene lays out off the calling thread
  while (scene.isLayingOut()) wait.processEvents(QEventLoop::WaitForMoreEvents, 50);
  const QRectF drawn = scene.itemsBoundingRect();
  ImageOptions opts = options;
  if (!opts.background.isValid()) opts.background = scene.backgroundBrush().color();
  write_scene_image(scene, drawn, format, path, opts);
  return {int(scene.nodeItems().size()), drawn.size()};
}

}  // namespace exportlens::ui
