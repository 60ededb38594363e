#include "engine/structure/structure_report.h"

#include <algorithm>
#include <sstream>

namespace exportlens::structure {
namespace {

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

class Report {
 public:
  Report(const ir::ExportedProgram& p, const ir::ModuleHierarchy& h, const RepeatedStructure& s)
      : p_(p), h_(h), s_(s), nodes_(p.graph().nodes()) {}

  std::string run() {
    size_t folded = 0, differ = 0;
    for (const Stack& st : s_.stacks)
      if (st.enclosing < 0) folded += static_cast<size_t>(st.count() * st.period);
    for (const Stack& st : s_.stacks) differ += st.odd.size();
    std::string root = root_class(p_);
    out_ << (root.empty() ? "program" : root) << ": " << plural(nodes_.size(), "node", "nodes") << ", "
         << plural(op_count(p_, s_, ir::ModuleHierarchy::kRoot), "op", "ops") << ", "
         << plural(h_.size() - 1, "module call", "module calls") << "; " << plural(s_.stacks.size(), "stack", "stacks")
         << " folding " << plural(folded, "call", "calls") << ", " << plural(differ, "differing instance", "differing instances")
         << "\n";
    children(ir::ModuleHierarchy::kRoot, 1);
    return out_.str();
  }

 private:
  void indent(int depth) { out_ << std::string(static_cast<size_t>(depth) * 2, ' '); }

  void children(int scope, int depth) {
    for (const FoldedChild& c : s_.folded_children(h_, scope)) item(c, depth);
  }

  void item(const FoldedChild& c, int depth) {
    if (c.stack >= 0) {
      stack(c.stack, depth);
      return;
    }
    indent(depth);
    const auto& sc = h_[c.scope];
    out_ << h_.relative_path(c.scope);
    if (!sc.class_name().empty()) out_ << ": " << sc.class_name();
    if (sc.call > 0) out_ << " (call " << sc.call + 1 << ")";
    out_ << "  " << plural(op_count(p_, s_, c.scope), "op", "ops") << "\n";
    children(c.scope, depth + 1);
  }

  void stack(int k, int depth) {
    const Stack& st = s_.stacks[static_cast<size_t>(k)];
    size_t ops = 0;
    for (int sc : st.instances[static_cast<size_t>(st.representative)]) ops += op_count(p_, s_, sc);
    indent(depth);
    out_ << st.label(h_) << "  " << plural(ops, "op", "ops") << (st.varied() ? " in " + h_.relative_path(st.instances[static_cast<size_t>(st.representative)].front()) : " each");
    if (!st.odd.empty()) out_ << ", " << st.odd.size() << " differ";
    out_ << "\n";
    if (st.varied()) {
      indent(depth + 1);
      out_ << "settings: " << st.settings_text(h_) << "\n";
    }
    for (int o : st.odd) flag(s_.odd[static_cast<size_t>(o)], depth + 1, false);
    // Odd instances inside the repetitions not printed below (stages.2's blocks when stages.0 is shown).
    for (size_t r = 0; r < st.instances.size(); ++r)
      if (static_cast<int>(r) != st.representative)
        for (size_t o = 0; o < s_.odd.size(); ++o)
          if (s_.odd[o].stack != k && encloses_any(st.instances[r], s_.odd[o].scope)) flag(s_.odd[o], depth + 1, true);
    if (st.period == 1) {
      children(st.instances[static_cast<size_t>(st.representative)][0], depth + 1);
      return;
    }
    for (const FoldedChild& c : s_.folded_unit(k)) item(c, depth + 1);
  }

  // "! blocks.1 differs from blocks.0: <headline>", every difference on the
  // line below when the flag could not say it all; `full`: by module path.
  void flag(const OddInstance& odd, int depth, bool full) {
    const auto name = [&](int scope) { return full ? h_[scope].path : h_.relative_path(scope); };
    indent(depth);
    out_ << "! " << name(odd.scope) << " differs from " << name(odd.reference) << ": " << odd.headline() << "\n";
    if (const std::string all = odd.summary(); all != odd.headline()) {
      indent(depth + 1);
      out_ << all << "\n";
    }
  }

  bool encloses_any(const std::vector<int>& outer, int scope) const {
    return std::any_of(outer.begin(), outer.end(), [&](int o) { return h_.encloses(o, scope); });
  }

  const ir::ExportedProgram& p_;
  const ir::ModuleHierarchy& h_;
  const RepeatedStructure& s_;
  std::vector<ir::Node*> nodes_;
  std::ostringstream out_;
};

}  // namespace

size_t op_count(const ir::ExportedProgram& program, const RepeatedStructure& structure, int scope) {
  const std::vector<ir::Node*> nodes = program.graph().nodes();
  size_t n = 0;
  for (int k : structure.fingerprints.canonical_nodes(scope))
    if (nodes[static_cast<size_t>(k)]->op == ir::OpKind::CallFunction) ++n;
  return n;
}

std::string root_class(const ir::ExportedProgram& program) {
  for (const ir::Node* n : program.graph().nodes()) {
    const auto& stack = n->meta.nn_module_stack;
    if (!stack.empty() && stack.front().path.empty() && !stack.front().type.empty()) {
      const std::string& t = stack.front().type;
      const auto dot = t.rfind('.');
      return dot == std::string::npos ? t : t.substr(dot + 1);
    }
  }
  return "";
}

std::string format_structure(const ir::ExportedProgram& program, const ir::ModuleHierarchy& h,
                             const RepeatedStructure& structure) {
  return Report(program, h, structure).run();
}

}  // namespace exportlens::structure
