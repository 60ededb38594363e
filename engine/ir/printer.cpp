#include "engine/ir/printer.h"

#include <algorithm>
#include <vector>

#include "engine/ir/graph_codegen.h"

namespace exportlens::ir {

namespace {

int count_newlines(std::string_view s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\n\r\v\f\x1c\x1d\x1e\x1f") == std::string_view::npos;
}

/// torch.nn.modules.module._addindent: indents every line but the first;
/// blank lines become empty.
std::string add_indent(const std::string& s, int spaces) {
  const auto first_nl = s.find('\n');
  if (first_nl == std::string::npos) return s;
  std::string out = s.substr(0, first_nl + 1);
  size_t start = first_nl + 1;
  while (true) {
    const auto nl = s.find('\n', start);
    const auto length = nl == std::string::npos ? std::string::npos : nl - start;
    const std::string_view line = std::string_view(s).substr(start, length);
    if (!is_blank(line)) out += std::string(spaces, ' ') + std::string(line);
    if (nl == std::string::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

/// Python's s.replace("\n", "\n" + indent).
std::string indent_continuation_lines(const std::string& s, std::string_view indent) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

void merge_lines(PrintedText& into, const PrintedText& from, int offset) {
  for (const auto& [node, span] : from.node_lines)
    into.node_lines[node] = {span.first + offset, span.last + offset};
}

std::string input_spec_str(const InputSpec& s) {
  std::string out = s.arg.name + ": " + std::string(kind_name(s.kind));
  if (s.target) out += " target='" + *s.target + "'";
  if (s.persistent) out += std::string(" persistent=") + (*s.persistent ? "True" : "False");
  return out;
}

std::string output_spec_str(const OutputSpec& s) {
  std::string out = s.arg.name + ": " + std::string(kind_name(s.kind));
  if (s.target) out += " target='" + *s.target + "'";
  return out;
}

}  // namespace

const Node* PrintedText::node_at_line(int line) const {
  const Node* best = nullptr;
  int best_width = 0;
  for (const auto& [node, span] : node_lines) {
    if (line < span.first || line > span.last) continue;
    const int width = span.last - span.first;
    if (!best || width < best_width || (width == best_width && node->index() < best->index())) {
      best = node;
      best_width = width;
    }
  }
  return best;
}

PrintedText print_graph_module_annotated(const GraphModule& gm, std::string_view class_name,
                                         const PrintOptions& options) {
  const PrintedText forward = generate_forward(gm.graph, options);
  PrintedText out;
  const std::string header = "class " + std::string(class_name) + "(torch.nn.Module):\n";
  out.text = add_indent(header + forward.text, 4);
  merge_lines(out, forward, 1);

  // Subgraphs follow as nested classes: "\n".join(["", sub1, sub2, ...]), indented.
  const int module_lines = count_newlines(out.text);
  std::string nested;
  for (const auto& [name, sub] : gm.submodules) {
    if (!sub) continue;
    nested += '\n';
    const PrintedText printed = print_graph_module_annotated(*sub, name, options);
    merge_lines(out, printed, module_lines + count_newlines(nested));
    nested += printed.text;
  }
  out.text += add_indent(nested, 4);
  return out;
}

std::string print_graph_module(const GraphModule& gm, std::string_view class_name,
                               const PrintOptions& options) {
  return print_graph_module_annotated(gm, class_name, options).text;
}

std::string print_signature(const GraphSignature& signature) {
  std::vector<std::string> inputs, outputs;
  for (const auto& s : signature.inputs) inputs.push_back(input_spec_str(s));
  for (const auto& s : signature.outputs) outputs.push_back(output_spec_str(s));
  return "\n# inputs\n" + join_lines(inputs) + "\n\n# outputs\n" + join_lines(outputs) + "\n";
}

PrintedText print_program_annotated(const ExportedProgram& ep, const PrintOptions& options) {
  const PrintedText module = print_graph_module_annotated(ep.graph_module, "GraphModule", options);
  PrintedText out;
  // ExportedProgram.__str__ indents the module and the signature by
  // replacing each newline, so their blank lines keep four spaces.
  const std::string indent = "    ";
  const std::string signature = indent_continuation_lines(print_signature(ep.signature), indent);
  out.text = "ExportedProgram:\n" + indent + indent_continuation_lines(module.text, indent) + "\n" +
             "Graph signature: " + signature + "\n" +
             "Range constraints: " + ep.range_constraints.str() + "\n";
  merge_lines(out, module, 1);
  return out;
}

std::string print_program(const ExportedProgram& ep, const PrintOptions& options) {
  return print_program_annotated(ep, options).text;
}

}  // namespace exportlens::ir
