#pragma once
// A node's box on the canvas: rounded rectangle coloured by category, op
// name and output shape, and a badge counting the weights folded into it.
// Far out it is a plain coloured rectangle.
#include <QGraphicsItem>
#include <QString>

#include "engine/ir/node.h"
#include "engine/layout/node_label.h"
#include "ui/canvas/canvas_style.h"
#include "ui/canvas/node_category.h"

namespace exportlens::ui {

class NodeItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 1 };

  NodeItem(const ir::Node& node, NodeCategory category, layout::NodeLabel label, const QRectF& box,
           const CanvasStyle* style);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  QPainterPath shape() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  const QString& nodeName() const { return name_; }
  NodeCategory category() const { return category_; }
  const layout::NodeLabel& label() const { return label_; }
  /// The box in scene coordinates.
  QRectF box() const { return box_; }
  void setStyle(const CanvasStyle* style);
  /// Tints the box by run time relative to the slowest node (negative: no tint).
  void setHeat(qreal fraction, const QString& timeText = QString());
  qreal heat() const { return heat_; }
  /// The weights folded into this node (parameters, buffers, constants it
  /// reads): a small badge with their count; `html` lists them for the tooltip.
  void setFoldedWeights(int count, const QString& html);
  int foldedWeights() const { return folded_weights_; }
  /// The badge's rectangle (empty without folded weights).
  QRectF badgeRect() const;

 protected:
  void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
  void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

 private:
  qreal cornerRadius() const;
  void paintText(QPainter* painter, const QRectF& inner) const;
  void paintHeatBar(QPainter* painter) const;
  void paintBadge(QPainter* painter) const;
  void refreshTooltip();

  QString name_;
  NodeCategory category_;
  layout::NodeLabel label_;
  QRectF box_;
  const CanvasStyle* style_;
  bool pill_;  // inputs and the output: the program's boundary, drawn as pills
  bool hovered_ = false;
  qreal heat_ = -1;
  QString time_text_;
  int folded_weights_ = 0;
  QString weights_html_;
  QString base_tooltip_;
};

}  // namespace exportlens::ui
