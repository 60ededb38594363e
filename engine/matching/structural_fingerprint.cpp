#include "engine/matching/structural_fingerprint.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "engine/matching/structure_hash.h"

namespace exportlens::matching {
namespace {

bool reads_sizes(const ir::Target& t) {
  const std::string& q = t.qualified();
  return q == "torch.ops.aten.sym_size.int" || q == "torch.ops.aten.sym_stride.int" ||
         q == "torch.ops.aten.sym_numel.default" || q == "torch.ops.aten.sym_storage_offset.default";
}

bool python_arithmetic(const ir::Target& t) {
  const std::string_view q = t.qualified();
  return q.starts_with("_operator.") || q.starts_with("operator.") || q.starts_with("math.") ||
         q == "torch.sym_max" || q == "torch.sym_min" || q == "torch.sym_not" || q == "torch.sym_sqrt";
}

bool integer_valued(const ir::Node& node) { return node.value.sym_int() || node.value.sym_bool(); }

int position_in(const std::vector<int>& sorted, int node) {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), node);
  return it != sorted.end() && *it == node ? static_cast<int>(it - sorted.begin()) : -1;
}

// Which nodes are size expressions: in graph order, so a node's inputs are known first.
std::vector<char> find_size_expressions(const std::vector<ir::Node*>& nodes) {
  std::vector<char> size(nodes.size(), 0);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ir::Node& n = *nodes[i];
    if (n.op != ir::OpKind::CallFunction || !integer_valued(n)) continue;
    if (reads_sizes(n.target)) {
      size[i] = 1;
      continue;
    }
    if (!python_arithmetic(n.target)) continue;
    bool all_sizes = true;
    n.for_each_input([&](const ir::Node* in) {
      const int k = in ? in->index() : -1;
      if (k < 0 || static_cast<size_t>(k) >= nodes.size() || nodes[k] != in || !size[k]) all_sizes = false;
    });
    size[i] = all_sizes;
  }
  return size;
}

