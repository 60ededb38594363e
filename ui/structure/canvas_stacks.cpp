#include "ui/structure/canvas_stacks.h"

#include <QAction>
#include <QMenu>
#include <QWidget>

#include <algorithm>
#include <set>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/core/qstring_from.h"
#include "ui/compare/side_by_side_view.h"
#include "ui/core/scope_display.h"
#include "ui/structure/instance_comparison.h"
#include "ui/structure/structure_panel.h"

namespace exportlens::ui {
namespace {

// The shapes crossing the boundary of one instance of several calls: what
// flows into its calls from outside them, and out of them to the rest.
QString unit_boundary(const StructureSnapshot& snap, const std::vector<int>& unit) {
  const auto& h = snap.hierarchy;
  const auto nodes = snap.program->graph().nodes();
  const ir::WeightFolding* folded = snap.program->weights.get();
  auto inside = [&](int node) {
    const int scope = h.scope_of[static_cast<size_t>(node)];
    return std::any_of(unit.begin(), unit.end(), [&](int u) { return h.encloses(u, scope); });
  };
  std::vector<const ir::Node*> in, out;
  std::set<int> seen_in;
  for (int u : unit) {
    for (int i : h[u].inputs)
      if (!inside(i) && (!folded || !folded->is_folded(i)) && seen_in.insert(i).second) in.push_back(nodes[i]);
    for (int o : h[u].outputs) {
      const auto& users = nodes[o]->users();
      if (std::any_of(users.begin(), users.end(), [&](const ir::Node* n) { return !inside(n->index()); }))
        out.push_back(nodes[o]);
    }
  }
  if (in.empty() && out.empty()) return {};
  return shapes_text(in) + QStringLiteral(" → ") + shapes_text(out);
}

// What the box standing for a stack says: "6 × Block", "blocks.0 … blocks.5 ·
// 228 ops", the first instance's boundary; the tooltip lists what differs.
ScopeText stack_text(const StructureSnapshot& snap, int stack) {
  const auto& s = snap.structure;
  const auto& h = snap.hierarchy;
  const structure::Stack& st = s.stacks[static_cast<size_t>(stack)];
  const int first = st.instances.front().front(), last = st.instances.back().back();
  size_t ops = 0;
  for (const auto& instance : st.instances)
    for (int scope : instance) ops += h[scope].op_count;
  ScopeText text;
  text.title = qs(st.title(h));
  // A stack of instances each built otherwise says how, in the box's one line
  // (the paths are in the tooltip; an op count would be only the first's).
  text.detail = st.varied() ? qs(st.settings_text(h))
                            : QObject::tr("%1 … %2 · %n op(s)", nullptr, static_cast<int>(ops)).arg(qs(h[first].path), qs(h[last].path));
  text.boundary = st.period == 1
                      ? scope_text(h, first, snap.program->graph().nodes(), snap.program->weights.get()).boundary
                      : unit_boundary(snap, st.instances.front());
  // A stack of groups has no one module type: its label names the classes.
  const QString type = st.period == 1 ? QStringLiteral(" <code>%1</code>").arg(qs(h[first].type).toHtmlEscaped()) : QString();
  text.tooltip = QStringLiteral("<b>%1</b>%2<br/>%3%4")
                     .arg(qs(st.label(h)).toHtmlEscaped(), type, st.varied() ? QObject::tr("settings: ") : QString(),
                          text.detail.toHtmlEscaped());
  QString odd;
  for (int o : st.odd) {
    const auto& instance = s.odd[static_cast<size_t>(o)];
    odd += QStringLiteral("<br/>! <b>%1</b>: %2")
               .arg(qs(h[instance.scope].path).toHtmlEscaped(), qs(instance.headline()).toHtmlEscaped());
  }
  if (!st.odd.empty())
    text.tooltip += QObject::tr("<br/><b>%n instance(s) differ</b>", nullptr, static_cast<int>(st.odd.size())) + odd;
  text.tooltip += QObject::tr("<br/><i>double-click or + to open one instance; the context menu picks which, "
                              "draws them all or compares two</i>");
  return text;
}

}  // namespace

std::vector<GraphScene::FoldedRun> stack_runs(const StructureSnapshot& snap, std::vector<int>* stacks) {
  std::vector<GraphScene::FoldedRun> runs;
  const auto& all = snap.structure.stacks;
  for (size_t k = 0; k < all.size(); ++k) {
    const structure::Stack& st = all[k];
    if (st.count() < 2) continue;
    GraphScene::FoldedRun run;
    for (const auto& instance : st.instances) run.members.push_back(instance.front());
    if (st.period > 1) run.units = st.instances;
    run.text = stack_text(snap, static_cast<int>(k));
    runs.push_back(std::move(run));
    if (stacks) stacks->push_back(static_cast<int>(k));
  }
  return runs;
}

CanvasStacks::CanvasStacks(GraphScene* scene, GraphView* view, StructurePanel* panel, QObject* parent)
    : QObject(parent), scene_(scene), panel_(panel) {
  setObjectName(QStringLiteral("canvasStacks"));
  fold_ = new QAction(tr("Fold Repeated Structure"), this);
  fold_->setObjectName(QStringLiteral("foldStacksAction"));
  fold_->setCheckable(true);
  fold_->setChecked(true);
  fold_->setToolTip(tr("Draw a stack of identical modules as one box (N × Class); off: every instance"));
  connect(fold_, &QAction::toggled, this, [this](bool on) {
    applied_.reset();
    run_stacks_.clear();
    if (on) {
      refresh();
    } else if (!scene_->foldedRuns().empty()) {
      scene_->setFoldedRuns({});
    }
  });
  connect(panel_, &StructurePanel::analysed, this, &CanvasStacks::refresh);
  connect(scene_, &GraphScene::pictureChanged, this, &CanvasStacks::refresh);
  connect(panel_, &StructurePanel::compareRequested, this, &CanvasStacks::compare);
  view->setScopeMenuExtension([this](QMenu* menu, int scope) { addStackActions(menu, scope); });
}

void CanvasStacks::refresh() {
  if (!fold_->isChecked()) return;
  const StructureSnapshotPtr snap = panel_->model()->snapshot();
  if (!snap || scene_->program() != snap->program) return;  // the analysis is of another program (or level)
  if (snap == applied_ && !scene_->foldedRuns().empty()) return;
  if (snap == applied_ && run_stacks_.empty()) return;  // nothing to fold
  applied_ = snap;
  run_stacks_.clear();
  auto runs = stack_runs(*snap, &run_stacks_);
  if (!runs.empty()) scene_->setFoldedRuns(std::move(runs));
}

void CanvasStacks::addStackActions(QMenu* menu, int scope) {
  const StructureSnapshotPtr snap = panel_->model()->snapshot();
  if (!snap || snap != applied_) return;
  for (int run : scene_->runsOf(scope))
    if (run < int(run_stacks_.size())) addRunActions(menu, *snap, run, scope);
}

void CanvasStacks::addRunActions(QMenu* menu, const StructureSnapshot& snap, int run, int scope) {
  const auto& h = snap.hierarchy;
  const GraphScene::FoldedRun& folded = scene_->foldedRuns()[static_cast<size_t>(run)];
  const auto& members = folded.members;
  const QString title = folded.text.title;
  // The instance drawn for the run (the one the menu was asked on when the run is drawn whole).
  const int instance = scene_->instanceOf(run, scope);
  const int shown_index = scene_->isRunFolded(run) ? scene_->shownInstance(run) : instance;
  auto odd_mark = [&](int i) {
    const auto scopes = folded.units.empty() ? std::vector<int>{members[static_cast<size_t>(i)]} : folded.units[static_cast<size_t>(i)];
    for (int sc : scopes)
      if (!snap.structure.odd_of(sc).empty()) return QStringLiteral("  !");
    return QString();
  };
  auto name = [&](int i) { return qs(h[members[static_cast<size_t>(i)]].path); };
  menu->addSeparator();
  if (scene_->isRunFolded(run)) {
    QMenu* which = menu->addMenu(tr("Show Instance of %1").arg(title));
    which->setObjectName(QStringLiteral("stackInstanceMenu"));
    for (int i = 0; i < int(members.size()); ++i) {
      QAction* a = which->addAction(name(i) + odd_mark(i), this, [this, run, i] { scene_->showInstance(run, i); });
      a->setCheckable(true);
      a->setChecked(i == shown_index);
    }
    if (!folded.units.empty() && scene_->isRunOpen(run))
      menu->addAction(tr("Fold into One Box: %1").arg(title), this, [this, run] { scene_->setRunOpen(run, false); })
          ->setObjectName(QStringLiteral("stackCloseAction"));
    menu->addAction(tr("Show All %1 Instances").arg(members.size()), this,
                    [this, run] { scene_->setRunFolded(run, false); })
        ->setObjectName(QStringLiteral("stackShowAllAction"));
  } else {
    menu->addAction(tr("Fold into One Box: %1").arg(title), this, [this, run, instance] {
      scene_->setRunFolded(run, true);
      scene_->showInstance(run, instance);
    })->setObjectName(QStringLiteral("stackFoldAction"));
  }
  QMenu* with = menu->addMenu(tr("Compare %1 with…").arg(name(shown_index)));
  with->setObjectName(QStringLiteral("stackCompareMenu"));
  for (int i = 0; i < int(members.size()); ++i)
    if (i != shown_index)
      with->addAction(name(i) + odd_mark(i), this, [this, run, shown_index, i] { compareInstances(run, shown_index, i); });
}

SideBySideView* CanvasStacks::comparison() const { return comparison_.data(); }

void CanvasStacks::compare(int a, int b) {
  const StructureSnapshotPtr snap = panel_->model()->snapshot();
  if (!snap || a < 0 || b < 0 || a >= int(snap->hierarchy.size()) || b >= int(snap->hierarchy.size())) return;
  // Two repetitions of a group (their first calls named): the whole groups.
  InstanceScopes left{a}, right{b};
  for (int k : snap->structure.stacks_of(a)) {
    const structure::Stack& st = snap->structure.stacks[static_cast<size_t>(k)];
    if (st.period == 1) continue;
    auto starting = [&](int scope) {
      return std::find_if(st.instances.begin(), st.instances.end(), [&](const auto& i) { return i.front() == scope; });
    };
    if (starting(a) != st.instances.end() && starting(b) != st.instances.end()) {
      left = *starting(a);
      right = *starting(b);
      break;
    }
  }
  auto* parent = qobject_cast<QWidget*>(this->parent());
  comparison_ = open_instance_comparison(parent ? parent->window() : nullptr, snap, left, right);
}

void CanvasStacks::compareInstances(int run, int a, int b) {
  const StructureSnapshotPtr snap = panel_->model()->snapshot();
  if (!snap || snap != applied_ || run < 0 || run >= int(scene_->foldedRuns().size())) return;
  const GraphScene::FoldedRun& folded = scene_->foldedRuns()[static_cast<size_t>(run)];
  const int count = static_cast<int>(folded.members.size());
  if (a < 0 || b < 0 || a >= count || b >= count) return;
  auto scopes = [&](int i) {
    return folded.units.empty() ? InstanceScopes{folded.members[static_cast<size_t>(i)]} : folded.units[static_cast<size_t>(i)];
  };
  auto* parent = qobject_cast<QWidget*>(this->parent());
  comparison_ = open_instance_comparison(parent ? parent->window() : nullptr, snap, scopes(a), scopes(b));
}

}  // namespace exportlens::ui
