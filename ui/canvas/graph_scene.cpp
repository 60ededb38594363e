#include "ui/canvas/graph_scene.h"

#include <QApplication>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "engine/layout/node_label.h"
#include "ui/canvas/cluster_item.h"
#include "ui/canvas/edge_item.h"
#include "ui/canvas/node_category.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/scope_item.h"
#include "ui/core/node_display.h"
#include "ui/core/program_model.h"
#include "ui/core/program_presentation.h"
#include "ui/core/qstring_from.h"
#include "ui/core/scope_display.h"

namespace exportlens::ui {
namespace {

constexpr qreal kSceneMargin = 40;

QRectF to_qt(const layout::Rect& r) { return {r.x, r.y, r.width, r.height}; }

QString scope_key(int scope) { return QStringLiteral("#%1").arg(scope); }

// "p_fc_weight  f32[4, 4]  64 B": a weight folded into a node, for its tooltip.
QString weight_line(const ir::Node& weight, const ir::GraphSignature& signature) {
  const ir::InputSpec* spec = signature.input_named(weight.name);
  QString text = qs(spec && spec->target ? *spec->target : weight.name).toHtmlEscaped();
  const std::string shape = layout::value_annotation(weight.value);
  if (!shape.empty()) text += QStringLiteral(" <code>%1</code>").arg(qs(shape).toHtmlEscaped());
  return text;
}

}  // namespace

GraphScene::GraphScene(QObject* parent)
    : QGraphicsScene(parent),
      style_(std::make_unique<CanvasStyle>(QApplication::palette(), QApplication::font())),
      base_font_(QApplication::font()) {
  setItemIndexMethod(BspTreeIndex);
  setBackgroundBrush(style_->palette.background());
  connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

GraphScene::~GraphScene() {
  // Items are deleted while our members still live, without selection signals.
  blockSignals(true);
  jobs_.dropAll();
  clear();
}

void GraphScene::setStyle(const QPalette& palette, const QFont& font) {
  auto next = std::make_unique<CanvasStyle>(palette, font);
  for (auto* item : std::as_const(nodes_)) item->setStyle(next.get());
  for (auto* item : std::as_const(edges_)) item->setStyle(next.get());
  for (auto* item : std::as_const(clusters_)) item->setStyle(next.get());
  for (auto* item : std::as_const(cluster_labels_)) item->setStyle(next.get());
  for (auto* item : std::as_const(scope_items_)) item->setStyle(next.get());
  style_ = std::move(next);
  base_font_ = font;
  setBackgroundBrush(style_->palette.background());
}

std::shared_ptr<layout::ScopedLayoutEngine> GraphScene::engine() const {
  if (!program_) return nullptr;
  return weights_shown_ && weights_engine_ ? weights_engine_ : program_->layouts;
}

void GraphScene::setProgram(const LoadedProgramPtr& program) {
  jobs_.dropAll();
  {
    const QSignalBlocker quiet(this);  // clearing is not a user's deselection
    clear();
  }
  own_.clear();
  nodes_.clear();
  edges_.clear();
  clusters_.clear();
  cluster_labels_.clear();
  scope_items_.clear();
  picture_.reset();
  weights_engine_.reset();
  weights_shown_ = false;
  pending_reveal_.clear();
  pending_scope_ = -1;
  anchor_ = -1;
  selected_.clear();
  runs_.clear();
  run_shown_.clear();
  run_folded_.clear();
  run_open_.clear();
  runs_of_.clear();
  run_box_of_.clear();
  program_ = program;
  program_nodes_ = program ? program->graph().nodes() : std::vector<ir::Node*>{};
  if (!program || !program->openingPicture) {
    expansion_ = {};
    setSceneRect(QRectF());
    emit pictureChanged();
    return;
  }
  expansion_ = program->opening;
  as_opened_ = expansion_;
  showPicture(program->openingPicture);
}

// ---- building the items ---------------------------------------------------------

void GraphScene::clearPicture() {
  // Items others added (expansion callouts) stay; ours go.
  QList<QGraphicsItem*> foreign;
  for (QGraphicsItem* item : items())
    if (!item->parentItem() && !own_.contains(item)) foreign.append(item);
  for (QGraphicsItem* item : std::as_const(foreign)) removeItem(item);
  {
    const QSignalBlocker quiet(this);
    clear();
  }
  for (QGraphicsItem* item : std::as_const(foreign)) addItem(item);
  own_.clear();
  nodes_.clear();
  edges_.clear();
  clusters_.clear();
  cluster_labels_.clear();
  scope_items_.clear();
}

void GraphScene::addNodeItem(int index, const QRectF& box) {
  const ir::Node& node = *program_nodes_[index];
  const ir::GraphSignature& signature = program_->program->signature;
  auto* item = new NodeItem(node, categorize(node, signature), display_label(node, signature), box, style_.get());
  if (!weights_shown_ && program_->weights) {
    const auto& weights = program_->weights->weights_of[index];
    if (!weights.empty()) {
      QStringList lines;
      for (int w : weights) lines << weight_line(*program_nodes_[w], signature);
      item->setFoldedWeights(static_cast<int>(weights.size()),
                             tr("<b>%n weight(s) folded in</b>", nullptr, int(weights.size())) + QStringLiteral("<br/>") +
                                 lines.join(QStringLiteral("<br/>")));
    }
  }
  addItem(item);
  own_.insert(item);
  nodes_.insert(item->nodeName(), item);
}

QString GraphScene::endName(const layout::DrawnItem& item) const {
  return item.kind == layout::DrawnItem::Kind::Node ? qs(program_nodes_[item.index]->name) : scope_key(item.index);
}

void GraphScene::addEdgeItem(const layout::ScopedLayout::Edge& edge) {
  std::set<int> tensors;
  for (const auto& [producer, consumer] : edge.members) tensors.insert(producer);
  auto* item = new EdgeItem(endName(edge.from), endName(edge.to), edge.curve, edge.arrow_tip,
                            static_cast<int>(tensors.size()), style_.get());
  if (tensors.size() > 1) {
    QStringList lines;
    for (int producer : tensors) {
      const ir::Node& node = *program_nodes_[producer];
      lines << QStringLiteral("<code>%1: %2</code>")
                   .arg(qs(node.name).toHtmlEscaped(), qs(layout::value_annotation(node.value)).toHtmlEscaped());
    }
    item->setToolTip(tr("<b>%n tensor(s)</b>", nullptr, int(tensors.size())) + QStringLiteral("<br/>") +
                     lines.join(QStringLiteral("<br/>")));
  }
  item->setZValue(-1);
  addItem(item);
  own_.insert(item);
  edges_.append(item);
}

void GraphScene::markWideFanOuts() {
  // A source drawn with more edges than anyone can follow (Core ATen's
  // symbolic sizes feed every view of every block: thousands) gets stubs:
  // a wall of long curves hides the graph and costs seconds a frame. Its
  // edges show whole while it or a target is selected.
  constexpr int kMaxCurves = 24;
  QHash<QString, int> fan_out;
  for (const EdgeItem* edge : std::as_const(edges_)) ++fan_out[edge->from()];
  for (EdgeItem* edge : std::as_const(edges_))
    if (const int n = fan_out.value(edge->from()); n > kMaxCurves) edge->setStub(n);
}

void GraphScene::showPicture(const PicturePtr& picture) {
  const ir::ModuleHierarchy& h = *program_->hierarchy;
  clearPicture();
  picture_ = picture;
  run_box_of_.clear();
  for (const auto& placed : picture->scopes) {
    const auto& scope = h[placed.scope];
    const QRectF box = to_qt(placed.rect);
    // The member drawn for a folded run says so (unless the fold did not take: its other members drawn).
    const int run = standsFor(placed.scope, *picture);
    const bool stands_for_run = run >= 0;
    if (stands_for_run) run_box_of_.insert(placed.scope, run);
    if (placed.expanded) {
      const QString title =
          stands_for_run ? tr("%1 · %2").arg(qs(scope.path), runs_[run].text.title) : qs(scope.label());
      auto* frame = new ClusterItem(placed.scope, qs(scope.path), title, scope.depth - 1, box, style_.get());
      frame->setZValue(-3 + 0.01 * scope.depth);
      addItem(frame);
      own_.insert(frame);
      clusters_.append(frame);
      auto* label = new ClusterLabelItem(*frame, style_.get());
      label->setZValue(-0.3);  // above edges (-1, highlighted -0.5), below nodes (0)
      addItem(label);
      own_.insert(label);
      cluster_labels_.append(label);
    } else {
      auto* box_item = new ScopeItem(placed.scope, scope.depth - 1,
                                     stands_for_run ? runs_[run].text
                                                    : scope_text(h, placed.scope, program_nodes_,
                                                                 weights_shown_ ? nullptr : program_->weights.get()),
                                     box, style_.get());
      addItem(box_item);
      own_.insert(box_item);
      scope_items_.insert(placed.scope, box_item);
    }
  }
  for (const auto& edge : picture->edges) addEdgeItem(edge);
  markWideFanOuts();
  for (const auto& placed : picture->nodes) addNodeItem(placed.node, to_qt(placed.rect));
  setSceneRect(to_qt(picture->bounds).adjusted(-kSceneMargin, -kSceneMargin, kSceneMargin, kSceneMargin));
  applyHeat();
  // The shared selection, drawn again.
  if (!selected_.isEmpty()) {
    following_ = true;
    const int index = program_->graph().find(selected_.toStdString())
                          ? program_->graph().find(selected_.toStdString())->index()
                          : -1;
    const int stand_in = index >= 0 ? drawnStandIn(index) : -1;
    if (NodeItem* item = stand_in >= 0 ? nodes_.value(qs(program_nodes_[stand_in]->name)) : nullptr)
      item->setSelected(true);
    following_ = false;
    highlightEdgesOf(selected_);
  }
  if (anchor_ >= 0) {
    const QRectF after = scopeRect(anchor_);
    if (!after.isNull() && !anchor_before_.isNull()) emit anchorMoved(after.topLeft() - anchor_before_.topLeft());
    anchor_ = -1;
  }
  emit pictureChanged();
  if (std::exchange(redrawing_opening_, false)) emit openingRedrawn();
  applyPendingReveal();
}

// ---- laying out again -----------------------------------------------------------

void GraphScene::relayout(int anchor) {
  if (!program_) return;
  redrawing_opening_ = false;
  anchor_ = anchor;
  anchor_before_ = anchor >= 0 ? scopeRect(anchor) : QRectF();
  jobs_.dropAll();
  emit expansionChanged();
  emit layoutStarted();
  jobs_.start(
      [engine = engine(), program = program_, expansion = expansion_, folds = stackFolds()](JobContext& context,
                                                                                            PicturePtr& out) {
        out = std::make_shared<const layout::ScopedLayout>(engine->compose(expansion, context.token().get(), folds));
      },
      [this](JobOutcome<PicturePtr>& outcome) {
        if (!outcome.ok() || !outcome.value) return;
        emit layoutFinished(outcome.seconds * 1000);
        showPicture(outcome.value);
      });
}

void GraphScene::setExpanded(int scope, bool open) {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h || scope <= ir::ModuleHierarchy::kRoot || scope >= int(h->size())) return;
  // The one box of a run of several calls per instance opens into the calls of the instance shown.
  if (const int run = runDrawnBy(scope); open && run >= 0 && !runs_[run].units.empty()) return setRunOpen(run, true);
  if (expansion_.is_expanded(scope) == open) return;
  expansion_.set_expanded(scope, open);
  relayout(scope);
}

void GraphScene::toggleExpanded(int scope) {
  const int run = runDrawnBy(scope);
  setExpanded(scope, (run >= 0 && !runs_[run].units.empty()) || !expansion_.is_expanded(scope));
}

void GraphScene::expandToDepth(int depth) {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h) return;
  const layout::ScopeExpansion next = layout::ScopeExpansion::to_depth(*h, depth);
  if (next == expansion_) return;
  expansion_ = next;
  relayout(-1);
}

