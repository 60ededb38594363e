#include "ui/core/program_presentation.h"

#include <QFontMetricsF>
#include <QObject>

#include <cmath>

#include "engine/ops/program_solver.h"
#include "ui/core/node_display.h"
#include "ui/core/scope_display.h"

namespace exportlens::ui {
namespace {

void check(const PresentationRequest& request) {
  if (request.token && request.token->is_cancelled()) throw Cancelled();
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

std::shared_ptr<layout::ScopedLayoutEngine> make_layout_engine(const LoadedProgram& loaded, const NodeMetrics& metrics,
                                                               qreal labelHeight, bool weightsFolded) {
  const ir::ExportedProgram& program = *loaded.program;
  const ir::ModuleHierarchy& hierarchy = *loaded.hierarchy;
  const ir::WeightFolding* folding = loaded.weights.get();
  layout::ScopedLayoutOptions options;
  const ir::GraphSignature* signature = &program.signature;
  options.node_size = [metrics, signature](const ir::Node& node) {
    return metrics.boxSize(display_label(node, *signature));
  };
  options.collapsed_size = [metrics, &hierarchy, nodes = program.graph().nodes(), folding, weightsFolded](int scope) {
    const ScopeText text = scope_text(hierarchy, scope, nodes, weightsFolded ? folding : nullptr);
    return metrics.scopeBoxSize(text.title, text.detail, text.boundary);
  };
  options.label_height = labelHeight;
  if (weightsFolded) {
    options.shown.reserve(folding->folded.size());
    for (bool folded : folding->folded) options.shown.push_back(!folded);
  } else {
    options.home = layout::ScopedLayoutEngine::homes_beside_users(program.graph(), hierarchy, folding->folded);
  }
  return std::make_shared<layout::ScopedLayoutEngine>(program.graph(), hierarchy, std::move(options));
}

std::shared_ptr<LoadedProgram> present_program(std::shared_ptr<const ir::ExportedProgram> program,
                                               const PresentationRequest& request,
                                               const PresentationProgress& progress) {
  auto loaded = std::make_shared<LoadedProgram>();
  loaded->path = request.path;
  loaded->displayName = request.displayName;
  loaded->program = std::move(program);
  const ir::ExportedProgram& ep = *loaded->program;
  if (progress) progress(0.0, QObject::tr("Reading the module hierarchy of %1 nodes…").arg(ep.graph().size()));
  loaded->hierarchy = std::make_shared<const ir::ModuleHierarchy>(ir::module_hierarchy(ep.graph()));
  loaded->weights = std::make_shared<const ir::WeightFolding>(ir::fold_weights(ep));
  loaded->layouts = make_layout_engine(*loaded, request.metrics, request.clusterLabelHeight, true);
  check(request);
  // No whole-graph layout: the upper levels of the module tree, one dot run per open scope.
  loaded->openingDepth = loaded->layouts->opening_depth(kOpeningItemBudget);
  loaded->opening = layout::ScopeExpansion::to_depth(*loaded->hierarchy, loaded->openingDepth);
  if (progress) progress(0.1, QObject::tr("Laying out %1 module levels…").arg(loaded->openingDepth + 1));
  loaded->openingPicture =
      std::make_shared<const layout::ScopedLayout>(loaded->layouts->compose(loaded->opening, request.token.get()));
  check(request);
  if (progress) progress(0.8, QObject::tr("Printing the program…"));
  loaded->printed = ir::print_program_annotated(ep);
  check(request);
  if (progress) progress(0.9, QObject::tr("Preparing symbolic shapes…"));
  prepare_shapes(*loaded, ep);
  return loaded;
}

}  // namespace exportlens::ui
