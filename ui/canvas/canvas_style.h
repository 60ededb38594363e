#pragma once
// What the canvas items paint with: colours and fonts, shared by all items of
// one scene and replaced as a whole when the system palette changes.
#include <QFont>

#include "ui/canvas/canvas_palette.h"
#include "ui/core/node_metrics.h"

namespace exportlens::ui {

struct CanvasStyle {
  CanvasPalette palette;
  NodeMetrics metrics;
  QFont clusterFont;

  CanvasStyle(const QPalette& system, const QFont& base)
      : palette(system), metrics(base), clusterFont(base) {
    clusterFont.setPointSizeF(std::max(7.0, base.pointSizeF() - 1));
  }
};

}  // namespace exportlens::ui
