#include "engine/diff/module_summary.h"

#include <map>
#include <set>

#include "engine/ir/op_key.h"
#include "engine/matching/module_path.h"
#include "engine/structure/stack_folding.h"

namespace exportlens::diff {
namespace {

constexpr size_t kOpsNamed = 4;  // in a list of ops; the rest is "…"

std::string op_name(const ir::Node& n) {
  if (n.op != ir::OpKind::CallFunction) return std::string(ir::op_kind_name(n.op));
  if (n.target.is_torch_op() || n.target.is_higher_order()) return n.target.op_name();
  const auto& q = n.target.qualified();
  const auto dot = q.rfind('.');
  return dot == std::string::npos ? q : q.substr(dot + 1);
}

// "matmul ×2, softmax, …" from names in order of first appearance.
std::string op_list(const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, int>> counted;
  for (const auto& n : names) {
    auto it = std::find_if(counted.begin(), counted.end(), [&](const auto& c) { return c.first == n; });
    if (it == counted.end()) counted.emplace_back(n, 1);
    else ++it->second;
  }
  std::string s;
  for (size_t k = 0; k < counted.size() && k < kOpsNamed; ++k)
    s += (k ? ", " : "") + counted[k].first + (counted[k].second > 1 ? " ×" + std::to_string(counted[k].second) : "");
  if (counted.size() > kOpsNamed) s += ", …";
  return s;
}

std::string ops_text(size_t n, const std::vector<std::string>& names) {
  return std::to_string(n) + (n == 1 ? " op" : " ops") + (names.empty() ? "" : " (" + op_list(names) + ")");
}

// "layers.0–3" for paths that differ in a last index, else "first … last" (one path: itself).
std::string range_text(const std::vector<std::string>& paths) {
  if (paths.empty()) return "";
  if (paths.size() == 1) return paths.front();
  std::string out;
  std::string prefix;
  long first = -1, last = -1;
  auto flush = [&] {
    if (first < 0) return;
    out += (out.empty() ? "" : ", ") + prefix + std::to_string(first) + (last > first ? "–" + std::to_string(last) : "");
    first = last = -1;
  };
  for (const auto& p : paths) {
    const auto dot = p.rfind('.');
    const std::string head = dot == std::string::npos ? "" : p.substr(0, dot + 1);
    const std::string tail = dot == std::string::npos ? p : p.substr(dot + 1);
    if (!matching::is_index(tail)) {
      flush();
      out += (out.empty() ? "" : ", ") + p;
      continue;
    }
    const long i = std::stol(tail);
    if (first >= 0 && head == prefix && i == last + 1) {
      last = i;
      continue;
    }
    flush();
    prefix = head;
    first = last = i;
  }
  flush();
  return out;
}

bool is_input(const matching::IndexedProgram& p, int node) {
  return p.nodes()[static_cast<size_t>(node)]->op == ir::OpKind::Placeholder;
}

class Summary {
 public:
  Summary(const matching::IndexedProgram& a, const matching::IndexedProgram& b, const ProgramDiff& d,
          const std::vector<const NodeDiff*>& node_a, const std::vector<const NodeDiff*>& node_b)
      : a_(a), b_(b), d_(d), node_a_(node_a), node_b_(node_b), ha_(a.hierarchy()), hb_(b.hierarchy()) {
    for (const structure::Stack& st : structure::fold_stacks(ha_, a.fingerprints()))
      if (st.enclosing < 0) stack_at_.emplace(st.instances.front().front(), st);
    mark_changes();
  }

  std::vector<ModuleChange> run() {
    visit(ir::ModuleHierarchy::kRoot);
    return std::move(out_);
  }

 private:
  std::string path_a(int s) const { return s == ir::ModuleHierarchy::kRoot ? "(top level)" : ha_[s].label(); }

  // A call only one program makes: "Adapter (4 ops)", "Block, call 2 (12 ops)".
  static std::string call_text(const ir::ModuleHierarchy::Scope& scope) {
    return scope.class_name() + (scope.call > 0 ? ", call " + std::to_string(scope.call + 1) : "") + " (" +
           ops_text(scope.op_count, {}) + ")";
  }

