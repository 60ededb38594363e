#include "ui/core/program_presentation.h"

#include <QFontMetricsF>
#include <QObject>

#include <cmath>

#include "engine/layout/layout_graph.h"
#include "ui/core/node_display.h"

namespace exportlens::ui {
namespace {

void check(const PresentationRequest& request) {
  if (request.token && request.token->is_cancelled()) throw layout::Cancelled();
}

layout::GraphLayout lay_out(const ir::ExportedProgram& program, const PresentationRequest& request,
                            const PresentationProgress& progress) {
  const ir::Graph& graph = program.graph();
  layout::LayoutOptions options;
  options.node_size = [&](const ir::Node& node) {
    return request.metrics.boxSize(display_label(node, program.signature));
  };
  options.cluster_label_height = request.clusterLabelHeight;
  const QString stage = QObject::tr("Laying out %1 nodes…").arg(static_cast<qulonglong>(graph.size()));
  auto on_progress = [&](double fraction, std::string_view) {
    if (progress) progress(0.9 * fraction, stage);
  };
  return layout::layout_graph(graph, options, request.token.get(), on_progress);
}

// The dynamic-shapes views need this; a program it cannot handle still opens.
void prepare_shapes(LoadedProgram& loaded, const ir::ExportedProgram& program) {
  try {
    loaded.prepared = std::make_shared<const ops::PreparedProgram>(program);
  } catch (const std::exception& e) {
    loaded.prepareError = QString::fromUtf8(e.what());
  }
}

}  // namespace

qreal cluster_label_height(const QFont& font) { return std::ceil(QFontMetricsF(font).height()) + 4; }

std::shared_ptr<LoadedProgram> present_program(std::shared_ptr<const ir::ExportedProgram> program,
                                               const PresentationRequest& request,
                                               const PresentationProgress& progress) {
  auto loaded = std::make_shared<LoadedProgram>();
  loaded->path = request.path;
  loaded->displayName = request.displayName;
  loaded->layout = lay_out(*program, request, progress);
  check(request);
  if (progress) progress(0.92, QObject::tr("Printing the program…"));
  loaded->printed = ir::print_program_annotated(*program);
  check(request);
  if (progress) progress(0.95, QObject::tr("Preparing symbolic shapes…"));
  prepare_shapes(*loaded, *program);
  loaded->program = std::move(program);
  return loaded;
}

}  // namespace exportlens::ui
