#include "ui/structure/stack_marks.h"

#include <QGraphicsObject>
#include <QGraphicsSceneHoverEvent>
#include <QPainter>
#include <QToolTip>

#include <set>

#include "ui/canvas/cluster_item.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/scope_item.h"
#include "ui/core/program_model.h"
#include "ui/structure/structure_panel.h"

namespace exportlens::ui {

// What the marks draw: badges at instances' top-right corners, rings around counterparts.
class StackMarksItem : public QGraphicsObject {
 public:
  struct Badge {
    int scope;
    QRectF rect;
    QString text, tip;
    bool odd;
  };
  explicit StackMarksItem(QColor ring) : ring_(std::move(ring)) {
    setZValue(10);
    setAcceptHoverEvents(true);
  }
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    p->setRenderHint(QPainter::Antialiasing);
    QPen ring(ring_, 2.5, Qt::DashLine);
    p->setPen(ring);
    p->setBrush(Qt::NoBrush);
    for (const QRectF& r : rings) p->drawRoundedRect(r.adjusted(-5, -5, 5, 5), 8, 8);
    QFont f = p->font();
    f.setPointSizeF(f.pointSizeF() * 0.8);
    f.setBold(true);
    p->setFont(f);
    for (const Badge& b : badges) {
      p->setPen(Qt::NoPen);
      p->setBrush(b.odd ? QColor(230, 120, 20) : QColor(90, 110, 150));
      p->drawRoundedRect(b.rect, b.rect.height() / 2, b.rect.height() / 2);
      p->setPen(Qt::white);
      p->drawText(b.rect, Qt::AlignCenter, b.text);
    }
  }
  void finish() {
    prepareGeometryChange();
    bounds_ = {};
    for (const QRectF& r : rings) bounds_ |= r.adjusted(-8, -8, 8, 8);
    for (const Badge& b : badges) bounds_ |= b.rect;
    update();
  }
  QList<Badge> badges;
  QList<QRectF> rings;
  QStringList ringed_nodes;
  QList<int> ringed_scopes;

 protected:
  // Only the badges take the mouse: everything else goes to the canvas below.
  QPainterPath shape() const override {
    QPainterPath path;
    for (const Badge& b : badges) path.addRoundedRect(b.rect, b.rect.height() / 2, b.rect.height() / 2);
    return path;
  }
  void hoverMoveEvent(QGraphicsSceneHoverEvent* e) override {
    for (const Badge& b : badges)
      if (b.rect.contains(e->pos())) {
        setToolTip(b.tip);
        return;
      }
    setToolTip({});
  }

 private:
  QColor ring_;
  QRectF bounds_;
};

StackMarks::StackMarks(GraphScene* scene, StructurePanel* panel, ProgramModel* model, QObject* parent)
    : QObject(parent), scene_(scene), panel_(panel), model_(model) {
  setObjectName(QStringLiteral("stackMarks"));
  connect(scene_, &GraphScene::pictureChanged, this, &StackMarks::refresh);
  connect(panel_, &StructurePanel::analysed, this, &StackMarks::refresh);
  connect(model_, &ProgramModel::selectionChanged, this, &StackMarks::refresh);
}

StackMarks::~StackMarks() { delete item_.data(); }

