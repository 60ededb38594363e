#pragma once
// A data dependency on the canvas: a Bézier curve and an arrowhead. Between
// collapsed boxes one edge stands for a bundle of dependencies: it shows how
// many tensors it carries and, on hover, their shapes. One of a source's many
// edges is a stub until highlighted.
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>

#include <vector>

#include "engine/layout/geometry.h"
#include "engine/layout/graph_layout.h"
#include "ui/canvas/canvas_style.h"

namespace exportlens::ui {

class EdgeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 2 };

  EdgeItem(const layout::EdgeRoute& route, const CanvasStyle* style);
  /// `from` / `to`: what the ends are drawn as (a node's name, or "#<scope>"
  /// for a module scope's box), `tensors`: how many values it carries.
  EdgeItem(QString from, QString to, const std::vector<layout::Point>& curve, layout::Point arrowTip, int tensors,
           const CanvasStyle* style);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  const QString& from() const { return from_; }
  const QString& to() const { return to_; }
  /// How many tensors it carries (1 for a plain dependency).
  int tensors() const { return tensors_; }
  /// One of many edges from one source (a symbolic size read by every
  /// block): drawn as a short stub into its target, the whole curve only
  /// while highlighted. `fanOut`: how many the source feeds, for the tooltip.
  void setStub(int fanOut);
  bool isStub() const { return stub_; }
  /// Drawn in the highlight colour (an edge of the selected node).
  void setHighlighted(bool on);
  bool isHighlighted() const { return highlighted_; }
  void setStyle(const CanvasStyle* style);

 protected:
  void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
  void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

 private:
  void setCurve(const std::vector<layout::Point>& curve, layout::Point arrowTip);
  QRectF countRect() const;
  bool drawnAsStub() const { return stub_ && !highlighted_ && !hovered_; }
  QRectF stubRect() const;

  QString from_, to_;
  QPainterPath curve_;
  QPolygonF arrow_;
  QLineF chord_;  // start to tip: what is drawn far out
  int tensors_ = 1;
  const CanvasStyle* style_;
  bool highlighted_ = false;
  bool hovered_ = false;
  bool stub_ = false;
};

}  // namespace exportlens::ui
