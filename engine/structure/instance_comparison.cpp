#include "engine/structure/instance_comparison.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "engine/ir/op_key.h"
#include "engine/matching/module_path.h"
#include "engine/matching/sequence_alignment.h"
#include "engine/matching/structure_hash.h"

namespace exportlens::structure {
namespace {


// The attributes of a node that differ from another's with the same op: "dim=-1", "arg 2: 0.5".
std::pair<std::string, std::string> differing_attributes(const ir::Node& x, const ir::Node& y) {
  std::string here, there;
  auto add = [&](const std::string& label, const std::string& a, const std::string& b) {
    here += (here.empty() ? "" : ", ") + label + a;
    there += (there.empty() ? "" : ", ") + label + b;
  };
  const size_t args = std::max(x.args().size(), y.args().size());
  for (size_t i = 0; i < args; ++i) {
    const std::string a = i < x.args().size() ? ir::argument_text(x.args()[i]) : "-";
    const std::string b = i < y.args().size() ? ir::argument_text(y.args()[i]) : "-";
    const bool refs = (i < x.args().size() && x.args()[i].node()) || (i < y.args().size() && y.args()[i].node());
    if (!refs && a != b) add("arg " + std::to_string(i) + "=", a, b);
  }
  std::map<std::string, std::pair<std::string, std::string>> kw;
  for (const auto& k : x.kwargs()) kw[k.name].first = ir::argument_text(k.value);
  for (const auto& k : y.kwargs()) kw[k.name].second = ir::argument_text(k.value);
  for (const auto& [name, v] : kw)
    if (v.first != v.second) add(name + "=", v.first.empty() ? "-" : v.first, v.second.empty() ? "-" : v.second);
  return {here, there};
}

void add_detail(Difference& d, DifferenceDetail detail) { d.details.push_back(std::move(detail)); }

}  // namespace

std::string value_text(const ir::ValueInfo& v) {
  if (const auto* t = v.tensor()) return t->annotation();
  if (const auto* s = v.sym_int()) return s->str();
  if (const auto* b = v.sym_bool()) return b->str();
  if (const auto* f = std::get_if<ir::SymFloat>(&v.v)) return f->expr;
  if (const auto* tuple = v.tuple()) {
    std::string s = "(";
    for (size_t i = 0; i < tuple->size(); ++i) s += (i ? ", " : "") + value_text((*tuple)[i]);
    return s + ")";
  }
  return "?";
}

std::vector<std::pair<int, int>> align_instances(const matching::ScopeFingerprints& f, int a, int b) {
  const std::vector<int> na = f.canonical_nodes(a), nb = f.canonical_nodes(b);
  std::vector<std::pair<int, int>> out;
  if (f.fingerprint[a] == f.fingerprint[b] && na.size() == nb.size()) {
    for (size_t i = 0; i < na.size(); ++i) out.emplace_back(na[i], nb[i]);
    return out;
  }
  // Align on the op alone, so that nodes whose shapes or attributes differ still pair up.
  std::vector<uint64_t> ka, kb;
  ka.reserve(na.size());
  kb.reserve(nb.size());
  for (int n : na) ka.push_back(f.node_op[n]);
  for (int n : nb) kb.push_back(f.node_op[n]);
  for (const auto& [i, j] : matching::longest_common_subsequence(ka, kb)) out.emplace_back(na[i], nb[j]);
  return out;
}

InstanceComparer::InstanceComparer(const ir::ExportedProgram& program, const ir::ModuleHierarchy& h,
                                   const matching::ScopeFingerprints& f)
    : h_(h), f_(f), nodes_(program.graph().nodes()), weight_target_(nodes_.size()) {
  std::unordered_map<std::string_view, const ir::InputSpec*> by_name;
  for (const auto& in : program.signature.inputs) by_name.emplace(in.arg.name, &in);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i]->op != ir::OpKind::Placeholder) continue;
    const auto it = by_name.find(nodes_[i]->name);
    if (it != by_name.end() && it->second->kind != ir::InputKind::UserInput && it->second->target)
      weight_target_[i] = *it->second->target;
  }
}

std::vector<Difference> InstanceComparer::compare(int scope, int reference) const {
  std::vector<Difference> out;
  for (Difference d : {submodules(scope, reference), ops(scope, reference), weights(scope, reference)})
    if (!d.details.empty()) out.push_back(std::move(d));
  matched_nodes(scope, reference, out);
  if (out.empty() && f_.fingerprint[scope] != f_.fingerprint[reference]) {
    Difference d{DifferenceKind::Wiring, {}};
    add_detail(d, {"the values entering or leaving", "", "", -1, -1});
    out.push_back(std::move(d));
  }
  return out;
}

