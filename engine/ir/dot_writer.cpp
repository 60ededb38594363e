#include "engine/ir/dot_writer.h"

#include <map>
#include <sstream>

namespace exportlens::ir {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string label(const Node* n) {
  std::string op;
  switch (n->op) {
    case OpKind::Placeholder: op = n->name; break;
    case OpKind::Output: op = "output"; break;
    case OpKind::GetAttr: op = n->attr; break;
    case OpKind::CallFunction: op = n->target.short_name(); break;
  }
  std::string value;
  if (const auto* t = n->value.tensor()) value = t->annotation();
  else if (const auto* i = n->value.sym_int()) value = "Sym(" + i->str() + ")";
  return value.empty() ? op : op + "\\n" + escape(value);
}

std::string id(const std::string& prefix, const Node* n) { return "\"" + escape(prefix + n->name) + "\""; }

void write_graph(std::ostream& o, const GraphModule& gm, const std::string& prefix, const DotOptions& opt,
                 const std::string& indent) {
  // Group nodes by their innermost module scope path.
  std::map<std::string, std::vector<const Node*>> by_scope;
  for (const Node* n : gm.graph.nodes()) {
    std::string scope;
    if (opt.module_clusters && !n->meta.nn_module_stack.empty()) scope = n->meta.nn_module_stack.back().path;
    by_scope[scope].push_back(n);
  }
  int cluster = 0;
  for (const auto& [scope, nodes] : by_scope) {
    const bool clustered = !scope.empty();
    const std::string in = clustered ? indent + "  " : indent;
    if (clustered) {
      o << indent << "subgraph \"cluster_" << escape(prefix) << cluster++ << "\" {\n";
      o << in << "label=\"" << escape(scope) << "\";\n";
    }
    for (const Node* n : nodes) o << in << id(prefix, n) << " [label=\"" << label(n) << "\"];\n";
    if (clustered) o << indent << "}\n";
  }
  for (const Node* n : gm.graph.nodes())
    n->for_each_input([&](const Node* in) { o << indent << id(prefix, in) << " -> " << id(prefix, n) << ";\n"; });
  for (const auto& [name, sub] : gm.submodules) {
    o << indent << "subgraph \"cluster_" << escape(prefix + name) << "\" {\n";
    o << indent << "  label=\"" << escape(name) << "\"; style=dashed;\n";
    write_graph(o, *sub, prefix + name + ".", opt, indent + "  ");
    o << indent << "}\n";
  }
}

}  // namespace

std::string to_dot(const ExportedProgram& ep, const DotOptions& options) {
  std::ostringstream o;
  o << "digraph \"" << escape(ep.name) << "\" {\n";
  o << "  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n";
  write_graph(o, ep.graph_module, "", options, "  ");
  o << "}\n";
  return o.str();
}

}  // namespace exportlens::ir