  // Whether anything differs inside each of A's calls (own nodes, nested calls, calls added in B).
  void mark_changes() {
    own_.assign(ha_.size(), 0);
    within_.assign(ha_.size(), 0);
    for (size_t s = 0; s < ha_.size(); ++s) {
      const int sb = d_.matching.scope_a_to_b[s];
      for (int n : ha_[static_cast<int>(s)].nodes)
        if (node_a_[static_cast<size_t>(n)]->status != Status::Same && !is_input(a_, n)) own_[s] = 1;
      if (sb >= 0) {
        for (int n : hb_[sb].nodes)
          if (node_b_[static_cast<size_t>(n)]->status == Status::Added && !is_input(b_, n)) own_[s] = 1;
        for (int c : hb_[sb].children)
          if (d_.matching.scope_b_to_a[static_cast<size_t>(c)] < 0 && b_.fingerprints().has_content[static_cast<size_t>(c)])
            within_[s] = 1;
      }
      if (sb < 0 || ha_[static_cast<int>(s)].type != hb_[sb].type) own_[s] = 1;
    }
    for (size_t s = ha_.size(); s-- > 0;) {
      within_[s] = within_[s] || own_[s];
      const int parent = ha_[static_cast<int>(s)].parent;
      if (parent >= 0 && within_[s]) within_[static_cast<size_t>(parent)] = 1;
    }
  }

  void visit(int sa) {
    const int sb = d_.matching.scope_a_to_b[static_cast<size_t>(sa)];
    if (sb < 0) {
      out_.push_back({Status::Removed, sa, -1, ha_[sa].path, call_text(ha_[sa])});
      return;
    }
    if (own_[static_cast<size_t>(sa)]) out_.push_back({Status::Changed, sa, sb, ha_[sa].path, own_text(sa, sb)});
    for (int c : hb_[sb].children)
      if (d_.matching.scope_b_to_a[static_cast<size_t>(c)] < 0 && b_.fingerprints().has_content[static_cast<size_t>(c)])
        out_.push_back({Status::Added, -1, c, hb_[c].path, call_text(hb_[c])});
    std::set<int> folded;  // the calls of a stack, said in its line
    for (int c : ha_[sa].children) {
      if (folded.count(c)) continue;
      const auto st = stack_at_.find(c);
      if (st != stack_at_.end()) {
        for (const auto& unit : st->second.instances) folded.insert(unit.begin(), unit.end());
        stack(st->second);
      } else if (within_[static_cast<size_t>(c)] && a_.fingerprints().has_content[static_cast<size_t>(c)]) {
        visit(c);
      }
    }
  }

  bool instance_changed(const std::vector<int>& unit) const {
    for (int s : unit)
      if (within_[static_cast<size_t>(s)]) return true;
    return false;
  }

  void stack(const structure::Stack& st) {
    std::vector<std::string> paths_a, paths_b, changed;
    bool renamed = false;
    for (const auto& unit : st.instances) {
      for (int s : unit) {
        const int other = d_.matching.scope_a_to_b[static_cast<size_t>(s)];
        paths_a.push_back(ha_[s].path);
        if (other >= 0) paths_b.push_back(hb_[other].path);
        renamed = renamed || other < 0 || hb_[other].path != ha_[s].path;
      }
      if (instance_changed(unit)) changed.push_back(range_text({ha_[unit.front()].path}));
    }
    if (changed.empty() && !renamed) return;
    std::string text = st.title(ha_) + ": ";
    if (changed.empty()) text += "same";
    else if (changed.size() == st.instances.size()) text += "all changed";
    else {
      text += "same except ";
      for (size_t k = 0; k < changed.size(); ++k) text += (k ? ", " : "") + changed[k];
    }
    if (renamed) text += "; in B " + (paths_b.empty() ? std::string("none") : range_text(paths_b));
    out_.push_back({changed.empty() ? Status::Same : Status::Changed, st.instances.front().front(),
                    d_.matching.scope_a_to_b[static_cast<size_t>(st.instances.front().front())], range_text(paths_a), text});
    instance_lines(st);
  }

