#pragma once
// An open module scope on the canvas: the frame around its parts, and its
// title ("▾ blocks.3: Block"). The title is a separate item so it can sit
// above the edges that cross into the frame while the frame stays below
// them. Double-clicking either (or clicking the ▾) collapses the scope.
#include <QGraphicsItem>
#include <QString>

#include "ui/canvas/canvas_style.h"

namespace exportlens::ui {

class ClusterItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 3 };

  ClusterItem(int scope, const QString& path, const QString& label, int depth, const QRectF& box,
              const CanvasStyle* style);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  int scope() const { return scope_; }
  const QString& path() const { return path_; }
  const QString& label() const { return label_; }
  QRectF box() const { return box_; }
  void setStyle(const CanvasStyle* style);

 private:
  int scope_;
  QString path_;
  QString label_;
  int depth_;
  QRectF box_;
  const CanvasStyle* style_;
};

class ClusterLabelItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 4 };

  ClusterLabelItem(const ClusterItem& cluster, const CanvasStyle* style);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
  void setStyle(const CanvasStyle* style);
  int scope() const { return scope_; }
  /// Where the ▾ sits: a click there collapses the scope.
  QRectF toggleRect() const;

 protected:
  void mousePressEvent(QGraphicsSceneMouseEvent* event) override;

 private:
  QRectF textRect() const;

  int scope_;
  QString text_;
  QRectF box_;  // the cluster's
  const CanvasStyle* style_;
};

}  // namespace exportlens::ui
