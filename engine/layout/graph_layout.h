#pragma once
// The result of laying out a graph: where each node, edge and module-scope
// cluster goes. Coordinates are points with the origin at the top-left of
// `bounds` and y pointing down, ready for a canvas.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/layout/geometry.h"

namespace exportlens::layout {

struct NodeBox {
  std::string name;  // the IR node's name
  Point centre;
  Size size;
  Rect rect() const { return Rect::around(centre, size); }
};

/// One data dependency drawn as a piecewise cubic Bézier curve.
struct EdgeRoute {
  std::string from;  // producer node name
  std::string to;    // consumer node name
  /// Control points: start, then three per cubic segment (1 + 3k points).
  std::vector<Point> curve;
  /// Where the arrowhead's tip touches the consumer's box; the curve ends at
  /// the arrowhead's base. Equal to the curve's last point when absent.
  Point arrow_tip;
};

/// The box drawn around the nodes of one module scope (nn_module_stack).
struct ClusterBox {
  std::string path;   // module path, "layers.0.fc"
  std::string label;  // "layers.0.fc: Linear"
  int depth = 0;      // 0 for the outermost scopes
  Rect rect;
  std::vector<std::string> nodes;  // nodes directly or indirectly inside
};

struct GraphLayout {
  Rect bounds;  // always starts at (0, 0)
  std::vector<NodeBox> nodes;         // in graph order
  std::vector<EdgeRoute> edges;       // in graph order of the consumer, then argument order
  std::vector<ClusterBox> clusters;   // parents before children
  /// What the layout engine did to keep a big graph fast (empty for small ones).
  std::string strategy_note;

  const NodeBox* find_node(std::string_view name) const;
};

}  // namespace exportlens::layout