void GraphScene::collapseAll() { expandToDepth(0); }

std::vector<std::pair<std::string, int>> GraphScene::openScopes() const {
  std::vector<std::pair<std::string, int>> open;
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h) return open;
  for (int scope = ir::ModuleHierarchy::kRoot + 1; scope < int(h->size()); ++scope)
    if (expansion_.is_expanded(scope)) open.emplace_back((*h)[scope].path, (*h)[scope].call);
  return open;
}

void GraphScene::reopenScopes(const std::vector<std::pair<std::string, int>>& scopes) {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h) return;
  std::map<std::pair<std::string, int>, int> by_call;
  for (int scope = ir::ModuleHierarchy::kRoot + 1; scope < int(h->size()); ++scope)
    by_call.emplace(std::make_pair((*h)[scope].path, (*h)[scope].call), scope);
  layout::ScopeExpansion next(h->size());  // the user's open modules, not this level's opening depth
  for (const auto& call : scopes)
    if (auto it = by_call.find(call); it != by_call.end()) {
      next.reveal(*h, it->second);
      next.set_expanded(it->second, true);
    }
  if (next == expansion_) return;
  expansion_ = next;
  relayout(-1);
}

void GraphScene::setWeightsShown(bool shown) {
  if (!program_ || shown == weights_shown_) return;
  weights_shown_ = shown;
  if (shown && !weights_engine_)
    weights_engine_ = make_layout_engine(*program_, style_->metrics, cluster_label_height(base_font_), false);
  relayout(-1);
}

