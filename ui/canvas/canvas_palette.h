#pragma once
// Colours of the graph canvas, derived from the system palette so the canvas
// follows light and dark mode.
#include <QColor>
#include <QPalette>

#include "ui/canvas/node_category.h"

namespace exportlens::ui {

struct NodeColors {
  QColor fill;
  QColor border;
  QColor text;
  QColor subtext;  // the shape line
};

class CanvasPalette {
 public:
  explicit CanvasPalette(const QPalette& system = QPalette());

  bool dark() const { return dark_; }
  NodeColors node(NodeCategory category) const;
  QColor background() const { return background_; }
  QColor edge() const { return edge_; }
  QColor highlight() const { return highlight_; }  // selection, selected node's edges
  QColor clusterFill(int depth) const;
  QColor clusterBorder() const { return cluster_border_; }
  QColor clusterText() const { return cluster_text_; }
  /// A collapsed module scope's box (deeper scopes a little stronger).
  QColor scopeFill(int depth) const;
  /// A node's fill tinted by its share of the run time (0: as is, 1: the slowest).
  QColor heatFill(const QColor& fill, qreal fraction) const;
  QColor heat() const { return heat_; }

 private:
  bool dark_ = false;
  QColor background_, edge_, highlight_, cluster_border_, cluster_text_, heat_;
};

}  // namespace exportlens::ui