class FingerprintPass {
 public:
  FingerprintPass(const ir::ExportedProgram& program, const ir::ModuleHierarchy& h)
      : h_(h), nodes_(program.graph().nodes()) {
    const size_t n = nodes_.size(), s = h.size();
    f_.size_expression = find_size_expressions(nodes_);
    f_.node_op.resize(n);
    f_.node_identity.resize(n);
    f_.node_value.resize(n);
    for (size_t i = 0; i < n; ++i) {
      f_.node_value[i] = hash::value(nodes_[i]->value);
      f_.node_op[i] = hash::op(*nodes_[i]);
      f_.node_identity[i] = hash::mix(f_.node_op[i], hash::attributes(*nodes_[i]));
    }
    std::unordered_map<std::string_view, ir::InputKind> kinds;
    for (const auto& in : program.signature.inputs) kinds.emplace(in.arg.name, in.kind);
    weight_kind_.assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (nodes_[i]->op != ir::OpKind::Placeholder) continue;
      const auto it = kinds.find(nodes_[i]->name);
      if (it != kinds.end() && it->second != ir::InputKind::UserInput) weight_kind_[i] = 1 + static_cast<int>(it->second);
    }
    f_.fingerprint.assign(s, 0);
    f_.items.resize(s);
    f_.inputs.resize(s);
    f_.outputs.resize(s);
    f_.has_content.assign(s, 0);
    node_ordinal_.assign(n, -1);
    child_ordinal_.assign(s, -1);
  }

  ScopeFingerprints run() {
    for (size_t k = h_.size(); k-- > 0;) fingerprint(static_cast<int>(k));
    return std::move(f_);
  }

 private:
  void fingerprint(int s) {
    const auto& scope = h_[s];
    std::vector<int> entering;  // in graph order
    for (int v : scope.inputs)
      if (!f_.size_expression[v]) entering.push_back(v);
    for (int v : scope.outputs)
      if (!f_.size_expression[v]) f_.outputs[s].push_back(v);

    // The items, own nodes and children merged by their first node.
    auto& items = f_.items[s];
    auto child = scope.children.begin();
    auto next_child = [&] {
      while (child != scope.children.end() && !f_.has_content[*child]) ++child;
    };
    next_child();
    for (int node : scope.nodes) {
      if (f_.size_expression[node]) continue;
      while (child != scope.children.end() && h_[*child].first_node < node) {
        items.push_back({true, *child++});
        next_child();
      }
      items.push_back({false, node});
    }
    for (; child != scope.children.end(); next_child()) items.push_back({true, *child++});
    f_.has_content[s] = !items.empty();
    order_inputs(s, entering);
    for (size_t k = 0; k < items.size(); ++k)
      (items[k].child ? child_ordinal_[items[k].index] : node_ordinal_[items[k].index]) = static_cast<int>(k);

    uint64_t fp = hash::mix(0x5c0e, hash::text(scope.type));
    // An input by what it is, not how it lies in memory: a stage's first block
    // reads the stem's permuted output, the next one a contiguous sum.
    for (int v : f_.inputs[s]) fp = hash::mix(fp, hash::mix(weight_kind_[v], hash::value_shape(nodes_[v]->value)));
    for (const auto& item : items) {
      if (item.child) {
        uint64_t c = hash::mix(0xc41d, f_.fingerprint[item.index]);
        for (int v : f_.inputs[item.index]) c = hash::mix(c, ref(s, v));
        fp = hash::mix(fp, c);
      } else {
        uint64_t n = hash::mix(f_.node_identity[item.index], f_.node_value[item.index]);
        nodes_[item.index]->for_each_input([&](const ir::Node* in) { n = hash::mix(n, ref(s, index_of(in))); });
        fp = hash::mix(fp, n);
      }
    }
    fp = hash::mix(fp, f_.outputs[s].size());
    for (int v : f_.outputs[s]) fp = hash::mix(fp, ref(s, v));
    f_.fingerprint[s] = fp;
  }

  // The values entering `s` in the order its items first read them (a
  // child's in its own order), not in graph order: two layers that read the
  // same things the same way list them alike wherever each was made (layer
  // 0's hidden state is made before the rotary tables both layers read,
  // layer 1's after them).
  void order_inputs(int s, const std::vector<int>& entering) {
    input_rank_.clear();
    auto& order = f_.inputs[s];
    auto note = [&](int v) {
      if (v >= 0 && std::binary_search(entering.begin(), entering.end(), v) &&
          input_rank_.emplace(v, static_cast<int>(order.size())).second)
        order.push_back(v);
    };
    for (const auto& item : f_.items[s]) {
      if (item.child)
        for (int v : f_.inputs[item.index]) note(v);
      else
        nodes_[item.index]->for_each_input([&](const ir::Node* in) { note(index_of(in)); });
    }
    for (int v : entering) note(v);  // read by no node (passed straight out)
  }

  int index_of(const ir::Node* n) const {
    const int k = n ? n->index() : -1;
    return k >= 0 && static_cast<size_t>(k) < nodes_.size() && nodes_[k] == n ? k : -1;
  }

  // A value read inside scope `s`, in s's own terms.
  uint64_t ref(int s, int v) const {
    if (v < 0) return 0xdead;  // not a node of this graph
    if (f_.size_expression[v]) return hash::mix(0x5125, f_.node_value[v]);
    int at = h_.scope_of[v];
    if (at == s) return hash::mix(0x10ca1, node_ordinal_[v]);
    while (at >= 0 && h_[at].parent != s) at = h_[at].parent;
    if (at >= 0) return hash::mix(hash::mix(0xc0, child_ordinal_[at]), position_in(f_.outputs[at], v));
    const auto rank = input_rank_.find(v);
    return hash::mix(0x1b, rank == input_rank_.end() ? -1 : rank->second);
  }

  const ir::ModuleHierarchy& h_;
  std::vector<ir::Node*> nodes_;
  ScopeFingerprints f_;
  std::vector<int> weight_kind_;  // by node: 0, or 1 + InputKind for parameters, buffers, constants
  std::vector<int> node_ordinal_, child_ordinal_;
  std::unordered_map<int, int> input_rank_;  // the scope being fingerprinted: input -> its place in f_.inputs
};

}  // namespace

std::vector<int> ScopeFingerprints::canonical_nodes(int scope) const {
  std::vector<int> out;
  std::vector<std::pair<int, size_t>> stack{{scope, 0}};
  while (!stack.empty()) {
    auto& [s, k] = stack.back();
    if (k == items[s].size()) {
      stack.pop_back();
      continue;
    }
    const Item item = items[s][k++];
    if (item.child)
      stack.emplace_back(item.index, 0);
    else
      out.push_back(item.index);
  }
  return out;
}

ScopeFingerprints fingerprint_scopes(const ir::ExportedProgram& program, const ir::ModuleHierarchy& hierarchy) {
  return FingerprintPass(program, hierarchy).run();
}

}  // namespace exportlens::matching