// ---- reveal -----------------------------------------------------------------------

int GraphScene::homeScope(const QString& node) const {
  if (!program_) return -1;
  const ir::Node* n = program_->graph().find(node.toStdString());
  return n ? engine()->home()[n->index()] : -1;
}

int GraphScene::moduleOf(const QString& node) const {
  if (!program_) return -1;
  const ir::Node* n = program_->graph().find(node.toStdString());
  return n ? program_->hierarchy->scope_of[n->index()] : -1;
}

int GraphScene::drawnStandIn(int index) const {
  // A folded weight is drawn as part of the nodes that read it: the first one stands in.
  if (!weights_shown_ && program_->weights && program_->weights->is_folded(index)) {
    const auto& users = program_nodes_[index]->users();
    if (!users.empty()) return users.front()->index();
  }
  return index;
}

bool GraphScene::openAround(int node) {
  const ir::ModuleHierarchy& h = *program_->hierarchy;
  const int scope = engine()->home()[node];
  const bool switched = showMembersAround(scope);
  if (expansion_.is_open_all_the_way(h, scope)) return switched;
  expansion_.reveal(h, scope);
  expansion_.set_expanded(scope, true);
  return true;
}

void GraphScene::revealNodes(const QStringList& names) {
  if (!program_) return;
  bool changed = false;
  for (const QString& name : names) {
    const ir::Node* node = program_->graph().find(name.toStdString());
    if (node) changed = openAround(drawnStandIn(node->index())) || changed;
  }
  pending_reveal_ = names;
  if (changed) {
    relayout(-1);
  } else if (!isLayingOut()) {
    applyPendingReveal();
  }
}

