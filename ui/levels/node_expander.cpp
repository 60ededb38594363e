#include "ui/levels/node_expander.h"

#include "engine/layout/layout_graph.h"
#include "engine/passes/decomposition_table.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_item.h"
#include "ui/core/node_display.h"
#include "ui/core/node_metrics.h"

namespace exportlens::ui {
namespace {

std::shared_ptr<const ExpansionResult> make_expansion(const LoadedProgramPtr& program, const QString& node,
                                                      const QString& table, const NodeMetrics& metrics) {
  const ir::Node* target = program->graph().find(node.toStdString());
  if (!target) throw std::invalid_argument("no node '" + node.toStdString() + "' in this program");
  auto result = std::make_shared<ExpansionResult>();
  result->program = program;
  result->node = node;
  result->table = table;
  result->rules = passes::decomposition_table(table.toStdString());
  result->expansion = passes::expand_node(*target, result->rules);  // its `rule` points into `rules`
  const ir::GraphSignature& signature = program->program->signature;  // placeholders: the node's inputs
  layout::LayoutOptions options;
  options.cluster_by_module = false;  // one node's decomposition: no module boxes
  options.node_size = [&](const ir::Node& n) { return metrics.boxSize(display_label(n, signature)); };
  result->layout = layout::layout_graph(result->expansion.graph.graph, options);
  return result;
}

}  // namespace

NodeExpander::NodeExpander(GraphScene* scene, QObject* parent) : QObject(parent), scene_(scene) {
  // The canvas lays out again when a module scope opens or closes: each
  // callout follows its node, and hides while the node is inside a closed box.
  connect(scene_, &GraphScene::pictureChanged, this, [this] {
    for (auto it = items_.cbegin(); it != items_.cend(); ++it) {
      if (!it.value()) continue;
      NodeItem* anchor = scene_->nodeItem(it.key());
      it.value()->setVisible(anchor != nullptr);
      if (!anchor) continue;
      it.value()->setAnchor(anchor->box());
      scene_->setSceneRect(scene_->sceneRect().united(it.value()->sceneBoundingRect().adjusted(-40, -40, 40, 40)));
    }
  });
}

NodeExpander::~NodeExpander() = default;  // jobs_ waits for the running expansions

void NodeExpander::setProgram(const LoadedProgramPtr& program, const QString& table) {
  if (program == program_ && table == table_) return;  // shown again: its expansions stay
  for (const auto& item : std::as_const(items_))
    if (item) delete item.data();
  items_.clear();
  program_ = program;
  table_ = table;
}

bool NodeExpander::canExpand(const QString& node) const {
  const ir::Node* n = program_ ? program_->graph().find(node.toStdString()) : nullptr;
  return n && n->op == ir::OpKind::CallFunction && n->target.is_torch_op();
}

ExpansionItem* NodeExpander::item(const QString& node) const { return items_.value(node).data(); }

void NodeExpander::expand(const QString& node) {
  if (ExpansionItem* existing = item(node)) {
    existing->setCollapsed(false);
    emit expanded(node);
    return;
  }
  if (!canExpand(node)) {
    emit failed(node, tr("%1 is not an op call: nothing to expand").arg(node));
    return;
  }
  jobs_.start(
      [program = program_, node, table = table_, metrics = NodeMetrics(node_font_)](JobContext&,
                                                                                     ExpansionPtr& out) {
        out = make_expansion(program, node, table, metrics);
      },
      [this, node](const JobOutcome<ExpansionPtr>& outcome) { finish(outcome, node); });
}

void NodeExpander::finish(const JobOutcome<ExpansionPtr>& outcome, const QString& node) {
  if (!outcome.ok() || !outcome.value) {
    emit failed(node, outcome.error);
    return;
  }
  // Made for a program the canvas no longer shows, or expanded twice meanwhile: drop it.
  if (outcome.value->program != program_ || item(node)) return;
  NodeItem* anchor = scene_->nodeItem(node);
  if (!anchor) return;
  auto* expansion = new ExpansionItem(outcome.value, anchor->box(), scene_->canvasStyle());
  scene_->addItem(expansion);
  scene_->setSceneRect(scene_->sceneRect().united(expansion->sceneBoundingRect().adjusted(-40, -40, 40, 40)));
  items_.insert(node, expansion);
  emit expanded(node);
}

void NodeExpander::remove(const QString& node) {
  if (ExpansionItem* existing = item(node)) delete existing;
  items_.remove(node);
}

}  // namespace exportlens::ui
