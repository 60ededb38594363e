#pragma once
// The box around the nodes of one module scope, labelled with its path and
// class ("layers.0.fc: Linear").
#include <QGraphicsItem>
#include <QString>

#include "engine/layout/graph_layout.h"
#include "ui/canvas_style.h"

namespace exportlens::ui {

class ClusterItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 3 };

  ClusterItem(const layout::ClusterBox& cluster, const CanvasStyle* style);

  int type() const override { return Type; }
  QRectF boundingRect() const override;
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  const QString& path() const { return path_; }
  void setStyle(const CanvasStyle* style);

 private:
  QString path_;
  QString label_;
  int depth_;
  QRectF box_;
  const CanvasStyle* style_;
};

}  // namespace exportlens::ui
