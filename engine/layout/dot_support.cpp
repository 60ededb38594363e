#include "engine/layout/dot_support.h"

#include <charconv>

#include "engine/layout/graphviz_session.h"

namespace exportlens::layout::dot {
namespace {

struct SimplexBounds {
  const char* nslimit;   // x-placement network simplex: iterations per node
  const char* nslimit1;  // ranking network simplex: iterations per node
  const char* mclimit;   // scale of crossing-minimization passes
  const char* searchsize;
};

}  // namespace

std::string number(double value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

std::string apply_graph_attributes(Agraph_t* g, const Spacing& spacing, size_t node_count) {
  GraphvizSession::set(g, "rankdir", "TB");
  GraphvizSession::set(g, "nodesep", number(spacing.node_separation / kPointsPerInch));
  GraphvizSession::set(g, "ranksep", number(spacing.rank_separation / kPointsPerInch));
  GraphvizSession::set(g, "splines", "spline");
  if (node_count < spacing.big_graph_nodes) return "";
  // Network simplex for x placement dominates on big graphs (it runs on an
  // auxiliary graph with a node per edge segment); measured in README.md.
  const bool huge = node_count >= spacing.huge_graph_nodes;
  const SimplexBounds b = huge ? SimplexBounds{"0.01", "2", "0.25", "10"} : SimplexBounds{"1", "2", "0.5", "20"};
  GraphvizSession::set(g, "nslimit", b.nslimit);
  GraphvizSession::set(g, "nslimit1", b.nslimit1);
  GraphvizSession::set(g, "mclimit", b.mclimit);
  GraphvizSession::set(g, "searchsize", b.searchsize);
  return std::string(huge ? "huge" : "big") + " graph (" + std::to_string(node_count) +
         " nodes): dot bounded with nslimit=" + b.nslimit + ", nslimit1=" + b.nslimit1 + ", mclimit=" + b.mclimit +
         ", searchsize=" + b.searchsize;
}

Agnode_t* add_box(Agraph_t* owner, const std::string& id, Size size) {
  std::string name = id;
  Agnode_t* n = agnode(owner, name.data(), 1);
  GraphvizSession::set(n, "shape", "box");
  GraphvizSession::set(n, "fixedsize", "true");
  GraphvizSession::set(n, "label", "");
  GraphvizSession::set(n, "width", number(size.width / kPointsPerInch));
  GraphvizSession::set(n, "height", number(size.height / kPointsPerInch));
  return n;
}

Rect box_of(Agnode_t* n, const Flip& flip) {
  return Rect::around(flip(ND_coord(n)), {ND_width(n) * kPointsPerInch, ND_height(n) * kPointsPerInch});
}

void read_route(Agedge_t* e, const Rect& from, const Rect& to, const Flip& flip, std::vector<Point>& curve,
                Point& arrow_tip) {
  curve.clear();
  const splines* spl = ED_spl(e);
  if (spl) {
    for (int b = 0; b < spl->size; ++b) {
      const bezier& bz = spl->list[b];
      for (int k = curve.empty() ? 0 : 1; k < bz.size; ++k) curve.push_back(flip(bz.list[k]));
    }
  }
  if (curve.size() < 4) {
    // Graphviz gave no route: a straight cubic from box to box.
    const Point a{from.centre().x, from.bottom()}, b{to.centre().x, to.y};
    curve = {a, a, b, b};
    arrow_tip = b;
    return;
  }
  // The curve stops short of the head to leave room for the arrowhead.
  const bezier& last = spl->list[spl->size - 1];
  arrow_tip = last.eflag ? flip(last.ep) : curve.back();
}

}  // namespace exportlens::layout::dot
