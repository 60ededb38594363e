#include "engine/layout/layout_graph.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/layout/dot_support.h"
#include "engine/layout/graphviz_session.h"
#include "engine/layout/node_label.h"

namespace exportlens::layout {
namespace {

void check(const CancelToken* cancel) {
  if (cancel && cancel->is_cancelled()) throw Cancelled();
}

dot::Spacing spacing_of(const LayoutOptions& options) {
  return {options.node_separation, options.rank_separation, options.big_graph_nodes, options.huge_graph_nodes};
}

// One cluster subgraph per module scope (not the root), nested like the
// scopes; clusters[s] for scope s (nullptr for the root).
std::vector<Agraph_t*> create_clusters(Agraph_t* g, const ir::ModuleHierarchy& tree, const LayoutOptions& options) {
  std::vector<Agraph_t*> clusters(tree.size(), nullptr);
  for (size_t i = 1; i < tree.size(); ++i) {
    const int parent = tree[static_cast<int>(i)].parent;
    Agraph_t* owner = parent == ir::ModuleHierarchy::kRoot ? g : clusters[parent];
    std::string name = "cluster_" + std::to_string(i);
    Agraph_t* sub = agsubg(owner, name.data(), 1);
    GraphvizSession::set(sub, "label", "");
    GraphvizSession::set(sub, "margin", dot::number(std::max(8.0, options.cluster_label_height + 4)));
    clusters[i] = sub;
  }
  return clusters;
}

// Calls and get_attr nodes go into their innermost scope's cluster;
// placeholders and the output stay outside (module_hierarchy() puts them in
// the root). A weight sits one rank above its user, i.e. on the previous
// module's last rank: inside its module's box it would force that box beside
// the previous one and the graph would drift sideways block by block.
std::vector<Agnode_t*> create_nodes(Agraph_t* g, const std::vector<ir::Node*>& nodes,
                                    const ir::ModuleHierarchy* tree, const std::vector<Agraph_t*>& clusters,
                                    const LayoutOptions& options) {
  std::vector<Agnode_t*> out;
  out.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ir::Node& node = *nodes[i];
    const int scope = tree ? tree->scope_of[i] : ir::ModuleHierarchy::kRoot;
    Agraph_t* owner = scope == ir::ModuleHierarchy::kRoot ? g : clusters[scope];
    out.push_back(dot::add_box(owner, "n" + std::to_string(i),
                               options.node_size ? options.node_size(node) : estimated_box_size(node_label(node))));
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

GraphLayout read_layout(Agraph_t* g, const std::vector<ir::Node*>& nodes, const std::vector<Agnode_t*>& gv_nodes,
                        const std::vector<std::pair<int, int>>& edges, const std::vector<Agedge_t*>& gv_edges,
                        const ir::ModuleHierarchy* tree, const std::vector<Agraph_t*>& clusters) {
  GraphLayout out;
  const dot::Flip flip{GD_bb(g)};
  out.bounds = flip(GD_bb(g));
  out.nodes.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Rect box = dot::box_of(gv_nodes[i], flip);
    out.nodes.push_back({nodes[i]->name, box.centre(), {box.width, box.height}});
  }
  out.edges.reserve(edges.size());
  for (size_t i = 0; i < edges.size(); ++i) {
    const NodeBox& from = out.nodes[edges[i].first];
    const NodeBox& to = out.nodes[edges[i].second];
    EdgeRoute route{from.name, to.name, {}, {}};
    dot::read_route(gv_edges[i], from.rect(), to.rect(), flip, route.curve, route.arrow_tip);
    out.edges.push_back(std::move(route));
  }
  if (tree) {
    out.clusters.reserve(tree->size() - 1);
    for (size_t i = 1; i < tree->size(); ++i) {
      const auto& scope = (*tree)[static_cast<int>(i)];
      out.clusters.push_back({scope.path, scope.label(), scope.depth - 1, flip(GD_bb(clusters[i])), {}});
    }
    // Every node belongs to its scope and to all the scopes around it.
    for (size_t i = 0; i < nodes.size(); ++i) {
      for (int s = tree->scope_of[i]; s > ir::ModuleHierarchy::kRoot; s = (*tree)[s].parent)
        out.clusters[s - 1].nodes.push_back(nodes[i]->name);
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

GraphLayout layout_graph(const ir::Graph& graph, const LayoutOptions& options, const CancelToken* cancel,
                         const ProgressCallback& progress) {
  auto report = [&](double fraction, std::string_view stage) {
    if (progress) progress(fraction, stage);
  };
  check(cancel);
  report(0.0, "preparing layout");
  const std::vector<ir::Node*> nodes = graph.nodes();
  if (nodes.empty()) return {};
  ir::ModuleHierarchy tree;
  if (options.cluster_by_module) tree = ir::module_hierarchy(graph);
  const ir::ModuleHierarchy* scopes = options.cluster_by_module ? &tree : nullptr;
  const auto edges = dependencies(nodes);

  GraphvizSession session;
  check(cancel);
  Agraph_t* g = session.open_graph("program");
  std::string note = dot::apply_graph_attributes(g, spacing_of(options), nodes.size());
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
