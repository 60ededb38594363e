#include "ui/canvas/graph_scene.h"

#include <QApplication>

#include "ui/canvas/cluster_item.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/node_category.h"
#include "ui/canvas/node_item.h"
#include "ui/core/node_display.h"
#include "ui/core/program_model.h"

namespace exportlens::ui {
namespace {

constexpr qreal kSceneMargin = 40;

QRectF to_qt(const layout::Rect& r) { return {r.x, r.y, r.width, r.height}; }

}  // namespace

GraphScene::GraphScene(QObject* parent)
    : QGraphicsScene(parent), style_(std::make_unique<CanvasStyle>(QApplication::palette(), QApplication::font())) {
  setItemIndexMethod(BspTreeIndex);
  setBackgroundBrush(style_->palette.background());
  connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

GraphScene::~GraphScene() {
  // Items are deleted while our members still live, without selection signals.
  blockSignals(true);
  clear();
}

void GraphScene::setStyle(const QPalette& palette, const QFont& font) {
  auto next = std::make_unique<CanvasStyle>(palette, font);
  for (auto* item : std::as_const(nodes_)) item->setStyle(next.get());
  for (auto* item : std::as_const(edges_)) item->setStyle(next.get());
  for (auto* item : std::as_const(clusters_)) item->setStyle(next.get());
  for (auto* item : std::as_const(cluster_labels_)) item->setStyle(next.get());
  style_ = std::move(next);
  setBackgroundBrush(style_->palette.background());
}

void GraphScene::setProgram(const LoadedProgramPtr& program) {
  {
    const QSignalBlocker quiet(this);  // clearing is not a user's deselection
    clear();
  }
  nodes_.clear();
  edges_.clear();
  clusters_.clear();
  cluster_labels_.clear();
  if (!program) {
    setSceneRect(QRectF());
    return;
  }
  const layout::GraphLayout& layout = program->layout;
  for (const auto& cluster : layout.clusters) {
    auto* item = new ClusterItem(cluster, style_.get());
    item->setZValue(-3 + 0.01 * cluster.depth);
    addItem(item);
    clusters_.append(item);
    auto* label = new ClusterLabelItem(*item, style_.get());
    label->setZValue(-0.3);  // above edges (-1, highlighted -0.5), below nodes (0)
    addItem(label);
    cluster_labels_.append(label);
  }
  for (const auto& route : layout.edges) {
    auto* item = new EdgeItem(route, style_.get());
    item->setZValue(-1);
    addItem(item);
    edges_.append(item);
  }
  const ir::GraphSignature& signature = program->program->signature;
  for (const auto& box : layout.nodes) {
    const ir::Node* node = program->graph().find(box.name);
    if (!node) continue;
    auto* item = new NodeItem(*node, categorize(*node, signature), display_label(*node, signature),
                              to_qt(box.rect()), style_.get());
    addItem(item);
    nodes_.insert(item->nodeName(), item);
  }
  setSceneRect(to_qt(layout.bounds).adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin));
}

void GraphScene::setNodeHeat(const QHash<QString, qreal>& fractions, const QHash<QString, QString>& labels) {
  for (auto it = nodes_.cbegin(); it != nodes_.cend(); ++it)
    (*it)->setHeat(fractions.value(it.key(), -1), labels.value(it.key()));
}

void GraphScene::setRunTimes(const NodeRunTimes& times) {
  run_times_ = times;
  if (!heat_shown_) return setNodeHeat({});
  const QHash<QString, qreal> fractions = heat_fractions(times);
  QHash<QString, QString> labels;
  for (auto it = fractions.cbegin(); it != fractions.cend(); ++it) labels.insert(it.key(), run_time_text(times[it.key()]));
  setNodeHeat(fractions, labels);
}

void GraphScene::setHeatShown(bool shown) {
  heat_shown_ = shown;
  setRunTimes(run_times_);
}

QRectF GraphScene::startFocus() const {
  // Where the data enters; without user inputs, the top of the graph.
  QRectF focus;
  for (const NodeItem* item : std::as_const(nodes_))
    if (item->category() == NodeCategory::UserInput) focus = focus.united(item->box());
  if (focus.isNull()) {
    for (const NodeItem* item : std::as_const(nodes_))
      if (focus.isNull() || item->box().top() < focus.top()) focus = item->box();
  }
  return focus;
}

void GraphScene::selectNode(const QString& name) {
  following_ = true;
  NodeItem* target = nodes_.value(name);
  for (QGraphicsItem* item : selectedItems())
    if (item != target) item->setSelected(false);
  if (target) target->setSelected(true);
  following_ = false;
  highlightEdgesOf(name);
}

void GraphScene::onSelectionChanged() {
  if (following_) return;
  const auto selected = selectedItems();
  QString name;
  for (QGraphicsItem* item : selected)
    if (item->type() == NodeItem::Type) name = static_cast<NodeItem*>(item)->nodeName();
  highlightEdgesOf(name);
  emit nodeSelected(name);
}

void GraphScene::highlightEdgesOf(const QString& name) {
  for (auto* edge : std::as_const(edges_))
    edge->setHighlighted(!name.isEmpty() && (edge->from() == name || edge->to() == name));
}

void GraphScene::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programChanged, this, [this, model] {
    setProgram(model->loaded());
    setRunTimes(model->runTimes());
  });
  connect(model, &ProgramModel::runFinished, this, [this, model] { setRunTimes(model->runTimes()); });
  connect(model, &ProgramModel::selectionChanged, this, &GraphScene::selectNode);
  connect(this, &GraphScene::nodeSelected, model, &ProgramModel::selectNode);
}

}  // namespace exportlens::ui
