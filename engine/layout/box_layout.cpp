#include "engine/layout/box_layout.h"

#include <algorithm>
#include <cmath>

#include "engine/layout/graphviz_session.h"

namespace exportlens::layout {
namespace {

constexpr double kArrowLength = 8;

// Edges 0->1, 1->2, ..., n-2->n-1 and nothing else: what dot would stack in
// one column, placed without it.
bool is_simple_chain(const BoxGraph& g) {
  const size_t n = g.boxes.size();
  if (g.edges.size() + 1 != n) return false;
  std::vector<bool> seen(n, false);
  for (auto [from, to] : g.edges) {
    if (to != from + 1 || from < 0 || static_cast<size_t>(to) >= n || seen[from]) return false;
    seen[from] = true;
  }
  return true;
}

BoxGraphLayout stack_in_a_column(const BoxGraph& g, const dot::Spacing& spacing) {
  BoxGraphLayout out;
  double width = 0;
  for (const Size& s : g.boxes) width = std::max(width, s.width);
  double y = 0;
  for (const Size& s : g.boxes) {
    out.boxes.push_back({(width - s.width) / 2, y, s.width, s.height});
    y += s.height + spacing.rank_separation;
  }
  out.size = {width, g.boxes.empty() ? 0 : y - spacing.rank_separation};
  for (auto [from, to] : g.edges) {
    const Rect& a = out.boxes[from];
    const Rect& b = out.boxes[to];
    BoxRoute route;
    const Point start{a.centre().x, a.bottom()}, tip{b.centre().x, b.y};
    append_vertical_cubic(route.curve, start, {tip.x, tip.y - std::min(kArrowLength, (tip.y - start.y) / 2)});
    route.arrow_tip = tip;
    out.routes.push_back(std::move(route));
  }
  return out;
}

BoxGraphLayout run_dot(const BoxGraph& g, const dot::Spacing& spacing) {
  GraphvizSession session;
  Agraph_t* graph = session.open_graph("level");
  BoxGraphLayout out;
  out.used_dot = true;
  out.strategy_note = dot::apply_graph_attributes(graph, spacing, g.boxes.size());
  std::vector<Agnode_t*> nodes;
  nodes.reserve(g.boxes.size());
  for (size_t i = 0; i < g.boxes.size(); ++i) nodes.push_back(dot::add_box(graph, "b" + std::to_string(i), g.boxes[i]));
  std::vector<Agedge_t*> edges;
  edges.reserve(g.edges.size());
  for (auto [from, to] : g.edges) edges.push_back(agedge(graph, nodes[from], nodes[to], nullptr, 1));
  session.run_layout("dot");
  const dot::Flip flip{GD_bb(graph)};
  const Rect bounds = flip(GD_bb(graph));
  out.size = {bounds.width, bounds.height};
  for (Agnode_t* n : nodes) out.boxes.push_back(dot::box_of(n, flip));
  for (size_t i = 0; i < edges.size(); ++i) {
    BoxRoute route;
    dot::read_route(edges[i], out.boxes[g.edges[i].first], out.boxes[g.edges[i].second], flip, route.curve,
                    route.arrow_tip);
    out.routes.push_back(std::move(route));
  }
  return out;
}

}  // namespace

void append_vertical_cubic(std::vector<Point>& curve, Point from, Point to) {
  const double pull = std::max(12.0, std::abs(to.y - from.y) / 2);
  if (curve.empty()) curve.push_back(from);
  curve.push_back({from.x, from.y + pull});
  curve.push_back({to.x, to.y - pull});
  curve.push_back(to);
}

BoxGraphLayout layout_boxes(const BoxGraph& graph, const dot::Spacing& spacing) {
  if (graph.boxes.empty()) return {};
  if (is_simple_chain(graph)) return stack_in_a_column(graph, spacing);
  return run_dot(graph, spacing);
}

}  // namespace exportlens::layout