void GraphScene::revealScope(int scope) {
  const ir::ModuleHierarchy* h = hierarchy();
  if (!h || scope < 0 || scope >= int(h->size())) return;
  if (!engine()->is_drawn(scope)) {
    // A module of one op is drawn as that op: reveal it.
    const auto nodes = h->nodes_within(scope);
    for (int n : nodes)
      if (engine()->shown()[n]) return revealNodes({QString::fromStdString(program_nodes_[n]->name)});
    return;
  }
  pending_scope_ = scope;
  const bool switched = showMembersAround(scope);
  if (expansion_.reveal(*h, scope) || switched) {
    relayout(-1);
  } else if (!isLayingOut()) {
    applyPendingReveal();
  }
}

void GraphScene::applyPendingReveal() {
  if (pending_scope_ >= 0) {
    const QRectF rect = scopeRect(pending_scope_);
    if (ScopeItem* box = scope_items_.value(pending_scope_)) {
      following_ = true;
      clearSelection();
      box->setSelected(true);
      following_ = false;
    }
    pending_scope_ = -1;
    if (!rect.isNull()) emit revealRequested(rect);
  }
  if (pending_reveal_.isEmpty()) return;
  const QStringList names = std::exchange(pending_reveal_, {});
  QRectF area;
  following_ = true;
  for (QGraphicsItem* item : selectedItems()) item->setSelected(false);
  for (const QString& name : names) {
    const ir::Node* node = program_->graph().find(name.toStdString());
    if (!node) continue;
    if (NodeItem* item = nodes_.value(qs(program_nodes_[drawnStandIn(node->index())]->name))) {
      item->setSelected(true);
      area = area.united(item->box());
    }
  }
  following_ = false;
  highlightEdgesOf(names.value(0));
  if (!area.isNull()) emit revealRequested(area);
}

