#include "ui/diff/diff_marks.h"

#include <QGraphicsObject>
#include <QGraphicsSceneHoverEvent>
#include <QPainter>

#include "ui/canvas/cluster_item.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_item.h"
#include "ui/canvas/scope_item.h"
#include "ui/diff/diff_colours.h"

namespace exportlens::ui {

class DiffMarksItem : public QGraphicsObject {
 public:
  struct Mark {
    QRectF rect;
    QColor colour;
    bool unmatched = false;  // dashed
    bool fill = true;        // tinted inside too (an open frame is outlined only: its parts speak)
    QString badge;
    QString tip;
  };
  DiffMarksItem() {
    setZValue(9);  // over nodes and boxes, under the stack marks' badges
    setAcceptHoverEvents(true);
  }
  QRectF boundingRect() const override { return bounds_; }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
    p->setRenderHint(QPainter::Antialiasing);
    QFont f = p->font();
    f.setPointSizeF(f.pointSizeF() * 0.8);
    f.setBold(true);
    p->setFont(f);
    for (const Mark& m : marks) {
      QColor fill = m.colour;
      fill.setAlpha(70);
      p->setBrush(m.fill ? QBrush(fill) : QBrush(Qt::NoBrush));
      p->setPen(QPen(m.colour, 3, m.unmatched ? Qt::DashLine : Qt::SolidLine));
      p->drawRoundedRect(m.rect.adjusted(-3, -3, 3, 3), 7, 7);
      if (m.badge.isEmpty()) continue;
      const QRectF b = badgeRect(m);
      p->setPen(Qt::NoPen);
      p->setBrush(m.colour);
      p->drawRoundedRect(b, b.height() / 2, b.height() / 2);
      p->setPen(Qt::white);
      p->drawText(b, Qt::AlignCenter, m.badge);
    }
  }
  static QRectF badgeRect(const Mark& m) {
    const qreal w = 12 + 7 * m.badge.size(), h = 16;
    return QRectF(m.rect.left() - 6, m.rect.top() - h / 2 - 3, w, h);
  }
  void finish() {
    prepareGeometryChange();
    bounds_ = {};
    for (const Mark& m : marks) bounds_ |= m.rect.adjusted(-8, -14, 8, 8);
    update();
  }
  QList<Mark> marks;
  QHash<QString, diff::Status> nodes;
  QHash<int, unsigned> scopes;

 protected:
  // Only the badges take the mouse: clicks go to the canvas below.
  QPainterPath shape() const override {
    QPainterPath path;
    for (const Mark& m : marks)
      if (!m.badge.isEmpty()) path.addRect(badgeRect(m));
    return path;
  }
  void hoverMoveEvent(QGraphicsSceneHoverEvent* e) override {
    for (const Mark& m : marks)
      if (!m.badge.isEmpty() && badgeRect(m).contains(e->pos())) {
        setToolTip(m.tip);
        return;
      }
    setToolTip({});
  }

 private:
  QRectF bounds_;
};

namespace {

int bits(unsigned flags) { return __builtin_popcount(flags); }

QString flags_text(unsigned flags) {
  QStringList parts;
  if (flags & ChangeFlag::Changed) parts << QObject::tr("changed nodes");
  if (flags & ChangeFlag::Added) parts << QObject::tr("added nodes");
  if (flags & ChangeFlag::Removed) parts << QObject::tr("removed nodes");
  return parts.join(QStringLiteral(", "));
}

QString changes_tip(const diff::NodeDiff& d) {
  QString tip = QString::fromUtf8(diff::status_name(d.status).data());
  for (const diff::Change& c : d.changes)
    tip += QStringLiteral("\n%1 %2: %3 → %4")
               .arg(QString::fromUtf8(diff::aspect_name(c.aspect).data()), QString::fromStdString(c.what),
                    QString::fromStdString(c.before), QString::fromStdString(c.after));
  return tip;
}

}  // namespace

DiffMarks::DiffMarks(GraphScene* scene, SideBySideView::Side side, QObject* parent)
    : QObject(parent), scene_(scene), side_(side) {
  setObjectName(side == SideBySideView::Left ? QStringLiteral("diffMarksLeft") : QStringLiteral("diffMarksRight"));
  connect(scene_, &GraphScene::pictureChanged, this, &DiffMarks::refresh);
}

DiffMarks::~DiffMarks() { delete item_.data(); }

void DiffMarks::setSnapshot(DiffSnapshotPtr snapshot) {
  snapshot_ = std::move(snapshot);
  refresh();
}

void DiffMarks::refresh() {
  delete item_.data();
  if (!snapshot_ || scene_->program() != snapshot_->program(side_)) return;
  auto* item = new DiffMarksItem;
  item_ = item;
  for (NodeItem* n : scene_->nodeItems()) {
    const diff::NodeDiff* d = snapshot_->entry(side_, n->nodeName());
    if (!d || d->status == diff::Status::Same) continue;
    const bool unmatched = d->status != diff::Status::Changed;
    const QString badge = d->status == diff::Status::Added ? QStringLiteral("+")
                          : d->status == diff::Status::Removed ? QStringLiteral("−") : QString();
    item->marks.push_back({n->box(), change_colour(d->status), unmatched, true, badge, changes_tip(*d)});
    item->nodes.insert(n->nodeName(), d->status);
  }
  // A stack folded into one box (or opened on one instance) stands for all its instances.
  auto run_flags = [&](int run) {
    unsigned flags = 0;
    const GraphScene::FoldedRun& folded = scene_->foldedRuns()[static_cast<size_t>(run)];
    for (int member : folded.members) flags |= snapshot_->inside(side_, member);
    for (const auto& unit : folded.units)
      for (int scope : unit) flags |= snapshot_->inside(side_, scope);
    return flags;
  };
  auto mark_scope = [&](int scope, const QRectF& rect, unsigned flags, bool fill, const QString& what) {
    if (!flags) return;
    const QString badge = bits(flags) > 1 ? QStringLiteral("±") : flags == ChangeFlag::Added ? QStringLiteral("+")
                          : flags == ChangeFlag::Removed ? QStringLiteral("−") : QStringLiteral("Δ");
    item->marks.push_back({rect, inside_colour(flags), false, fill, badge, what + flags_text(flags)});
    item->scopes.insert(scope, flags);
  };
  for (ScopeItem* box : scene_->scopeItems()) {
    const int run = scene_->runDrawnBy(box->scope());
    mark_scope(box->scope(), box->box(), run >= 0 ? run_flags(run) : snapshot_->inside(side_, box->scope()), true, {});
  }
  // Open frames: a stack opened on one instance (what changed in any), a call the other program does not make.
  for (ClusterItem* frame : scene_->clusterItems()) {
    const int run = scene_->runDrawnBy(frame->scope());
    if (run >= 0)
      mark_scope(frame->scope(), frame->box(), run_flags(run), false, tr("in some instance of the stack: "));
    else if (snapshot_->counterpart_scope(side_, frame->scope()) < 0)
      mark_scope(frame->scope(), frame->box(), snapshot_->inside(side_, frame->scope()), false,
                 tr("a module call the other program does not make: "));
  }
  item->finish();
  scene_->addItem(item);
}

QHash<QString, diff::Status> DiffMarks::markedNodes() const { return item_ ? item_->nodes : QHash<QString, diff::Status>(); }
QHash<int, unsigned> DiffMarks::markedScopes() const { return item_ ? item_->scopes : QHash<int, unsigned>(); }

}  // namespace exportlens::ui
