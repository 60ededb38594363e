#pragma once
// "Expand decomposition" on the canvas: what one node lowers to, drawn as a
// framed callout beside it (its inputs, the ops, its output) with a header
// that collapses it to one line and back.
#include <QGraphicsObject>
#include <QStringList>

#include <memory>

#include "engine/layout/graph_layout.h"
#include "engine/passes/node_expansion.h"
#include "ui/canvas/canvas_style.h"
#include "ui/core/loaded_program.h"

namespace exportlens::ui {

/// One node's expansion, laid out (made on a worker thread).
struct ExpansionResult {
  LoadedProgramPtr program;  // the expanded node's program (kept alive)
  QString node;              // "linear"
  QString table;             // the table it was expanded with
  passes::DecompositionTable rules;  // that table
  passes::NodeExpansion expansion;
  layout::GraphLayout layout;
};

class ExpansionItem : public QGraphicsObject {
  Q_OBJECT
 public:
  enum { Type = UserType + 10 };

  /// `anchor`: the expanded node's box in scene coordinates.
  ExpansionItem(std::shared_ptr<const ExpansionResult> result, const QRectF& anchor, const CanvasStyle& style);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  const QString& nodeName() const { return result_->node; }
  /// The ops it lowers to ("aten.permute.default", ...), in graph order.
  QStringList ops() const;
  /// Ops of the expansion outside the Core ATen set.
  QStringList nonCoreOps() const;
  bool isCollapsed() const { return collapsed_; }
  void setCollapsed(bool collapsed);
  /// Moves the callout beside the expanded node's box (scene coordinates),
  /// after the canvas laid its picture out again.
  void setAnchor(const QRectF& anchor);
  /// The frame in scene coordinates.
  QRectF frame() const { return mapRectToScene(frame_); }
  QString headerText() const;

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  QRectF headerRect() const;
  void followSceneStyle();

  std::shared_ptr<const ExpansionResult> result_;
  CanvasStyle style_;  // its own: the scene's is replaced when the palette changes
  QRectF frame_;       // local coordinates
  QRectF full_frame_;
  QPointF anchor_;     // the expanded node's right edge, local coordinates
  bool collapsed_ = false;
  QList<QGraphicsItem*> body_;
};

}  // namespace exportlens::ui