// ---- selection ------------------------------------------------------------------

void GraphScene::selectNode(const QString& name) {
  selected_ = name;
  if (name.isEmpty() || !program_ || !program_->graph().find(name.toStdString())) {
    following_ = true;
    for (QGraphicsItem* item : selectedItems())
      if (item->type() == NodeItem::Type) item->setSelected(false);
    following_ = false;
    highlightEdgesOf(QString());
    return;
  }
  revealNodes({name});
}

void GraphScene::onSelectionChanged() {
  if (following_) return;
  const auto selected = selectedItems();
  QString name;
  int scope = -1;
  for (QGraphicsItem* item : selected) {
    if (item->type() == NodeItem::Type) name = static_cast<NodeItem*>(item)->nodeName();
    if (item->type() == ScopeItem::Type) scope = static_cast<ScopeItem*>(item)->scope();
  }
  selected_ = name;
  highlightEdgesOf(name.isEmpty() && scope >= 0 ? scope_key(scope) : name);
  emit nodeSelected(name);
  if (scope >= 0) emit scopeSelected(scope);
}

void GraphScene::highlightEdgesOf(const QString& name) {
  // A folded weight's edges are its stand-in's.
  QString key = name;
  if (program_ && !name.isEmpty() && !name.startsWith(QLatin1Char('#'))) {
    if (const ir::Node* node = program_->graph().find(name.toStdString()))
      key = qs(program_nodes_[drawnStandIn(node->index())]->name);
  }
  for (auto* edge : std::as_const(edges_))
    edge->setHighlighted(!key.isEmpty() && (edge->from() == key || edge->to() == key));
}

int GraphScene::selectedScope() const {
  for (QGraphicsItem* item : selectedItems())
    if (item->type() == ScopeItem::Type) return static_cast<ScopeItem*>(item)->scope();
  return -1;
}

int GraphScene::scopeOf(const QGraphicsItem* item) const {
  if (!item) return -1;
  switch (item->type()) {
    case ScopeItem::Type: return static_cast<const ScopeItem*>(item)->scope();
    case ClusterItem::Type: return static_cast<const ClusterItem*>(item)->scope();
    case ClusterLabelItem::Type: return static_cast<const ClusterLabelItem*>(item)->scope();
    case NodeItem::Type: return homeScope(static_cast<const NodeItem*>(item)->nodeName());
    default: return -1;
  }
}

ClusterItem* GraphScene::clusterItem(int scope) const {
  for (ClusterItem* frame : clusters_)
    if (frame->scope() == scope) return frame;
  return nullptr;
}

QRectF GraphScene::scopeRect(int scope) const {
  if (const ScopeItem* box = scope_items_.value(scope)) return box->box();
  if (const ClusterItem* frame = clusterItem(scope)) return frame->box();
  return {};
}

