#include "engine/ir/release_print.h"

#include <cstdlib>
#include <set>
#include <vector>

#include "engine/ir/printer.h"
#include "engine/ir/python_repr.h"

namespace exportlens::ir {

TorchRelease torch_release_of(std::string_view v) {
  int major = 0, minor = 0;
  size_t i = 0;
  auto number = [&](int& out) {
    const size_t start = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9') out = out * 10 + (v[i++] - '0');
    return i > start;
  };
  if (!number(major) || i >= v.size() || v[i++] != '.' || !number(minor)) return {};
  return {major, minor};
}

namespace {

std::string quoted(const std::string& s) { return py_repr_string(s); }

std::string argument_repr(const SpecArgument& a) {
  using T = SpecArgument::Type;
  switch (a.type) {
    case T::Tensor: return "TensorArgument(name=" + quoted(a.name) + ")";
    case T::SymInt: return "SymIntArgument(name=" + quoted(a.name) + ")";
    case T::SymFloat: return "SymFloatArgument(name=" + quoted(a.name) + ")";
    case T::SymBool: return "SymBoolArgument(name=" + quoted(a.name) + ")";
    case T::Token: return "TokenArgument(name=" + quoted(a.name) + ")";
    case T::CustomObj: return "CustomObjArgument(name=" + quoted(a.name) + ")";
    case T::Constant: {
      std::string value = "None";
      if (const auto* i = std::get_if<int64_t>(&a.constant.v)) value = std::to_string(*i);
      else if (const auto* b = std::get_if<bool>(&a.constant.v)) value = py_repr_bool(*b);
      else if (const auto* d = std::get_if<double>(&a.constant.v)) value = py_repr_float(*d);
      else if (const auto* s = std::get_if<std::string>(&a.constant.v)) value = quoted(*s);
      return "ConstantArgument(name=" + quoted(a.name) + ", value=" + value + ")";
    }
  }
  return "?";
}

// The enums' values before PARAMETER_MUTATION moved (torch <= 2.7).
int legacy_value(OutputKind k) {
  switch (k) {
    case OutputKind::UserOutput: return 1;
    case OutputKind::LossOutput: return 2;
    case OutputKind::BufferMutation: return 3;
    case OutputKind::GradientToParameter: return 4;
    case OutputKind::GradientToUserInput: return 5;
    case OutputKind::UserInputMutation: return 6;
    case OutputKind::Token: return 7;
    case OutputKind::ParameterMutation: return 8;
  }
  return 0;
}

std::string target_repr(const std::optional<std::string>& t) { return t ? quoted(*t) : "None"; }

size_t indent_of(const std::string& line) {
  size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

bool is_blank(const std::string& line) { return indent_of(line) == line.size(); }

// FX's codegen up to 2.9: " # File: ..." comments, and " # " (2.6 ... 2.9)
// or "# No stacktrace found for following nodes" (2.5) before nodes without
// a stack trace; up to 2.10 blank lines at the code's own indentation.
std::string old_codegen_layout(const std::string& text, TorchRelease release,
                               const std::set<size_t>& traceless_lines) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == '\n') {
      lines.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  const std::string no_trace = "# No stacktrace found for following nodes";
  for (size_t i = 0; i < lines.size() && release <= TorchRelease{2, 9}; ++i) {
    std::string& line = lines[i];
    const size_t ind = indent_of(line);
    const std::string rest = line.substr(ind);
    if (rest.rfind("# File: ", 0) == 0) {
      line = std::string(ind + 1, ' ') + rest;
    } else if (rest == no_trace && (release >= TorchRelease{2, 6} || !traceless_lines.count(i))) {
      // 2.13's "No stacktrace found" covers an empty and an unreadable stack trace; 2.5 wrote
      // its own text for the empty one only.
      line = std::string(ind + 1, ' ') + "# ";
    }
  }
  // A blank line takes the indentation of the code around it: the next line's
  // (before a comment, the comment's own column), else the previous line's.
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!is_blank(lines[i]) || lines[i].empty()) continue;
    size_t ind = 0;
    if (i + 1 < lines.size() && !is_blank(lines[i + 1])) {
      ind = indent_of(lines[i + 1]);
      const std::string next = lines[i + 1].substr(ind);
      if (next.rfind("# ", 0) == 0 && release <= TorchRelease{2, 9} && next != no_trace) ind -= 1;
      if (i > 0 && indent_of(lines[i - 1]) > ind && !is_blank(lines[i - 1])) ind = indent_of(lines[i - 1]);
    } else if (i > 0) {
      ind = indent_of(lines[i - 1]);
    }
    lines[i] = std::string(ind, ' ');
  }
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

}  // namespace

std::string signature_repr(const GraphSignature& sig) {
  std::string s = "ExportGraphSignature(input_specs=[";
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    const auto& in = sig.inputs[i];
    s += (i ? ", " : "") + std::string("InputSpec(kind=<InputKind.") + std::string(kind_name(in.kind)) + ": " +
         std::to_string(static_cast<int>(in.kind) + 1) + ">, arg=" + argument_repr(in.arg) +
         ", target=" + target_repr(in.target) + ", persistent=" +
         (in.persistent ? py_repr_bool(*in.persistent) : std::string("None")) + ")";
  }
  s += "], output_specs=[";
  for (size_t i = 0; i < sig.outputs.size(); ++i) {
    const auto& out = sig.outputs[i];
    s += (i ? ", " : "") + std::string("OutputSpec(kind=<OutputKind.") + std::string(kind_name(out.kind)) + ": " +
         std::to_string(legacy_value(out.kind)) + ">, arg=" + argument_repr(out.arg) +
         ", target=" + target_repr(out.target) + ")";
  }
  return s + "])";
}

std::string print_program_as_release(const ExportedProgram& ep, TorchRelease release) {
  const PrintedText printed = print_program_annotated(ep);
  std::string text = printed.text;
  if (release >= TorchRelease{2, 11}) return text;
  // The comment lines opening the spans of nodes without any stack trace.
  std::set<size_t> traceless_lines;
  for (const auto& [node, span] : printed.node_lines)
    if (node->meta.stack_trace.empty()) traceless_lines.insert(size_t(span.first));
  const size_t sig_at = text.find("\nGraph signature: ");
  const size_t ranges_at = text.find("\nRange constraints: ", sig_at == std::string::npos ? 0 : sig_at);
  if (sig_at == std::string::npos || ranges_at == std::string::npos) return text;
  std::string code = old_codegen_layout(text.substr(0, sig_at), release, traceless_lines);
  std::string signature = text.substr(sig_at, ranges_at - sig_at);
  if (release <= TorchRelease{2, 7}) signature = "\nGraph signature: " + signature_repr(ep.signature);
  return code + signature + text.substr(ranges_at);
}

}  // namespace exportlens::ir
