#include "engine/ir/graph.h"

#include <algorithm>
#include <stdexcept>

namespace exportlens::ir {

// ---- Node: operands and uses ---------------------------------------------------------

void Node::set_args(std::vector<Argument> args) { set_inputs(std::move(args), std::move(kwargs_)); }

void Node::set_kwargs(std::vector<NamedArgument> kwargs) { set_inputs(std::move(args_), std::move(kwargs)); }

void Node::set_inputs(std::vector<Argument> args, std::vector<NamedArgument> kwargs) {
  if (graph_) remove_uses();
  args_ = std::move(args);
  kwargs_ = std::move(kwargs);
  if (graph_) add_uses();
}

void Node::replace_input(Node* from, Node* to) {
  if (from == to) return;
  bool reads = false;
  for_each_input([&](const Node* in) { reads = reads || in == from; });
  if (!reads) return;
  for (auto& a : args_) a.replace_node(from, to);
  for (auto& k : kwargs_) k.value.replace_node(from, to);
  if (!graph_) return;
  auto& u = from->users_;
  u.erase(std::remove(u.begin(), u.end(), this), u.end());
  if (to && std::find(to->users_.begin(), to->users_.end(), this) == to->users_.end()) to->users_.push_back(this);
}

void Node::add_uses() {
  // The uses are added together, so a repeated input finds this node last in
  // its user list: checking the back keeps a value with many users linear.
  for_each_input([&](Node* input) {
    if (!input) return;
    auto& u = input->users_;
    if (u.empty() || u.back() != this) u.push_back(this);
  });
}

void Node::remove_uses() {
  for_each_input([&](Node* input) {
    if (!input) return;
    auto& u = input->users_;
    u.erase(std::remove(u.begin(), u.end(), this), u.end());
  });
}

void Node::renumber_graph() const { graph_->renumber(); }

Node* Node::next() const {
  if (!graph_) return nullptr;
  auto it = std::next(place_);
  return it == graph_->nodes_.end() ? nullptr : it->get();
}

Node* Node::prev() const {
  if (!graph_ || place_ == graph_->nodes_.begin()) return nullptr;
  return std::prev(place_)->get();
}

// ---- Graph ---------------------------------------------------------------------------

Graph::Graph(Graph&& other) noexcept { *this = std::move(other); }

Graph& Graph::operator=(Graph&& other) noexcept {
  nodes_ = std::move(other.nodes_);  // the list's elements move over: each node's place_ stays valid
  by_name_ = std::move(other.by_name_);
  order_stale_.store(other.order_stale_.load());
  for (auto& n : nodes_) n->graph_ = this, n->order_stale_ = &order_stale_;
  return *this;
}

Node* Graph::append(std::unique_ptr<Node> node) { return insert_before(nullptr, std::move(node)); }

Node* Graph::insert_before(Node* pos, std::unique_ptr<Node> node) {
  if (node->name.empty()) throw std::invalid_argument("graph: node without a name");
  if (node->graph_) throw std::invalid_argument("graph: node '" + node->name + "' is already in a graph");
  if (pos && pos->graph_ != this) throw std::invalid_argument("graph: insertion point not in this graph");
  if (by_name_.count(node->name))
    throw std::invalid_argument("graph: duplicate node name '" + node->name + "'");
  Node* raw = node.get();
  raw->graph_ = this;
  raw->order_stale_ = &order_stale_;
  raw->place_ = nodes_.insert(pos ? pos->place_ : nodes_.end(), std::move(node));
  by_name_[raw->name] = raw;
  raw->add_uses();
  if (pos) order_stale_.store(true);
  else if (!order_stale_.load()) raw->index_ = static_cast<int>(nodes_.size()) - 1;  // appending keeps the others' places
  return raw;
}

void Graph::erase(Node* node) {
  if (!node->users_.empty())
    throw std::logic_error("graph: cannot erase '" + node->name + "', it still has users");
  node->remove_uses();
  by_name_.erase(node->name);
  nodes_.erase(node->place_);
  order_stale_.store(true);
}

void Graph::erase_all(const std::unordered_set<const Node*>& doomed) {
  if (doomed.empty()) return;
  std::unordered_set<Node*> inputs;  // those that stay lose their doomed users, each once
  for (const auto& p : nodes_) {
    if (!doomed.count(p.get())) continue;
    for (const Node* user : p->users_)
      if (!doomed.count(user))
        throw std::logic_error("graph: cannot erase '" + p->name + "', '" + user->name + "' still uses it");
    p->for_each_input([&](Node* in) {
      if (in && !doomed.count(in)) inputs.insert(in);
    });
  }
  for (Node* in : inputs)
    in->users_.erase(std::remove_if(in->users_.begin(), in->users_.end(), [&](Node* u) { return doomed.count(u) > 0; }),
                     in->users_.end());
  nodes_.remove_if([&](const auto& p) {
    if (!doomed.count(p.get())) return false;
    by_name_.erase(p->name);
    return true;
  });
  order_stale_.store(true);
}

void Graph::replace_all_uses_with(Node* from, Node* to) {
  for (Node* user : std::vector<Node*>(from->users_)) user->replace_input(from, to);
}

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (const auto& n : nodes_) out.push_back(n.get());
  return out;
}

Node* Graph::find(std::string_view name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

std::vector<Node*> Graph::placeholders() const {
  std::vector<Node*> out;
  for (const auto& n : nodes_)
    if (n->op == OpKind::Placeholder) out.push_back(n.get());
  return out;
}

Node* Graph::output() const {
  for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it)
    if ((*it)->op == OpKind::Output) return it->get();
  return nullptr;
}

std::string Graph::unique_name(std::string_view base) const {
  std::string candidate(base);
  for (int i = 1; by_name_.count(candidate); ++i) candidate = std::string(base) + "_" + std::to_string(i);
  return candidate;
}

void Graph::renumber() const {
  std::lock_guard<std::mutex> lock(order_mutex_);
  if (!order_stale_.load(std::memory_order_relaxed)) return;  // another thread numbered them meanwhile
  int i = 0;
  for (const auto& n : nodes_) n->index_ = i++;
  order_stale_.store(false, std::memory_order_release);
}

const GraphModule* GraphModule::submodule(std::string_view name) const {
  for (const auto& [n, m] : submodules)
    if (n == name) return m.get();
  return nullptr;
}

}  // namespace exportlens::ir
