#include "engine/layout/box_layout.h"

#include <algorithm>
#include <cmath>

#include "engine/layout/graphviz_session.h"

namespace exportlens::layout {
namespace {

constexpr double kArrowLength = 8;

BoxRoute plain_route(const Rect& a, const Rect& b) {
  BoxRoute route;
  const Point start{a.centre().x, a.bottom()}, tip{b.centre().x, b.y};
  append_vertical_cubic(route.curve, start, {tip.x, tip.y - kArrowLength});
  route.arrow_tip = tip;
  return route;
}

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
  for (auto [from, to] : g.edges) out.routes.push_back(plain_route(out.boxes[from], out.boxes[to]));
  return out;
}

BoxGraphLayout run_dot(const BoxGraph& g, const dot::Spacing& spacing) {
  // Wide fan-outs stay out of dot (see BoxGraph::max_routed_fan_out).
  std::vector<size_t> fan_out(g.boxes.size(), 0);
  for (auto [from, to] : g.edges) ++fan_out[from];
  std::vector<bool> routed(g.edges.size());
  size_t routed_count = 0;
  for (size_t i = 0; i < g.edges.size(); ++i) {
    routed[i] = fan_out[g.edges[i].first] <= g.max_routed_fan_out;
    routed_count += routed[i];
  }
  GraphvizSession session;
  Agraph_t* graph = session.open_graph("level");
  BoxGraphLayout out;
  out.used_dot = true;
  // dot's cost grows with edges as much as with boxes: both count towards the bounds.
  out.strategy_note = dot::apply_graph_attributes(graph, spacing, g.boxes.size() + routed_count);
  std::vector<Agnode_t*> nodes;
  nodes.reserve(g.boxes.size());
  for (size_t i = 0; i < g.boxes.size(); ++i) nodes.push_back(dot::add_box(graph, "b" + std::to_string(i), g.boxes[i]));
  std::vector<Agedge_t*> edges(g.edges.size(), nullptr);
  for (size_t i = 0; i < g.edges.size(); ++i)
    if (routed[i]) edges[i] = agedge(graph, nodes[g.edges[i].first], nodes[g.edges[i].second], nullptr, 1);
  session.run_layout("dot");
  const dot::Flip flip{GD_bb(graph)};
  const Rect bounds = flip(GD_bb(graph));
  out.size = {bounds.width, bounds.height};
  for (Agnode_t* n : nodes) out.boxes.push_back(dot::box_of(n, flip));
  for (size_t i = 0; i < g.edges.size(); ++i) {
    const Rect& from = out.boxes[g.edges[i].first];
    const Rect& to = out.boxes[g.edges[i].second];
    if (!edges[i]) {
      out.routes.push_back(plain_route(from, to));
      continue;
    }
    BoxRoute route;
    dot::read_route(edges[i], from, to, flip, route.curve, route.arrow_tip);
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
