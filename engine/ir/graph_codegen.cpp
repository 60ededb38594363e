#include "engine/ir/graph_codegen.h"
#include "engine/ir/stack_trace.h"

#include <cctype>
#include <optional>
#include <set>
#include <unordered_set>
#include <variant>

#include "engine/ir/fx_namespace.h"
#include "engine/ir/python_json.h"
#include "engine/ir/python_repr.h"

namespace exportlens::ir {

namespace {

struct OperatorFormat {
  std::string_view name;
  std::string_view pattern;  // "{}" placeholders, filled with the args in order
};

// torch.fx.graph's magic_methods: _operator callables printed as Python operators.
constexpr OperatorFormat kMagicMethods[] = {
    {"eq", "{} == {}"},  {"ne", "{} != {}"},   {"lt", "{} < {}"},   {"gt", "{} > {}"},
    {"le", "{} <= {}"},  {"ge", "{} >= {}"},   {"pos", "+{}"},      {"neg", "-{}"},
    {"invert", "~{}"},   {"add", "{} + {}"},   {"sub", "{} - {}"},  {"mul", "{} * {}"},
    {"floordiv", "{} // {}"}, {"truediv", "{} / {}"}, {"div", "{} / {}"}, {"mod", "{} % {}"},
    {"pow", "{} ** {}"}, {"lshift", "{} << {}"}, {"rshift", "{} >> {}"}, {"and_", "{} & {}"},
    {"or_", "{} | {}"},  {"xor", "{} ^ {}"},   {"getitem", "{}[{}]"}, {"matmul", "{} @ {}"},
};

// torch.fx.graph's inplace_methods: "<op>;  node = args[0]".
constexpr OperatorFormat kInplaceMethods[] = {
    {"iadd", "{} += {}"},  {"iand", "{} &= {}"},   {"ifloordiv", "{} //= {}"},
    {"ilshift", "{} <<= {}"}, {"imod", "{} %= {}"}, {"imul", "{} *= {}"},
    {"imatmul", "{} @= {}"}, {"ior", "{} |= {}"},   {"ipow", "{} **= {}"},
    {"irshift", "{} >>= {}"}, {"isub", "{} -= {}"}, {"itruediv", "{} /= {}"},
    {"ixor", "{} ^= {}"},  {"setitem", "{}[{}] = {}"},
};

template <size_t N>
const OperatorFormat* find_operator(const OperatorFormat (&table)[N], const Target& target) {
  const std::string& q = target.qualified();
  std::string_view name;
  for (std::string_view prefix : {"_operator.", "operator."}) {
    if (q.rfind(prefix, 0) == 0) name = std::string_view(q).substr(prefix.size());
  }
  if (name.empty()) return nullptr;
  for (const auto& entry : table)
    if (entry.name == name) return &entry;
  return nullptr;
}

std::string fill_pattern(std::string_view pattern, const std::vector<std::string>& args) {
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern.compare(i, 2, "{}") == 0) {
      out += next < args.size() ? args[next] : std::string();
      ++next;
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

/// FX's _is_from_torch on a serialized callable path: torch callables print by
/// their qualified name, everything else becomes a global of the namespace.
bool is_from_torch(const std::string& qualified) {
  return qualified.rfind("torch.", 0) == 0 && qualified.rfind("torch._dynamo.", 0) != 0 &&
         qualified.rfind("torch._inductor.", 0) != 0;
}


/// Matches one line against FX's ^File "(.+)", line (\d+), in (.+)$ (the file
/// part is greedy: the last `", line N, in ` split wins).
/// FX's _parse_stack_trace(...).get_summary_str(): "File: path:line in fn, code: text".
std::optional<std::string> stack_trace_summary(std::string_view stack_trace) {
  const auto frame = innermost_frame(stack_trace);
  if (!frame) return std::nullopt;
  return "File: " + frame->file + ":" + std::to_string(frame->line) + " in " + frame->function +
         ", code: " + frame->code;
}

/// FX's " Annotation: {...}" from node.meta["custom"] (stored in the .pt2 as
/// JSON): each value as is, or its str() cut to 40 characters plus "...".
std::string custom_annotation(const NodeMetadata& meta) {
  const auto it = meta.custom.find("custom");
  if (it == meta.custom.end()) return "";
  const auto custom = parse_json_as_python(it->second);
  if (!custom || custom->kind != PyValue::Kind::Dict || custom->fields.empty()) return "";
  PyValue shown = *custom;
  for (auto& [key, value] : shown.fields) {
    const std::string text = value.str();
    if (utf8_length(text) > 40) {
      value = PyValue{PyValue::Kind::Str, utf8_prefix(text, 40) + "...", {}, {}};
    }
  }
  return " Annotation: " + shown.repr();
}

std::string device_repr(const Device& d) {
  std::string out = "device(type=" + py_repr_string(d.type);
  if (d.index) out += ", index=" + std::to_string(*d.index);
  return out + ")";
}

/// Writes one graph's forward the way FX's codegen does, remembering on which
/// body line each node's comment and statement start.
class ForwardWriter {
 public:
  ForwardWriter(const Graph& graph, const PrintOptions& options)
      : graph_(graph), options_(options), ns_(FxNamespace::for_codegen()) {}

  PrintedText write() {
    const auto nodes = graph_.nodes();
    record_last_uses(nodes);
    for (const Node* n : nodes) {
      if (options_.include_stack_comments) write_stack_comment(*n);
      write_node(*n);
      write_deletions(*n);
    }
    if (nodes.empty()) append("pass\n");
    return assemble();
  }

 private:
  // A node's position in the body, in body lines; -1 for "the def line".
  struct Placement {
    int first = -1;
    int last = -1;
  };

  void append(std::string_view text) {
    for (char c : text) body_lines_ += c == '\n';
    body_ += text;
  }

  std::string name_of(const Node* n) { return ns_.create_name(n->name, n); }

  void record_last_uses(const std::vector<Node*>& nodes) {
    std::set<const Node*> seen;
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
      for (const Node* input : unique_inputs(**it)) {
        if (seen.insert(input).second) last_uses_[*it].push_back(input);
      }
    }
  }

  /// FX's node._input_nodes: args then kwargs, first occurrence order (a set:
  /// the output node may have as many inputs as the program has outputs).
  static std::vector<const Node*> unique_inputs(const Node& n) {
    std::vector<const Node*> out;
    std::unordered_set<const Node*> seen;
    n.for_each_input([&](const Node* input) {
      if (seen.insert(input).second) out.push_back(input);
    });
    return out;
  }

  void write_stack_comment(const Node& n) {
    if (n.op == OpKind::Placeholder || n.op == OpKind::Output) return;
    std::string where = "No stacktrace found for following nodes";
    if (!n.meta.stack_trace.empty()) {
      if (auto summary = stack_trace_summary(n.meta.stack_trace)) where = *summary;
    }
    std::string summary = "\n#" + custom_annotation(n.meta) + " " + where + "\n";
    if (summary == previous_summary_) return;
    previous_summary_ = summary;
    placements_[&n].first = body_lines_ + 1;  // after the blank line
    append(summary);
  }

  void write_node(const Node& n) {
    auto& place = placements_[&n];
    if (n.op == OpKind::Placeholder) {
      // FX prints the placeholder's target as the parameter, then binds the
      // node's own name to it if the namespace had to rename it.
      free_vars_.push_back(n.name + annotation(n));
      const std::string name = name_of(&n);
      if (name != n.name) append(name + " = " + n.name + "\n");
      return;
    }
    const int line = body_lines_;
    if (place.first < 0) place.first = line;
    place.last = line;
    append(statement(n));
  }

  std::string statement(const Node& n) {
    switch (n.op) {
      case OpKind::GetAttr:
        return name_of(&n) + annotation(n) + " = " + attribute_access("self", n.attr);
      case OpKind::Output:
        return "return " + (n.args().empty() ? std::string("None") : repr(n.args()[0]));
      case OpKind::CallFunction:
        return call_statement(n);
      case OpKind::Placeholder:
        break;
    }
    return {};
  }

  std::string call_statement(const Node& n) {
    if (const auto* op = find_operator(kMagicMethods, n.target)) {
      const std::string lhs = name_of(&n) + annotation(n);
      return lhs + " = " + fill_pattern(op->pattern, arg_reprs(n));
    }
    if (const auto* op = find_operator(kInplaceMethods, n.target)) {
      const auto args = arg_reprs(n);
      return fill_pattern(op->pattern, args) + ";  " + name_of(&n) + annotation(n) + " = " +
             (args.empty() ? std::string() : args[0]);
    }
    const std::string callee = callee_name(n.target);
    const std::string lhs = name_of(&n) + annotation(n);
    return lhs + " = " + callee + "(" + call_arguments(n) + ")";
  }

  std::string callee_name(const Target& target) {
    const std::string& q = target.qualified();
    if (is_from_torch(q)) return q;
    // Another module's callable (math.trunc) is a global: "math_trunc".
    const void* owner = &*global_callables_.insert(q).first;
    return ns_.create_name(q, owner);
  }

  std::vector<std::string> arg_reprs(const Node& n) {
    std::vector<std::string> out;
    for (const auto& a : n.args()) out.push_back(repr(a));
    return out;
  }

  std::string call_arguments(const Node& n) {
    std::string out;
    auto add = [&](const std::string& s) {
      if (!out.empty()) out += ", ";
      out += s;
    };
    for (const auto& a : n.args()) add(repr(a));
    for (const auto& kw : n.kwargs()) add(kw.name + " = " + repr(kw.value));
    return out;
  }

  /// FX's _format_target: "self.a.b", with getattr() for non-identifier parts.
  static std::string attribute_access(std::string base, const std::string& path) {
    size_t start = 0;
    while (start <= path.size()) {
      auto dot = path.find('.', start);
      if (dot == std::string::npos) dot = path.size();
      const std::string part = path.substr(start, dot - start);
      bool ident = !part.empty() && !std::isdigit(static_cast<unsigned char>(part[0]));
      for (char c : part)
        ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
      base = ident ? base + "." + part : "getattr(" + base + ", \"" + part + "\")";
      start = dot + 1;
    }
    return base;
  }

  /// FX's _get_repr for the argument kinds an exported graph holds.
  std::string repr(const Argument& a) {
    return std::visit(
        [&](const auto& v) -> std::string {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, None>) {
            return "None";
          } else if constexpr (std::is_same_v<T, Node*>) {
            return name_of(v);
          } else if constexpr (std::is_same_v<T, bool>) {
            return py_repr_bool(v);
          } else if constexpr (std::is_same_v<T, int64_t>) {
            return std::to_string(v);
          } else if constexpr (std::is_same_v<T, double>) {
            return py_repr_float(v);
          } else if constexpr (std::is_same_v<T, std::string>) {
            return py_repr_string(v);
          } else if constexpr (std::is_same_v<T, Device>) {
            return device_repr(v);
          } else if constexpr (std::is_same_v<T, OperatorRef>) {
            return v.qualified;  // FX prints an OpOverload by its qualified name
          } else if constexpr (std::is_same_v<T, ArgumentList>) {
            return list_repr(v);
          } else {
            return std::string(torch_name(v));  // dtype, layout, memory format
          }
        },
        a.v);
  }

