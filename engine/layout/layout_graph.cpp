#include "engine/layout/layout_graph.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/layout/graphviz_session.h"
#include "engine/layout/module_scopes.h"
#include "engine/layout/node_label.h"

namespace exportlens::layout {
namespace {

constexpr double kPointsPerInch = 72.0;

// Locale-independent, shortest round-trip text for a number.
std::string number(double value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

Size estimated_size(const ir::Node& node) {
  NodeLabel label = node_label(node);
  // Average advance of a 10 pt sans font is about 6 pt per character.
  double text = std::max(label.title.size() * 6.5, label.subtitle.size() * 6.0);
  return {std::max(60.0, text + 20.0), label.subtitle.empty() ? 24.0 : 38.0};
}

void check(const CancelToken* cancel) {
  if (cancel && cancel->is_cancelled()) throw Cancelled();
}

struct SimplexBounds {
  const char* nslimit;   // x-placement network simplex: iterations per node
  const char* nslimit1;  // ranking network simplex: iterations per node
  const char* mclimit;   // scale of crossing-minimization passes
  const char* searchsize;
};

// Graph-wide dot settings; bounds the expensive phases for big graphs.
// Returns a note saying what was bounded (empty when nothing was).
std::string apply_graph_attributes(Agraph_t* g, const LayoutOptions& options, size_t node_count) {
  GraphvizSession::set(g, "rankdir", "TB");
  GraphvizSession::set(g, "nodesep", number(options.node_separation / kPointsPerInch));
  GraphvizSession::set(g, "ranksep", number(options.rank_separation / kPointsPerInch));
  GraphvizSession::set(g, "splines", "spline");
  if (node_count < options.big_graph_nodes) return "";
  // Network simplex for x placement dominates on big graphs (it runs on an
  // auxiliary graph with a node per edge segment); measured in README.md.
  const bool huge = node_count >= options.huge_graph_nodes;
  const SimplexBounds b = huge ? SimplexBounds{"0.01", "2", "0.25", "10"}
                               : SimplexBounds{"1", "2", "0.5", "20"};
  GraphvizSession::set(g, "nslimit", b.nslimit);
  GraphvizSession::set(g, "nslimit1", b.nslimit1);
  GraphvizSession::set(g, "mclimit", b.mclimit);
  GraphvizSession::set(g, "searchsize", b.searchsize);
  return std::string(huge ? "huge" : "big") + " graph (" + std::to_string(node_count) +
         " nodes): dot bounded with nslimit=" + b.nslimit + ", nslimit1=" + b.nslimit1 +
         ", mclimit=" + b.mclimit + ", searchsize=" + b.searchsize;
}

// One cluster subgraph per module scope, nested like the scopes.
std::vector<Agraph_t*> create_clusters(Agraph_t* g, const ModuleScopeTree& tree,
                                       const LayoutOptions& options) {
  std::vector<Agraph_t*> clusters;
  clusters.reserve(tree.scopes.size());
  for (size_t i = 0; i < tree.scopes.size(); ++i) {
    const auto& scope = tree.scopes[i];
    Agraph_t* parent = scope.parent < 0 ? g : clusters[scope.parent];
    std::string name = "cluster_" + std::to_string(i);
    Agraph_t* sub = agsubg(parent, name.data(), 1);
    GraphvizSession::set(sub, "label", "");
    GraphvizSession::set(sub, "margin", number(std::max(8.0, options.cluster_label_height + 4)));
    clusters.push_back(sub);
  }
  return clusters;
}

std::vector<Agnode_t*> create_nodes(Agraph_t* g, const std::vector<ir::Node*>& nodes,
                                    const ModuleScopeTree* tree,
                                    const std::vector<Agraph_t*>& clusters,
                                    const LayoutOptions& options) {
  std::vector<Agnode_t*> out;
  out.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ir::Node& node = *nodes[i];
    int scope = tree ? tree->scope_of[i] : -1;
    Agraph_t* owner = scope < 0 ? g : clusters[scope];
    std::string id = "n" + std::to_string(i);
    Agnode_t* n = agnode(owner, id.data(), 1);
    Size size = options.node_size ? options.node_size(node) : estimated_size(node);
    GraphvizSession::set(n, "shape", "box");
    GraphvizSession::set(n, "fixedsize", "true");
    GraphvizSession::set(n, "label", "");
    GraphvizSession::set(n, "width", number(size.width / kPointsPerInch));
    GraphvizSession::set(n, "height", number(size.height / kPointsPerInch));
    out.push_back(n);
  }
  return out;
}

// Edges in consumer order, then argument order; a node read twice by the same
// consumer (add(x, x)) gets one edge.
std::vector<std::pair<int, int>> dependencies(const std::vector<ir::Node*>& nodes) {
  std::vector<std::pair<int, int>> edges;
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::set<int> seen;
    nodes[i]->for_each_input([&](const ir::Node* input) {
      if (!input || input->graph() != nodes[i]->graph()) return;
      int from = input->index();
      if (from < 0 || static_cast<size_t>(from) >= nodes.size() || nodes[from] != input) return;
      if (seen.insert(from).second) edges.emplace_back(from, static_cast<int>(i));
    });
  }
  return edges;
}

// Graphviz coordinates have y up and may not start at 0; ours start at the
// top-left corner with y down.
struct Flip {
  boxf bb;
  Point operator()(pointf p) const { return {p.x - bb.LL.x, bb.UR.y - p.y}; }
  Rect operator()(boxf b) const {
    return {b.LL.x - bb.LL.x, bb.UR.y - b.UR.y, b.UR.x - b.LL.x, b.UR.y - b.LL.y};
  }
};

EdgeRoute read_edge(Agedge_t* e, const NodeBox& from, const NodeBox& to, const Flip& flip) {
  EdgeRoute route{from.name, to.name, {}, {}};
  const splines* spl = ED_spl(e);
  if (spl) {
    for (int b = 0; b < spl->size; ++b) {
      const bezier& bz = spl->list[b];
      for (int k = route.curve.empty() ? 0 : 1; k < bz.size; ++k) route.curve.push_back(flip(bz.list[k]));
    }
  }
  if (route.curve.size() < 4) {
    // Graphviz gave no route: a straight cubic from box to box.
    Point a{from.centre.x, from.rect().bottom()}, b{to.centre.x, to.rect().y};
    route.curve = {a, a, b, b};
    route.arrow_tip = b;
    return route;
  }
  // The curve stops short of the head to leave room for the arrowhead.
  const bezier& last = spl->list[spl->size - 1];
  route.arrow_tip = last.eflag ? flip(last.ep) : route.curve.back();
  return route;
}

GraphLayout read_layout(Agraph_t* g, const std::vector<ir::Node*>& nodes,
                        const std::vector<Agnode_t*>& gv_nodes,
                        const std::vector<std::pair<int, int>>& edges,
                        const std::vector<Agedge_t*>& gv_edges, const ModuleScopeTree* tree,
                        const std::vector<Agraph_t*>& clusters) {
  GraphLayout out;
  Flip flip{GD_bb(g)};
  out.bounds = flip(GD_bb(g));
  out.nodes.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    Agnode_t* n = gv_nodes[i];
    out.nodes.push_back({nodes[i]->name, flip(ND_coord(n)),
                         {ND_width(n) * kPointsPerInch, ND_height(n) * kPointsPerInch}});
  }
  out.edges.reserve(edges.size());
  for (size_t i = 0; i < edges.size(); ++i)
    out.edges.push_back(read_edge(gv_edges[i], out.nodes[edges[i].first], out.nodes[edges[i].second], flip));
  if (tree) {
    out.clusters.reserve(clusters.size());
    for (size_t i = 0; i < clusters.size(); ++i) {
      const auto& scope = tree->scopes[i];
      out.clusters.push_back({scope.path, scope.label, scope.depth, flip(GD_bb(clusters[i])), {}});
    }
    // Every node belongs to its scope and to all the scopes around it.
    for (size_t i = 0; i < nodes.size(); ++i) {
      for (int s = tree->scope_of[i]; s >= 0; s = tree->scopes[s].parent)
        out.clusters[s].nodes.push_back(nodes[i]->name);
    }
  }
  return out;
}

}  // namespace

