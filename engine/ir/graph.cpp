#include "engine/ir/graph.h"

#include <algorithm>
#include <stdexcept>

namespace exportlens::ir {

Graph::Graph(Graph&& other) noexcept { *this = std::move(other); }

Graph& Graph::operator=(Graph&& other) noexcept {
  nodes_ = std::move(other.nodes_);
  by_name_ = std::move(other.by_name_);
  for (auto& n : nodes_) n->graph_ = this;
  return *this;
}

Node* Graph::append(std::unique_ptr<Node> node) { return insert_before(nullptr, std::move(node)); }

Node* Graph::insert_before(Node* pos, std::unique_ptr<Node> node) {
  if (node->name.empty()) throw std::invalid_argument("graph: node without a name");
  if (by_name_.count(node->name))
    throw std::invalid_argument("graph: duplicate node name '" + node->name + "'");
  Node* raw = node.get();
  raw->graph_ = this;
  auto it = nodes_.end();
  if (pos) {
    it = std::find_if(nodes_.begin(), nodes_.end(), [&](const auto& p) { return p.get() == pos; });
    if (it == nodes_.end()) throw std::invalid_argument("graph: insertion point not in this graph");
  }
  nodes_.insert(it, std::move(node));
  by_name_[raw->name] = raw;
  add_uses(raw);
  if (pos) {
    renumber();
  } else {
    raw->index_ = static_cast<int>(nodes_.size()) - 1;  // appending keeps the others' places
  }
  return raw;
}

void Graph::erase(Node* node) {
  if (!node->users_.empty())
    throw std::logic_error("graph: cannot erase '" + node->name + "', it still has users");
  remove_uses(node);
  by_name_.erase(node->name);
  nodes_.remove_if([&](const auto& p) { return p.get() == node; });
  renumber();
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
  renumber();
}

void Graph::replace_all_uses_with(Node* from, Node* to) {
  for (Node* user : std::vector<Node*>(from->users_)) {
    for (auto& a : user->args) a.replace_node(from, to);
    for (auto& k : user->kwargs) k.value.replace_node(from, to);
    if (std::find(to->users_.begin(), to->users_.end(), user) == to->users_.end())
      to->users_.push_back(user);
  }
  from->users_.clear();
}

void Graph::rebuild_uses() {
  for (auto& n : nodes_) n->users_.clear();
  for (auto& n : nodes_) add_uses(n.get());
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

void Graph::add_uses(Node* n) {
  // n's uses are added together, so a repeated input finds n last in its
  // user list: checking the back keeps a value with many users linear.
  n->for_each_input([&](Node* input) {
    if (!input) return;
    auto& u = input->users_;
    if (u.empty() || u.back() != n) u.push_back(n);
  });
}

void Graph::remove_uses(Node* n) {
  n->for_each_input([&](Node* input) {
    if (!input) return;
    auto& u = input->users_;
    u.erase(std::remove(u.begin(), u.end(), n), u.end());
  });
}

void Graph::renumber() {
  int i = 0;
  for (auto& n : nodes_) n->index_ = i++;
}

const GraphModule* GraphModule::submodule(std::string_view name) const {
  for (const auto& [n, m] : submodules)
    if (n == name) return m.get();
  return nullptr;
}

}  // namespace exportlens::ir