void StackMarks::refresh() {
  delete item_.data();
  const StructureSnapshotPtr snap = panel_->model()->snapshot();
  if (!snap || scene_->program() != snap->program) return;  // the analysis is of another program (or level)
  const auto& s = snap->structure;
  const auto& h = snap->hierarchy;
  auto* item = new StackMarksItem(scene_->canvasStyle().palette.highlight());
  item_ = item;

  // Badges on every drawn instance.
  for (size_t k = 0; k < s.stacks.size(); ++k) {
    const structure::Stack& st = s.stacks[k];
    const QString label = QString::fromStdString(st.label(h));
    for (int r = 0; r < st.count(); ++r)
      for (int sc : st.instances[static_cast<size_t>(r)]) {
        QRectF box;
        if (ScopeItem* b = scene_->scopeItem(sc)) box = b->box();
        else if (ClusterItem* c = scene_->clusterItem(sc)) box = c->box();
        if (box.isNull()) continue;
        // The box standing for this stack (not for another one starting with the same call: the
        // 2 × ConvBlock inside the first group of 3 × [2 × ConvBlock, Mixer]).
        const int run = scene_->runDrawnBy(sc);
        const auto* folded = run >= 0 ? &scene_->foldedRuns()[static_cast<size_t>(run)] : nullptr;
        const bool this_stack = folded && folded->members.front() == st.instances.front().front() &&
                                int(folded->members.size()) == st.count() && folded->units.empty() == (st.period == 1);
        // Drawn as the closed box of a stack of groups starting with it: that stack's badge, not this one's.
        if (!this_stack && folded && !folded->units.empty() && !scene_->isRunOpen(run) && scene_->scopeItem(sc)) continue;
        if (this_stack && scene_->scopeItem(sc)) {
          // The one box standing for the whole stack: flagged when any instance differs.
          QString tip = tr("%1").arg(label);
          for (int o : st.odd) {
            const auto& instance = s.odd[static_cast<size_t>(o)];
            tip += "\n! " + QString::fromStdString(h[instance.scope].path) + ": " + QString::fromStdString(instance.headline());
          }
          if (st.odd.empty()) continue;
          const QString text = tr("! %1 of %2 differ").arg(st.odd.size()).arg(st.count());
          const qreal w = 14 + 7 * text.size(), height = 16;
          item->badges.push_back({sc, QRectF(box.right() - w - 4, box.top() - height / 2, w, height), text, tip, true});
          continue;
        }
        const auto odd = s.odd_of(sc);
        QString tip = tr("%1: instance %2 of %3").arg(QString::fromStdString(h[sc].path)).arg(r + 1).arg(label);
        // Flagged only against a majority (a stack without one names its settings instead).
        const bool flagged = !odd.empty();
        for (int o : odd)
          for (const auto& d : s.odd[static_cast<size_t>(o)].differences) tip += "\n• " + QString::fromStdString(d.text());
        if (st.varied()) tip += "\n" + tr("settings: %1").arg(QString::fromStdString(st.settings_text(h)));
        const QString text = (flagged ? QStringLiteral("! ") : QString()) + QString("%1/%2").arg(r + 1).arg(st.count());
        const qreal w = 14 + 7 * text.size(), height = 16;
        item->badges.push_back({sc, QRectF(box.right() - w - 4, box.top() - height / 2, w, height), text, tip, flagged});
      }
  }

  // Rings around the selected node's counterparts.
  const ir::Node* selected = model_->selectedNode();
  if (selected && selected->graph() == &snap->program->graph()) {
    const auto nodes = snap->program->graph().nodes();
    std::set<int> ringed_scopes;
    for (int n : s.corresponding_nodes(h, selected->index())) {
      if (n == selected->index()) continue;
      const QString name = QString::fromStdString(nodes[static_cast<size_t>(n)]->name);
      if (NodeItem* ni = scene_->nodeItem(name)) {
        item->rings.push_back(ni->box());
        item->ringed_nodes << name;
      } else if (ScopeItem* b = scene_->scopeItem(scene_->homeScope(name)); b && ringed_scopes.insert(b->scope()).second) {
        item->rings.push_back(b->box());
        item->ringed_scopes << b->scope();
      }
    }
  }
  item->finish();
  scene_->addItem(item);
}

QHash<int, QString> StackMarks::badges() const {
  QHash<int, QString> out;
  if (item_)
    for (const auto& b : item_->badges) out[b.scope] = b.text;
  return out;
}

QStringList StackMarks::ringedNodes() const { return item_ ? item_->ringed_nodes : QStringList(); }
QList<int> StackMarks::ringedScopes() const { return item_ ? item_->ringed_scopes : QList<int>(); }

}  // namespace exportlens::ui