Difference InstanceComparer::submodules(int scope, int reference) const {
  // Every module call below each instance, by its path below the instance (and call number), in program order.
  using Calls = std::vector<std::pair<std::string, std::string>>;
  auto calls = [&](int s) {
    Calls out;
    std::vector<int> stack(h_[s].children.rbegin(), h_[s].children.rend());
    while (!stack.empty()) {
      const int c = stack.back();
      stack.pop_back();
      if (!f_.has_content[c]) continue;
      std::string key = matching::path_below(h_[c].path, h_[s].path);
      if (h_[c].call > 0) key += " (call " + std::to_string(h_[c].call + 1) + ")";
      out.emplace_back(key, h_[c].class_name());
      stack.insert(stack.end(), h_[c].children.rbegin(), h_[c].children.rend());
    }
    return out;
  };
  const Calls here = calls(scope), there = calls(reference);
  const std::map<std::string, std::string> here_by_path(here.begin(), here.end()), there_by_path(there.begin(), there.end());
  Difference d{DifferenceKind::Submodules, {}};
  // A module one instance lacks is named, not every module inside it.
  std::string named;
  auto inside_named = [&](const std::string& path) { return !named.empty() && path.starts_with(named + "."); };
  for (const auto& [path, cls] : here) {
    const auto it = there_by_path.find(path);
    if (it != there_by_path.end() && it->second == cls) continue;
    if (it == there_by_path.end() && inside_named(path)) continue;
    add_detail(d, {path, cls, it == there_by_path.end() ? "" : it->second, -1, -1});
    if (it == there_by_path.end()) named = path;
  }
  named.clear();
  for (const auto& [path, cls] : there) {
    if (here_by_path.count(path) || inside_named(path)) continue;
    add_detail(d, {path, "", cls, -1, -1});
    named = path;
  }
  return d;
}

Difference InstanceComparer::ops(int scope, int reference) const {
  auto count = [&](int s) {
    std::map<std::string, int> out;
    for (int n : f_.canonical_nodes(s))
      if (nodes_[n]->op == ir::OpKind::CallFunction) ++out[ir::op_key(nodes_[n]->target)];
    return out;
  };
  const auto here = count(scope), there = count(reference);
  Difference d{DifferenceKind::Ops, {}};
  std::map<std::string, std::pair<int, int>> both;
  for (const auto& [op, k] : here) both[op].first = k;
  for (const auto& [op, k] : there) both[op].second = k;
  for (const auto& [op, k] : both)
    if (k.first != k.second) add_detail(d, {op, std::to_string(k.first), std::to_string(k.second), -1, -1});
  return d;
}

std::map<std::string, int> InstanceComparer::weights_read(int scope) const {
  std::map<std::string, int> out;
  for (int v : f_.inputs[static_cast<size_t>(scope)])
    if (!weight_target_[v].empty()) out.emplace(matching::path_below(weight_target_[v], h_[scope].path), v);
  return out;
}

bool InstanceComparer::takes_same_inputs(int a, int b) const {
  auto data = [&](int s) {
    std::vector<uint64_t> out;
    for (int v : f_.inputs[static_cast<size_t>(s)])
      if (weight_target_[v].empty()) out.push_back(matching::hash::value_shape(nodes_[v]->value));
    return out;
  };
  return data(a) == data(b);
}

Difference InstanceComparer::weights(int scope, int reference) const {
  // In the order the instance first reads them: a conv's weight before its norm's.
  const auto here = weights_read(scope), there = weights_read(reference);
  auto name_of = [&](int s, int v) { return matching::path_below(weight_target_[v], h_[s].path); };
  Difference d{DifferenceKind::Weights, {}};
  for (int v : f_.inputs[static_cast<size_t>(scope)]) {
    if (weight_target_[v].empty()) continue;
    const std::string name = name_of(scope, v);
    const auto it = there.find(name);
    const std::string a = value_text(nodes_[v]->value);
    if (it == there.end())
      add_detail(d, {name, a, "", v, -1});
    else if (f_.node_value[v] != f_.node_value[it->second])
      add_detail(d, {name, a, value_text(nodes_[it->second]->value), v, it->second});
  }
  for (int v : f_.inputs[static_cast<size_t>(reference)])
    if (!weight_target_[v].empty() && !here.count(name_of(reference, v)))
      add_detail(d, {name_of(reference, v), "", value_text(nodes_[v]->value), -1, v});
  return d;
}

