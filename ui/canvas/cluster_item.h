#pragma once
// The box around the nodes of one module scope, and its label
// ("layers.0.fc: Linear"). The label is a separate item so it can sit above
// the edges that cross into the box while the box stays below them.
#include <QGraphicsItem>
#include <QString>

#include "engine/layout/graph_layout.h"
#include "ui/canvas/canvas_style.h"

namespace exportlens::ui {

class ClusterItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 3 };

  ClusterItem(const layout::ClusterBox& cluster, const CanvasStyle* style);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  const QString& path() const { return path_; }
  const QString& label() const { return label_; }
  QRectF box() const { return box_; }
  void setStyle(const CanvasStyle* style);

 private:
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

 private:
  QRectF textRect() const;

  QString text_;
  QRectF box_;  // the cluster's
  const CanvasStyle* style_;
};

}  // namespace exportlens::ui
