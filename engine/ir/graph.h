#pragma once
// An ordered list of nodes that keeps its use lists and its order numbers
// itself: a node's operands change through its setters, which update the
// uses (node.h); insertion and removal are O(1) and mark the numbers stale,
// renumbered on the next Node::index() (MLIR's lazy operation order). A
// GraphModule pairs a graph with the named subgraphs its get_attr nodes
// reference (cond/map branches). Nodes are made and placed by ir::GraphBuilder.
#include <atomic>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/ir/node.h"

namespace exportlens::ir {

class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  // Moving keeps the nodes; they are told their new owner.
  Graph(Graph&& other) noexcept;
  Graph& operator=(Graph&& other) noexcept;

  /// Appends a node; its name must be unique (see unique_name()).
  Node* append(std::unique_ptr<Node> node);
  /// Inserts before `pos` (nullptr: append), in O(1).
  Node* insert_before(Node* pos, std::unique_ptr<Node> node);
  /// Removes a node that no other node uses.
  void erase(Node* node);
  /// Removes `nodes` together, in one pass over the graph: nothing outside
  /// them may use any of them.
  void erase_all(const std::unordered_set<const Node*>& nodes);
  /// Points every use of `from` at `to`.
  void replace_all_uses_with(Node* from, Node* to);

  std::vector<Node*> nodes() const;
  size_t size() const { return nodes_.size(); }
  Node* find(std::string_view name) const;
  std::vector<Node*> placeholders() const;
  Node* output() const;  // nullptr if missing
  Node* back() const { return nodes_.empty() ? nullptr : nodes_.back().get(); }
  /// A name not yet used here: `base`, `base_1`, `base_2`, ... as FX does.
  std::string unique_name(std::string_view base) const;

 private:
  friend class Node;
  void renumber() const;
  std::list<std::unique_ptr<Node>> nodes_;
  // A program is read from several threads at once (the GUI's jobs): the
  // first index() after an edit renumbers under the lock, the others wait.
  mutable std::atomic<bool> order_stale_{false};
  mutable std::mutex order_mutex_;
  // Hashed: looking a name up (readers, passes, numerics' pairing) is on hot paths.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, Node*, NameHash, std::equal_to<>> by_name_;
};

struct GraphModule {
  Graph graph;
  /// Subgraphs referenced by get_attr nodes, by attribute name, in file order.
  std::vector<std::pair<std::string, std::shared_ptr<GraphModule>>> submodules;
  const GraphModule* submodule(std::string_view name) const;
};

}  // namespace exportlens::ir