  // The lines of the changed instances, those that changed alike said once
  // for all of them: `layers.0–5.mlp: shape of 1 op`.
  void instance_lines(const structure::Stack& st) {
    struct Group {
      std::vector<std::string> paths;   // the instances' (first calls') paths
      std::vector<ModuleChange> lines;  // the first instance's
    };
    std::vector<Group> groups;
    std::map<std::string, size_t> by_key;
    for (const auto& unit : st.instances) {
      if (!instance_changed(unit)) continue;
      std::vector<ModuleChange> lines;
      std::swap(lines, out_);
      for (int s : unit) visit(s);
      std::swap(lines, out_);
      const std::string& root = ha_[unit.front()].path;
      std::string key;
      for (const ModuleChange& l : lines) key += matching::path_below(l.path, root) + "\n" + l.text + "\n";
      const auto [it, fresh] = by_key.emplace(key, groups.size());
      if (fresh) groups.push_back({{}, std::move(lines)});
      groups[it->second].paths.push_back(root);
    }
    for (Group& g : groups) {
      const std::string range = range_text(g.paths);
      for (ModuleChange& l : g.lines) {
        if (g.paths.size() > 1) l.path = range + below_with_dot(l.path, g.paths.front());
        out_.push_back(std::move(l));
      }
    }
  }

  static std::string below_with_dot(const std::string& path, const std::string& root) {
    const std::string rest = matching::path_below(path, root);
    return rest.empty() ? "" : "." + rest;
  }

  std::string own_text(int sa, int sb) const {
    std::vector<std::string> parts;
    if (ha_[sa].type != hb_[sb].type) parts.push_back(ha_[sa].class_name() + " → " + hb_[sb].class_name());
    std::vector<std::string> removed, added;
    std::map<std::string, int> retargeted;
    std::map<Aspect, int> aspects;
    for (int n : ha_[sa].nodes) {
      const NodeDiff& nd = *node_a_[static_cast<size_t>(n)];
      const ir::Node& x = *a_.nodes()[static_cast<size_t>(n)];
      if (x.op == ir::OpKind::Placeholder) continue;  // the signature's and the weights' to say
      if (nd.status == Status::Removed) removed.push_back(op_name(x));
      if (nd.status != Status::Changed) continue;
      if (nd.has(Aspect::Target) || nd.has(Aspect::Overload))
        ++retargeted[op_name(x) + " → " + op_name(*b_.nodes()[static_cast<size_t>(nd.b)])];
      for (Aspect k : {Aspect::Arguments, Aspect::Inputs, Aspect::Shape, Aspect::Dtype, Aspect::Strides})
        if (nd.has(k)) ++aspects[k];
    }
    for (int n : hb_[sb].nodes)
      if (node_b_[static_cast<size_t>(n)]->status == Status::Added && b_.nodes()[static_cast<size_t>(n)]->op != ir::OpKind::Placeholder)
        added.push_back(op_name(*b_.nodes()[static_cast<size_t>(n)]));
    for (const auto& [text, count] : retargeted) parts.push_back(text + (count > 1 ? " ×" + std::to_string(count) : ""));
    if (!removed.empty() && !added.empty())
      parts.push_back(op_list(removed) + " → " + ops_text(added.size(), added));
    else if (!added.empty())
      parts.push_back("+" + ops_text(added.size(), added));
    else if (!removed.empty())
      parts.push_back("−" + ops_text(removed.size(), removed));
    for (const auto& [k, count] : aspects)
      parts.push_back(std::string(aspect_name(k)) + " of " + std::to_string(count) + (count == 1 ? " op" : " ops"));
    std::string text;
    for (const auto& p : parts) text += (text.empty() ? "" : "; ") + p;
    return text;
  }

  const matching::IndexedProgram& a_;
  const matching::IndexedProgram& b_;
  const ProgramDiff& d_;
  const std::vector<const NodeDiff*>& node_a_;
  const std::vector<const NodeDiff*>& node_b_;
  const ir::ModuleHierarchy& ha_;
  const ir::ModuleHierarchy& hb_;
  std::map<int, structure::Stack> stack_at_;  // by its first call
  std::vector<char> own_, within_;
  std::vector<ModuleChange> out_;
};

}  // namespace

std::vector<ModuleChange> summarize_modules(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                                            const ProgramDiff& diff, const std::vector<const NodeDiff*>& node_a,
                                            const std::vector<const NodeDiff*>& node_b) {
  return Summary(a, b, diff, node_a, node_b).run();
}

}  // namespace exportlens::diff