// ---- folded runs (stacks drawn as one) ---------------------------------------------

void GraphScene::setFoldedRuns(std::vector<FoldedRun> runs) {
  if (!program_) return;
  // A run seen before (the same members: a new analysis after a run) keeps its state.
  struct State {
    int shown;
    bool folded, open;
  };
  std::map<std::vector<int>, State> before;
  for (size_t r = 0; r < runs_.size(); ++r) before[runs_[r].members] = {run_shown_[r], run_folded_[r], run_open_[r]};
  runs_ = std::move(runs);
  run_shown_.assign(runs_.size(), -1);
  run_folded_.assign(runs_.size(), true);
  run_open_.assign(runs_.size(), false);
  runs_of_.clear();
  // Outermost first: the runs of several calls per instance, then the larger.
  std::vector<size_t> order(runs_.size());
  for (size_t r = 0; r < runs_.size(); ++r) order[r] = r;
  auto scopes_in = [&](size_t r) { return runs_[r].units.empty() ? runs_[r].members.size() : runs_[r].units.size() * runs_[r].units.front().size(); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scopes_in(a) > scopes_in(b); });
  for (size_t r : order) {
    run_shown_[r] = runs_[r].members.empty() ? -1 : runs_[r].members.front();
    if (auto it = before.find(runs_[r].members); it != before.end()) {
      run_shown_[r] = it->second.shown;
      run_folded_[r] = it->second.folded;
      run_open_[r] = it->second.open;
    }
    for (int i = 0; i < int(runs_[r].members.size()); ++i)
      for (int m : instanceScopes(static_cast<int>(r), i)) runs_of_[m].push_back(static_cast<int>(r));
  }
  // What is selected stays drawn: its instance is the one shown.
  if (const ir::Node* node = selected_.isEmpty() ? nullptr : program_->graph().find(selected_.toStdString()))
    showMembersAround(engine()->home()[drawnStandIn(node->index())]);
  // Still as it opened: a stack drawn as one box leaves room to open deeper.
  const bool as_opened = expansion_ == as_opened_;
  if (as_opened) {
    const int depth = engine()->opening_depth(kOpeningItemBudget, stackFolds());
    expansion_ = as_opened_ = depth > program_->openingDepth
                                  ? layout::ScopeExpansion::to_depth(*program_->hierarchy, depth)
                                  : program_->opening;
  }
  relayout(-1);
  redrawing_opening_ = as_opened;
}

layout::StackFolds GraphScene::stackFolds() const {
  layout::StackFolds folds;
  for (size_t r = 0; r < runs_.size(); ++r) {
    if (!run_folded_[r]) continue;
    const ScopeText& t = runs_[r].text;
    folds.push_back({runs_[r].members, run_shown_[r], style_->metrics.scopeBoxSize(t.title, t.detail, t.boundary),
                     runs_[r].units, run_open_[r]});
  }
  return folds;
}

int GraphScene::shownDepth() const {
  return program_ ? engine()->shown_depth(expansion_, stackFolds()) : 0;
}

int GraphScene::runOf(int scope) const {
  const auto it = runs_of_.constFind(scope);
  return it == runs_of_.cend() || it->empty() ? -1 : it->front();
}

std::vector<int> GraphScene::runsOf(int scope) const { return runs_of_.value(scope); }

std::vector<int> GraphScene::instanceScopes(int run, int instance) const {
  const FoldedRun& r = runs_[static_cast<size_t>(run)];
  if (instance < 0 || instance >= int(r.members.size())) return {};
  return r.units.empty() ? std::vector<int>{r.members[static_cast<size_t>(instance)]} : r.units[static_cast<size_t>(instance)];
}

int GraphScene::instanceOf(int run, int scope) const {
  if (run < 0 || run >= int(runs_.size())) return -1;
  for (int i = 0; i < int(runs_[run].members.size()); ++i) {
    const auto scopes = instanceScopes(run, i);
    if (std::find(scopes.begin(), scopes.end(), scope) != scopes.end()) return i;
  }
  return -1;
}