  std::string list_repr(const ArgumentList& list) {
    std::string items;
    for (size_t i = 0; i < list.items.size(); ++i) {
      if (i) items += ", ";
      items += repr(list.items[i]);
    }
    if (!list.is_tuple) return "[" + items + "]";
    return list.items.size() == 1 ? "(" + items + ",)" : "(" + items + ")";
  }

  /// The verbose annotation FX derives from meta["val"]: `: "f32[s0, 3]"` for
  /// tensors, `: "Sym(s0 + 1)"` for symbolic scalars; nothing for plain
  /// Python values, tuples, sparse compressed tensors or unknown values.
  std::string annotation(const Node& n) const {
    if (!options_.type_annotations) return "";
    const ValueInfo& v = n.value;
    if (const auto* t = v.tensor()) {
      if (t->layout == Layout::SparseCsr || t->layout == Layout::SparseCsc) return "";
      return ": \"" + t->annotation() + "\"";
    }
    if (const auto* s = v.sym_int()) return s->is_static() ? "" : sym_annotation(s->str());
    if (const auto* b = v.sym_bool()) {
      const auto k = b->expr.kind();
      const bool constant = b->float_text.empty() && (k == symbolic::Expr::Kind::True || k == symbolic::Expr::Kind::False);
      return constant ? "" : sym_annotation(b->str());
    }
    if (const auto* f = std::get_if<SymFloat>(&v.v))
      return f->expr.empty() ? "" : sym_annotation(f->expr);
    return "";
  }

