#pragma once
// Lays out an IR graph with Graphviz's `dot`: one box per node, one edge per
// data dependency, nested clusters per module scope. No Qt: the caller
// measures its text and passes node sizes in.
#include <functional>
#include <string_view>

#include "engine/ir/graph.h"
#include "engine/base/cancel_token.h"
#include "engine/layout/graph_layout.h"

namespace exportlens::layout {

struct LayoutOptions {
  /// Size of a node's box in points. The default estimates it from
  /// node_label() with a 10 pt sans font; views pass their font metrics.
  std::function<Size(const ir::Node&)> node_size;
  /// Group nodes into nested boxes by their module scope (nn_module_stack).
  bool cluster_by_module = true;
  /// Space a view needs above a cluster's nodes for its label, in points.
  double cluster_label_height = 16;
  double node_separation = 18;  // points between boxes on one rank
  double rank_separation = 30;  // points between ranks
  /// From this many nodes on, dot's network simplex and crossing
  /// minimization are bounded (see README.md): the layout is a little less
  /// tidy but stays fast; from huge_graph_nodes on, x placement is bounded
  /// hard (boxes line up less neatly).
  size_t big_graph_nodes = 300;
  size_t huge_graph_nodes = 1000;
};

/// Called with a fraction in [0, 1] and what is being done.
using ProgressCallback = std::function<void(double fraction, std::string_view stage)>;

/// Lays out `graph`. Deterministic: the same graph and options give the same
/// layout. Safe to call from any thread (calls into Graphviz are serialized).
/// Throws Cancelled when `cancel` is set between stages (dot itself cannot be
/// interrupted), std::runtime_error when Graphviz fails.
GraphLayout layout_graph(const ir::Graph& graph, const LayoutOptions& options = {},
                         const CancelToken* cancel = nullptr,
                         const ProgressCallback& progress = {});

}  // namespace exportlens::layout
