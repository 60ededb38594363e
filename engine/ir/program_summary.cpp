#include "engine/ir/program_summary.h"

#include <algorithm>
#include <sstream>

namespace exportlens::ir {
namespace {

std::string op_label(const Target& t) {
  // "torch.ops.aten.add.Tensor" -> "aten.add.Tensor", as users read it in print(ep).
  const std::string& q = t.qualified();
  if (q.rfind("torch.ops.", 0) == 0) return q.substr(10);
  return q;
}

void count_ops(const GraphModule& gm, ProgramSummary& s) {
  for (const Node* n : gm.graph.nodes()) {
    if (n->op != OpKind::CallFunction) continue;
    ++s.node_count;
    ++s.op_histogram[op_label(n->target)];
  }
  for (const auto& [name, sub] : gm.submodules) {
    ++s.subgraph_count;
    count_ops(*sub, s);
  }
}

std::string describe_value(const Node* n) {
  if (!n) return "";
  if (const auto* t = n->value.tensor()) return " " + t->annotation();
  if (const auto* i = n->value.sym_int()) return " Sym(" + i->str() + ")";
  return "";
}

std::string human_bytes(int64_t b) {
  std::ostringstream o;
  if (b >= (1 << 20)) o << (double(b) / (1 << 20)) << " MiB";
  else if (b >= (1 << 10)) o << (double(b) / (1 << 10)) << " KiB";
  else o << b << " B";
  return o.str();
}

}  // namespace

ProgramSummary summarize(const ExportedProgram& ep) {
  ProgramSummary s;
  count_ops(ep.graph_module, s);
  for (const auto& in : ep.signature.inputs) {
    std::string line = in.arg.name + ": " + std::string(kind_name(in.kind));
    if (in.target) line += " '" + *in.target + "'";
    const Node* ph = ep.graph().find(in.arg.name);
    line += describe_value(ph);
    s.inputs.push_back(line);
    const TensorMeta* meta = ph ? ph->value.tensor() : nullptr;
    if (!meta) continue;
    const int64_t numel = meta->static_numel().value_or(0);
    const int64_t bytes = numel * element_size(meta->dtype);
    if (in.kind == InputKind::Parameter) {
      s.parameter_count += numel;
      s.parameter_bytes += bytes;
    } else if (in.kind == InputKind::Buffer || in.kind == InputKind::ConstantTensor) {
      s.buffer_count += numel;
      s.buffer_bytes += bytes;
    }
  }
  for (const auto& out : ep.signature.outputs) {
    std::string line = out.arg.name + ": " + std::string(kind_name(out.kind));
    if (out.target) line += " '" + *out.target + "'";
    line += describe_value(ep.graph().find(out.arg.name));
    s.outputs.push_back(line);
  }
  return s;
}

std::string format_summary(const ExportedProgram& ep, const ProgramSummary& s) {
  std::ostringstream o;
  o << "program: " << ep.name << " (schema " << ep.schema_major << "." << ep.schema_minor << ", torch "
    << (ep.torch_version.empty() ? "?" : ep.torch_version) << ")\n";
  o << "nodes: " << s.node_count << " ops";
  if (s.subgraph_count) o << " in " << (s.subgraph_count + 1) << " graphs";
  o << "\n";
  o << "parameters: " << s.parameter_count << " (" << human_bytes(s.parameter_bytes) << ")\n";
  o << "buffers and constants: " << s.buffer_count << " (" << human_bytes(s.buffer_bytes) << ")\n";
  o << "inputs:\n";
  for (const auto& l : s.inputs) o << "  " << l << "\n";
  o << "outputs:\n";
  for (const auto& l : s.outputs) o << "  " << l << "\n";
  o << "range constraints: " << ep.range_constraints.str() << "\n";
  o << "ops:\n";
  std::vector<std::pair<std::string, int>> ops(s.op_histogram.begin(), s.op_histogram.end());
  std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [op, n] : ops) o << "  " << n << "  " << op << "\n";
  return o.str();
}

}  // namespace exportlens::ir