  static std::string sym_annotation(const std::string& text) { return ": \"Sym(" + text + ")\""; }

  /// FX's delete_unused_values: after a node, free what it used last (and
  /// itself if nothing uses it).
  void write_deletions(const Node& n) {
    if (n.op == OpKind::Placeholder) return;
    if (n.op == OpKind::Output) {
      append("\n");
      return;
    }
    std::vector<const Node*> dead;
    if (auto it = last_uses_.find(&n); it != last_uses_.end()) dead = it->second;
    if (n.users().empty()) dead.push_back(&n);
    if (dead.empty()) {
      append("\n");
      return;
    }
    std::string text = ";  ";
    for (const Node* d : dead) text += name_of(d) + " = ";
    append(text + "None\n");
  }

  /// Indents the body under the def line and turns body lines into lines of
  /// the forward text (FX strips the body's leading blank lines).
  PrintedText assemble() {
    size_t stripped = 0;
    while (stripped < body_.size() && body_[stripped] == '\n') ++stripped;
    const std::string code = body_.substr(stripped);

    PrintedText out;
    out.text = "def forward(self";
    for (const auto& v : free_vars_) out.text += ", " + v;
    out.text += "):\n    ";
    for (char c : code) {
      out.text += c;
      if (c == '\n') out.text += "    ";
    }
    const int shift = 1 - static_cast<int>(stripped);
    for (const auto& [node, place] : placements_) {
      if (place.last < 0) {
        out.node_lines[node] = {0, 0};
      } else {
        out.node_lines[node] = {place.first + shift, place.last + shift};
      }
    }
    return out;
  }

  const Graph& graph_;
  PrintOptions options_;
  FxNamespace ns_;
  std::set<std::string> global_callables_;  // stable identities for the namespace
  std::map<const Node*, std::vector<const Node*>> last_uses_;
  std::vector<std::string> free_vars_;
  std::string body_;
  int body_lines_ = 0;
  std::optional<std::string> previous_summary_;
  std::map<const Node*, Placement> placements_;
};

}  // namespace

PrintedText generate_forward(const Graph& graph, const PrintOptions& options) {
  return ForwardWriter(graph, options).write();
}

}  // namespace exportlens::ir