void InstanceComparer::matched_nodes(int scope, int reference, std::vector<Difference>& out) const {
  const auto pairs = align_instances(f_, scope, reference);
  Difference shapes{DifferenceKind::Shapes, {}}, attributes{DifferenceKind::Attributes, {}};
  Difference wiring{DifferenceKind::Wiring, {}};
  std::unordered_map<int, int> match;
  for (const auto& [x, y] : pairs) match.emplace(x, y);
  auto position = [](const std::vector<int>& inputs, int v) {  // in the order first read
    const auto it = std::find(inputs.begin(), inputs.end(), v);
    return it != inputs.end() ? it - inputs.begin() : -1;
  };
  for (const auto& [x, y] : pairs) {
    const ir::Node& a = *nodes_[x];
    const ir::Node& b = *nodes_[y];
    if (f_.node_value[x] != f_.node_value[y]) add_detail(shapes, {a.name, value_text(a.value), value_text(b.value), x, y});
    if (f_.node_identity[x] != f_.node_identity[y]) {
      auto [here, there] = differing_attributes(a, b);
      if (!here.empty() || !there.empty()) add_detail(attributes, {a.name, here, there, x, y});
    }
    // Wiring: each input of a, seen from b's side, must be the input b has there.
    std::vector<const ir::Node*> ia, ib;
    a.for_each_input([&](const ir::Node* n) { ia.push_back(n); });
    b.for_each_input([&](const ir::Node* n) { ib.push_back(n); });
    bool same = ia.size() == ib.size();
    for (size_t k = 0; same && k < ia.size(); ++k) {
      const int u = ia[k] ? ia[k]->index() : -1, w = ib[k] ? ib[k]->index() : -1;
      if (u < 0 || w < 0 || f_.size_expression[u] || f_.size_expression[w]) continue;
      const auto it = match.find(u);
      if (it != match.end())
        same = it->second == w;
      else
        same = position(f_.inputs[scope], u) >= 0 && position(f_.inputs[scope], u) == position(f_.inputs[reference], w);
    }
    if (!same) add_detail(wiring, {a.name, "", "", x, y});
  }
  for (Difference* d : {&shapes, &attributes})
    if (!d->details.empty()) out.push_back(std::move(*d));
  if (out.empty() && !wiring.details.empty()) out.push_back(std::move(wiring));
}

std::string_view kind_name(DifferenceKind kind) {
  switch (kind) {
    case DifferenceKind::Submodules: return "submodules";
    case DifferenceKind::Ops: return "ops";
    case DifferenceKind::Weights: return "weights";
    case DifferenceKind::Shapes: return "shapes";
    case DifferenceKind::Attributes: return "attributes";
    case DifferenceKind::Wiring: return "wiring";
    case DifferenceKind::Guards: return "guards";
    case DifferenceKind::Time: return "time";
  }
  return "?";
}

std::string Difference::text(size_t max_details) const {
  std::string s = std::string(kind_name(kind)) + ":";
  const size_t shown = std::min(details.size(), max_details);
  for (size_t i = 0; i < shown; ++i) {
    const DifferenceDetail& d = details[i];
    s += i ? ", " : " ";
    switch (kind) {
      case DifferenceKind::Ops: {
        const int delta = std::stoi(d.here) - std::stoi(d.there);
        s += (delta > 0 ? "+" : "-") + d.what + (std::abs(delta) > 1 ? " x" + std::to_string(std::abs(delta)) : "");
        break;
      }
      case DifferenceKind::Wiring:
        s += d.what + (d.node >= 0 ? " reads other values" : " differ");
        break;
      case DifferenceKind::Guards:
        s += d.here + " at " + d.what;
        break;
      case DifferenceKind::Time:
        s += d.here + " (median " + d.there + ")";
        break;
      default:
        if (d.here.empty())
          s += "no " + d.what + " (" + d.there + ")";
        else if (d.there.empty())
          s += "extra " + d.what + " " + d.here;
        else
          s += d.what + " " + d.here + " instead of " + d.there;
    }
  }
  if (details.size() > shown) s += ", and " + std::to_string(details.size() - shown) + " more";
  return s;
}

}  // namespace exportlens::structure
