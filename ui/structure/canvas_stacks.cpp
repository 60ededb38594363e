#include "ui/structure/canvas_stacks.h"

#include <QAction>
#include <QMenu>
#include <QWidget>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/core/qstring_from.h"
#include "ui/levels/side_by_side_view.h"
#include "ui/core/scope_display.h"
#include "ui/structure/instance_comparison.h"
#include "ui/structure/structure_panel.h"

namespace exportlens::ui {
namespace {

// What the box standing for a stack says: "6 × Block", "blocks.0 … blocks.5 ·
// 228 ops", the first instance's boundary; the tooltip lists what differs.
ScopeText stack_text(const StructureSnapshot& snap, int stack) {
  const auto& s = snap.structure;
  const auto& h = snap.hierarchy;
  const structure::Stack& st = s.stacks[static_cast<size_t>(stack)];
  const int first = st.instances.front().front(), last = st.instances.back().front();
  size_t ops = 0;
  for (const auto& instance : st.instances) ops += h[instance.front()].op_count;
  const ScopeText one = scope_text(h, first, snap.program->graph().nodes(), snap.program->weights.get());
  ScopeText text;
  text.title = qs(st.title(h));
  text.detail = QObject::tr("%1 … %2 · %n op(s)", nullptr, static_cast<int>(ops)).arg(qs(h[first].path), qs(h[last].path));
  text.boundary = one.boundary;
  text.tooltip = QStringLiteral("<b>%1</b> <code>%2</code><br/>%3")
                     .arg(qs(st.label(h)).toHtmlEscaped(), qs(h[first].type).toHtmlEscaped(), text.detail.toHtmlEscaped());
  int flagged = 0;
  QString odd;
  for (int o : st.odd) {
    const auto& instance = s.odd[static_cast<size_t>(o)];
    if (!instance.majority) continue;
    ++flagged;
    odd += QStringLiteral("<br/>! <b>%1</b>: %2")
               .arg(qs(h[instance.scope].path).toHtmlEscaped(), qs(instance.summary()).toHtmlEscaped());
  }
  if (flagged > 0)
    text.tooltip += QObject::tr("<br/><b>%n instance(s) differ</b>", nullptr, flagged) + odd;
  else if (!st.identical)
    text.tooltip += QObject::tr("<br/>its instances differ (no majority)");
  text.tooltip += QObject::tr("<br/><i>double-click or + to open one instance; the context menu picks which, "
                              "draws them all or compares two</i>");
  return text;
}

}  // namespace

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
  std::vector<GraphScene::FoldedRun> runs;
  const auto& stacks = snap->structure.stacks;
  for (size_t k = 0; k < stacks.size(); ++k) {
    const structure::Stack& st = stacks[k];
    if (st.period != 1 || st.count() < 2) continue;
    GraphScene::FoldedRun run;
    for (const auto& instance : st.instances) run.members.push_back(instance.front());
    run.text = stack_text(*snap, static_cast<int>(k));
    runs.push_back(std::move(run));
    run_stacks_.push_back(static_cast<int>(k));
  }
  if (!runs.empty()) scene_->setFoldedRuns(std::move(runs));
}

void CanvasStacks::addStackActions(QMenu* menu, int scope) {
  const int run = scene_->runOf(scope);
  const StructureSnapshotPtr snap = panel_->model()->snapshot();
  if (run < 0 || !snap || snap != applied_ || run >= int(run_stacks_.size())) return;
  const auto& h = snap->hierarchy;
  const auto& members = scene_->foldedRuns()[static_cast<size_t>(run)].members;
  const QString title = scene_->foldedRuns()[static_cast<size_t>(run)].text.title;
  const int shown = scene_->shownMember(scope);
  auto odd_mark = [&](int member) {
    for (int o : snap->structure.odd_of(member))
      if (snap->structure.odd[static_cast<size_t>(o)].majority) return QStringLiteral("  !");
    return QString();
  };
  menu->addSeparator();
  if (scene_->isRunFolded(run)) {
    QMenu* which = menu->addMenu(tr("Show Instance of %1").arg(title));
    which->setObjectName(QStringLiteral("stackInstanceMenu"));
    for (int m : members) {
      QAction* a = which->addAction(qs(h[m].path) + odd_mark(m), this, [this, m] { scene_->showMember(m); });
      a->setCheckable(true);
      a->setChecked(m == shown);
    }
    menu->addAction(tr("Show All %1 Instances").arg(members.size()), this,
                    [this, run] { scene_->setRunFolded(run, false); });
  } else {
    menu->addAction(tr("Fold into One Box: %1").arg(title), this, [this, run, scope] {
      scene_->setRunFolded(run, true);
      scene_->showMember(scope);
    });
  }
  QMenu* with = menu->addMenu(tr("Compare %1 with…").arg(qs(h[shown].path)));
  with->setObjectName(QStringLiteral("stackCompareMenu"));
  for (int m : members)
    if (m != shown) with->addAction(qs(h[m].path) + odd_mark(m), this, [this, shown, m] { compare(shown, m); });
}

SideBySideView* CanvasStacks::comparison() const { return comparison_.data(); }

void CanvasStacks::compare(int a, int b) {
  const StructureSnapshotPtr snap = panel_->model()->snapshot();
  if (!snap || a < 0 || b < 0 || a >= int(snap->hierarchy.size()) || b >= int(snap->hierarchy.size())) return;
  auto* parent = qobject_cast<QWidget*>(this->parent());
  comparison_ = open_instance_comparison(parent ? parent->window() : nullptr, snap, a, b);
}

}  // namespace exportlens::ui