const NodeBox* GraphLayout::find_node(std::string_view name) const {
  for (const auto& n : nodes)
    if (n.name == name) return &n;
  return nullptr;
}

GraphLayout layout_graph(const ir::Graph& graph, const LayoutOptions& options,
                         const CancelToken* cancel, const ProgressCallback& progress) {
  auto report = [&](double fraction, std::string_view stage) {
    if (progress) progress(fraction, stage);
  };
  check(cancel);
  report(0.0, "preparing layout");
  const std::vector<ir::Node*> nodes = graph.nodes();
  if (nodes.empty()) return {};
  ModuleScopeTree tree;
  if (options.cluster_by_module) tree = module_scopes(graph);
  const ModuleScopeTree* scopes = options.cluster_by_module ? &tree : nullptr;
  const auto edges = dependencies(nodes);

  GraphvizSession session;
  check(cancel);
  Agraph_t* g = session.open_graph("program");
  std::string note = apply_graph_attributes(g, options, nodes.size());
  auto clusters = scopes ? create_clusters(g, tree, options) : std::vector<Agraph_t*>{};
  auto gv_nodes = create_nodes(g, nodes, scopes, clusters, options);
  std::vector<Agedge_t*> gv_edges;
  gv_edges.reserve(edges.size());
  for (auto [from, to] : edges) gv_edges.push_back(agedge(g, gv_nodes[from], gv_nodes[to], nullptr, 1));

  check(cancel);
  report(0.1, "running dot");
  session.run_layout("dot");
  check(cancel);
  report(0.9, "reading layout");
  GraphLayout out = read_layout(g, nodes, gv_nodes, edges, gv_edges, scopes, clusters);
  out.strategy_note = std::move(note);
  report(1.0, "layout done");
  return out;
}

}  // namespace exportlens::layout
