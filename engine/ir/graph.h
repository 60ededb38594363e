#pragma once
// An ordered list of nodes with use lists; a GraphModule pairs a graph with
// the named subgraphs its get_attr nodes reference (cond/map branches).
#include <list>
#include <map>
#include <memory>
#include <string>
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
  /// Inserts before `pos` (nullptr: append).
  Node* insert_before(Node* pos, std::unique_ptr<Node> node);
  /// Removes a node that no other node uses.
  void erase(Node* node);
  /// Removes `nodes` together, in one pass over the graph: nothing outside
  /// them may use any of them.
  void erase_all(const std::unordered_set<const Node*>& nodes);
  /// Points every use of `from` at `to`.
  void replace_all_uses_with(Node* from, Node* to);
  /// Re-derives every node's users from the args (after editing args by hand).
  void rebuild_uses();

  std::vector<Node*> nodes() const;
  size_t size() const { return nodes_.size(); }
  Node* find(std::string_view name) const;
  std::vector<Node*> placeholders() const;
  Node* output() const;  // nullptr if missing
  /// A name not yet used here: `base`, `base_1`, `base_2`, ... as FX does.
  std::string unique_name(std::string_view base) const;

 private:
  void add_uses(Node* n);
  void remove_uses(Node* n);
  void renumber();
  std::list<std::unique_ptr<Node>> nodes_;
  std::map<std::string, Node*, std::less<>> by_name_;
};

struct GraphModule {
  Graph graph;
  /// Subgraphs referenced by get_attr nodes, by attribute name, in file order.
  std::vector<std::pair<std::string, std::shared_ptr<GraphModule>>> submodules;
  const GraphModule* submodule(std::string_view name) const;
};

}  // namespace exportlens::ir
