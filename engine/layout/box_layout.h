#pragma once
// One dot run over plain boxes: each box keeps its size, each edge gets a
// route. The unit the scoped layout composes (one run per open module
// scope); trivial cases (one box, a simple chain) are placed without dot.
#include <string>
#include <utility>
#include <vector>

#include "engine/layout/dot_support.h"
#include "engine/layout/geometry.h"

namespace exportlens::layout {

struct BoxGraph {
  std::vector<Size> boxes;
  std::vector<std::pair<int, int>> edges;  // (from, to) box indices, each pair once
  /// A box feeding more boxes than this (a symbolic size read by every
  /// block) does not steer dot: its edges are left out of the dot run and
  /// drawn as plain curves afterwards, so dozens of long edges do not make
  /// network simplex crawl.
  size_t max_routed_fan_out = 8;
};

struct BoxRoute {
  /// Control points: start, then three per cubic segment (1 + 3k points).
  std::vector<Point> curve;
  /// Where the arrowhead's tip touches the head box (the curve ends at its base).
  Point arrow_tip;
};

struct BoxGraphLayout {
  Size size;                     // the bounding box; boxes start at (0, 0)
  std::vector<Rect> boxes;       // per box
  std::vector<BoxRoute> routes;  // per edge
  bool used_dot = false;
  std::string strategy_note;     // what dot was bounded with (empty when nothing was)
};

/// Deterministic; safe from any thread (dot runs are serialized).
BoxGraphLayout layout_boxes(const BoxGraph& graph, const dot::Spacing& spacing);

/// A cubic from `from` to `to` that leaves and arrives vertically, appended
/// to `curve` (which must end at `from`, or be empty).
void append_vertical_cubic(std::vector<Point>& curve, Point from, Point to);

}  // namespace exportlens::layout
