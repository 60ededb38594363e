#pragma once
// What every dot run of the layout shares: locale-independent numbers, the
// graph-wide settings (with the bounds that keep big graphs fast), boxes of a
// fixed size, and reading a routed edge back in our coordinates.
#include <cstddef>
#include <string>
#include <vector>

#include <graphviz/gvc.h>

#include "engine/layout/geometry.h"

namespace exportlens::layout::dot {

constexpr double kPointsPerInch = 72.0;

/// Locale-independent, shortest round-trip text for a number.
std::string number(double value);

/// Spacing and the sizes from which dot's expensive phases are bounded.
struct Spacing {
  double node_separation = 18;  // points between boxes on one rank
  double rank_separation = 30;  // points between ranks
  size_t big_graph_nodes = 300;
  size_t huge_graph_nodes = 1000;
};

/// Top-to-bottom, splines, the spacing; for big graphs network simplex and
/// crossing minimization bounded (see README.md). Returns a note saying what
/// was bounded (empty when nothing was).
std::string apply_graph_attributes(Agraph_t* g, const Spacing& spacing, size_t node_count);

/// A box of exactly `size` points with no label (dot never measures text).
Agnode_t* add_box(Agraph_t* owner, const std::string& id, Size size);

/// Graphviz coordinates have y up and may not start at 0; ours start at the
/// top-left corner of the graph's bounding box with y down.
struct Flip {
  boxf bb;
  Point operator()(pointf p) const { return {p.x - bb.LL.x, bb.UR.y - p.y}; }
  Rect operator()(boxf b) const {
    return {b.LL.x - bb.LL.x, bb.UR.y - b.UR.y, b.UR.x - b.LL.x, b.UR.y - b.LL.y};
  }
};

/// A node's box after layout, flipped.
Rect box_of(Agnode_t* n, const Flip& flip);

/// The spline dot routed for `e` (start, then three control points per
/// cubic) and the arrowhead's tip; a straight cubic from box to box when dot
/// gave no route.
void read_route(Agedge_t* e, const Rect& from, const Rect& to, const Flip& flip, std::vector<Point>& curve,
                Point& arrow_tip);

}  // namespace exportlens::layout::dot