int GraphScene::shownInstance(int run) const {
  if (!isRunFolded(run)) return -1;
  const auto& members = runs_[run].members;
  return static_cast<int>(std::find(members.begin(), members.end(), run_shown_[run]) - members.begin());
}

int GraphScene::shownMember(int scope) const {
  const int run = runOf(scope);
  if (run < 0) return -1;
  if (!run_folded_[run]) return scope;
  const auto& members = runs_[run].members;
  const int shown = static_cast<int>(std::find(members.begin(), members.end(), run_shown_[run]) - members.begin());
  const auto mine = instanceScopes(run, instanceOf(run, scope));
  const auto drawn = instanceScopes(run, shown);
  const size_t place = static_cast<size_t>(std::find(mine.begin(), mine.end(), scope) - mine.begin());
  return place < drawn.size() ? drawn[place] : run_shown_[run];
}

int GraphScene::standsFor(int scope, const layout::ScopedLayout& picture) const {
  for (int run : runsOf(scope)) {
    if (!run_folded_[run] || run_shown_[run] != scope || isRunOpen(run)) continue;
    const auto& members = runs_[run].members;
    // The fold took (its other instances are not drawn).
    if (!picture.find_scope(members.front() == scope ? members.back() : members.front())) return run;
  }
  return -1;
}

void GraphScene::mirrorExpansion(int from, int to) {
  const ir::ModuleHierarchy& h = *program_->hierarchy;
  expansion_.set_expanded(to, expansion_.is_expanded(from));
  const auto& a = h[from].children;
  const auto& b = h[to].children;
  if (a.size() != b.size()) return;
  for (size_t i = 0; i < a.size(); ++i) mirrorExpansion(a[i], b[i]);
}

bool GraphScene::switchInstance(int run, int instance) {
  const auto& members = runs_[static_cast<size_t>(run)].members;
  if (instance < 0 || instance >= int(members.size()) || run_shown_[run] == members[instance]) return false;
  const int before = static_cast<int>(std::find(members.begin(), members.end(), run_shown_[run]) - members.begin());
  const auto from = instanceScopes(run, before), to = instanceScopes(run, instance);
  for (size_t p = 0; p < from.size() && p < to.size(); ++p) mirrorExpansion(from[p], to[p]);
  run_shown_[run] = members[instance];
  return true;
}

bool GraphScene::showMembersAround(int scope) {
  if (runs_.empty() || scope < 0) return false;
  bool changed = false;
  for (int s : program_->hierarchy->path_to(scope)) {
    for (int run : runsOf(s)) {
      if (!run_folded_[run]) continue;
      const int instance = instanceOf(run, s);
      changed = switchInstance(run, instance) || changed;
      // A call inside an instance of several is drawn only with the instance open (its first call is the run's box).
      if (!runs_[run].units.empty() && !run_open_[run] && (s != scope || s != runs_[run].members[instance])) {
        run_open_[run] = true;
        changed = true;
      }
    }
  }
  return changed;
}

void GraphScene::showMember(int scope) {
  const int run = runOf(scope);
  showInstance(run, instanceOf(run, scope));
}

void GraphScene::showInstance(int run, int instance) {
  if (!isRunFolded(run)) return;
  const int before = run_shown_[run];
  if (!switchInstance(run, instance)) return;
  relayout(before);
  anchor_ = run_shown_[run];  // the box standing for the run stays where it was
}

void GraphScene::setRunFolded(int run, bool folded) {
  if (run < 0 || run >= int(runs_.size()) || run_folded_[run] == folded) return;
  run_folded_[run] = folded;
  relayout(-1);
}

void GraphScene::setRunOpen(int run, bool open) {
  if (run < 0 || run >= int(runs_.size()) || runs_[run].units.empty() || run_open_[run] == open) return;
  run_open_[run] = open;
  relayout(run_shown_[run]);
}

// ---- heat -------------------------------------------------------------------------

void GraphScene::setNodeHeat(const QHash<QString, qreal>& fractions, const QHash<QString, QString>& labels,
                             HeatSummary summary) {
  heat_ = fractions;
  heat_labels_ = labels;
  heat_summary_ = summary;
  applyHeat();
}

void GraphScene::applyHeat() {
  for (auto it = nodes_.cbegin(); it != nodes_.cend(); ++it)
    (*it)->setHeat(heat_.value(it.key(), -1), heat_labels_.value(it.key()));
  if (scope_items_.isEmpty() || !program_) return;
  // One walk up from each tinted node gathers both summaries of every scope:
  // the sum of its nodes' fractions (run time: fractions of the slowest, so
  // sums compare as the times do) and its worst node.
  const ir::ModuleHierarchy& h = *program_->hierarchy;
  ScopeHeat heat{std::vector<qreal>(h.size(), 0), std::vector<qreal>(h.size(), -1), std::vector<QString>(h.size()), 0};
  for (auto it = heat_.cbegin(); it != heat_.cend(); ++it) {
    const ir::Node* node = program_->graph().find(it.key().toStdString());
    if (!node || it.value() < 0) continue;
    heat.total += it.value();
    for (int s = engine()->home()[node->index()]; s >= 0; s = h[s].parent) {
      heat.within[s] += it.value();
      if (it.value() > heat.worst[s]) heat.worst[s] = it.value(), heat.worst_node[s] = it.key();
    }
  }
  if (heat_summary_ == HeatSummary::Worst) return applyWorstHeat(heat);
  qreal most = 0;
  for (auto it = scope_items_.cbegin(); it != scope_items_.cend(); ++it) most = std::max(most, heat.within[it.key()]);
  for (auto it = scope_items_.cbegin(); it != scope_items_.cend(); ++it) {
    const qreal share = heat.total > 0 ? heat.within[it.key()] / heat.total : 0;
    if (heat_.isEmpty() || most <= 0) {
      (*it)->setHeat(-1);
    } else {
      (*it)->setHeat(heat.within[it.key()] / most, tr("%1 % of the run").arg(share * 100, 0, 'f', 1));
    }
  }
}

void GraphScene::applyWorstHeat(const ScopeHeat& heat) {
  const ir::ModuleHierarchy& h = *program_->hierarchy;
  for (auto it = scope_items_.cbegin(); it != scope_items_.cend(); ++it) {
    int scope = it.key();
    // A folded stack's box stands for all of its instances: the worst of them, named.
    const int run = runDrawnBy(it.key());
    if (run >= 0 && run < int(runs_.size()))
      for (int member : runs_[run].members)
        if (member >= 0 && member < int(heat.worst.size()) && heat.worst[member] > heat.worst[scope]) scope = member;
    if (heat_.isEmpty() || heat.worst[scope] < 0) {
      (*it)->setHeat(-1);
    } else {
      const QString label = heat_labels_.value(heat.worst_node[scope]);
      const QString instance = run >= 0 ? tr(" in the worst instance, %1").arg(QString::fromStdString(h[scope].path)) : QString();
      (*it)->setHeat(heat.worst[scope],
                     tr("worst: %1%2%3").arg(heat.worst_node[scope], instance, label.isEmpty() ? QString() : ", " + label));
    }
  }
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

void GraphScene::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programChanged, this, [this, model] {
    const bool kept = model->placeKept();
    const auto open = kept ? openScopes() : std::vector<std::pair<std::string, int>>{};
    setProgram(model->loaded());
    if (kept) reopenScopes(open);
    setRunTimes(model->runTimes());
  });
  connect(model, &ProgramModel::runFinished, this, [this, model] { setRunTimes(model->runTimes()); });
  connect(model, &ProgramModel::selectionChanged, this, &GraphScene::selectNode);
  connect(this, &GraphScene::nodeSelected, model, &ProgramModel::selectNode);
}

}  // namespace exportlens::ui
