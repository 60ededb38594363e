// Builds the IR from the program JSON the way torch's deserializer builds its
// FX graph (torch/_export/serde/serialize.py, GraphModuleDeserializer), so
// names, getitem nodes and args/kwargs come out as torch prints them.
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include "engine/ir/graph_builder.h"
#include "engine/ir/verifier.h"
#include "engine/serde/json_cursor.h"
#include "engine/serde/expr_cache.h"
#include "engine/serde/json_document.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/tensor_meta_reader.h"
#include "engine/symbolic/srepr_text.h"

namespace exportlens::serde {

// What the readers of one program share: its expressions, the symbols its
// values mention (torch keeps only their range constraints), and the node
// count, whose limit is on the whole program.
struct ReadContext {
  explicit ReadContext(const ReadLimits& l) : limits(l) {}
  const ReadLimits& limits;
  ExprCache exprs;
  std::set<std::string> seen_exprs;
  uint64_t nodes = 0;
  /// What the file's calls say about their ops (ExportedProgram::file_signatures); null: not kept.
  ir::OpSignatureMap* file_signatures = nullptr;
  /// The schemas that bind the arguments of files without argument kinds (torch <= 2.6); null: none.
  const ir::OpSignatureLookup* schemas = nullptr;
  /// torch >= 2.6 (schema 8) gives a branch's get_attr node the metadata of
  /// the HOP call; 2.5 (schema 7) did not.
  bool hop_meta_to_get_attr = true;
};

namespace {

using ir::Argument;
using ir::ArgumentList;
using ir::Node;
using ir::OpKind;
using symbolic::Expr;

constexpr int kPositional = 1;
constexpr int kKeyword = 2;

bool is_python_keyword(const std::string& s) {
  static const std::set<std::string> kw = {"False", "None", "True", "and", "as", "assert", "async", "await",
                                           "break", "class", "continue", "def", "del", "elif", "else", "except",
                                           "finally", "for", "from", "global", "if", "import", "in", "is",
                                           "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
                                           "while", "with", "yield"};
  return kw.count(s) != 0;
}

// Reads one graph (the top level or a cond/map branch) into a GraphModule.
class GraphReader {
 public:
  GraphReader(ReadContext* context, const ir::GraphSignature* signature)
      : context_(context), signature_(signature), limits_(context->limits) {}

  void read(const JsonCursor& g, ir::GraphModule& gm) {
    gm_ = &gm;
    builder_.emplace(gm.graph);
    index_table(g, "tensor_values", tables_.tensors);
    index_table(g, "sym_int_values", tables_.sym_ints);
    index_table(g, "sym_bool_values", tables_.sym_bools);
    index_table(g, "sym_float_values", tables_.sym_floats);
    read_inputs(g.at("inputs"));
    const auto nodes = g.at("nodes");
    for (const JsonCursor& node : nodes.elements()) read_node(node);
    read_outputs(g);
  }

 private:
  // --- values and metadata -------------------------------------------------
  void note_expr(const Expr& e) {
    if (e.is_integer() || e.is_boolean()) return;
    context_->seen_exprs.insert(e.str());
    for (const auto& a : e.args()) note_expr(a);
  }

  // `noted`: whether torch's deserializer sees this expression (it skips
  // storage offsets), which decides the range constraints it keeps.
  const Expr& parse_expr(const JsonCursor& c, bool noted = true) {
    ExprCache::Parsed* parsed = nullptr;
    try {
      parsed = &context_->exprs.srepr(c.view());
    } catch (const std::invalid_argument& e) {
      c.fail(std::string("bad symbolic expression: ") + e.what());
    }
    if (noted && !parsed->noted) {
      note_expr(parsed->expr);
      parsed->noted = true;
    }
    return parsed->expr;
  }

  // sympy's str of a float-valued expression (kept as text). Its symbols are
  // seen by torch's deserializer as any other's (they keep their range constraints).
  std::string sympy_text(const JsonCursor& c) {
    const std::string_view srepr = c.view();
    for (size_t at = srepr.find("Symbol('"); at != std::string_view::npos; at = srepr.find("Symbol('", at + 1)) {
      const size_t end = srepr.find('\'', at + 8);
      if (end != std::string_view::npos) context_->seen_exprs.insert(std::string(srepr.substr(at + 8, end - at - 8)));
    }
    try {
      return symbolic::sympy_str_of_srepr(srepr);
    } catch (const std::invalid_argument& e) {
      c.fail(std::string("bad symbolic expression: ") + e.what());
    }
  }

  ir::SymInt read_sym_int(const JsonCursor& c, bool noted = true) {
    const auto tag = c.union_key();
    if (tag == "as_int") {
      const int64_t v = c.union_value().integer();
      return ir::SymInt(context_->exprs.integer(v), v);
    }
    if (tag != "as_expr") c.fail("expected as_int or as_expr, found '" + std::string(tag) + "'");
    const auto e = c.union_value();
    const Expr& expr = parse_expr(e.at("expr_str"), noted);
    std::optional<int64_t> hint;
    if (e.has("hint")) {
      const auto h = e.at("hint");
      if (h.union_tag() == "as_int") hint = h.at("as_int").integer();
    }
    return ir::SymInt(expr, hint);
  }

  std::vector<ir::SymInt> read_sym_ints(const JsonCursor& c) {
    std::vector<ir::SymInt> out;
    for (const JsonCursor& item : c.elements()) out.push_back(read_sym_int(item));
    return out;
  }

 public:
  ir::TensorMeta read_tensor_meta(const JsonCursor& c) {
    ir::TensorMeta m;
    const auto code = c.at("dtype").integer();
    auto dt = ir::scalar_type_from_code(static_cast<int>(code));
    if (!dt) c.at("dtype").fail("unknown dtype code " + std::to_string(code));
    m.dtype = *dt;
    m.sizes = read_sym_ints(c.at("sizes"));
    m.strides = read_sym_ints(c.at("strides"));
    if (c.has("storage_offset")) m.storage_offset = read_sym_int(c.at("storage_offset"), /*noted=*/false);
    if (c.has("requires_grad")) m.requires_grad = c.at("requires_grad").boolean();
    if (c.has("layout")) m.layout = static_cast<ir::Layout>(c.at("layout").integer());
    if (c.has("device")) m.device = read_device(c.at("device"));
    return m;
  }

  static ir::Device read_device(const JsonCursor& c) {
    ir::Device d;
    d.type = c.at("type").str();
    if (c.has("index")) d.index = static_cast<int>(c.at("index").integer());
    return d;
  }

 private:
  // The graph's value tables, indexed once (ordered_json lookups are linear).
  struct ValueTables {
    std::unordered_map<std::string, JsonCursor> tensors, sym_ints, sym_bools, sym_floats;
  };
  static void index_table(const JsonCursor& g, const char* key, std::unordered_map<std::string, JsonCursor>& out) {
    if (!g.has(key)) return;
    const auto table = g.at(key);
    table.expect_object();
    for (const auto& [name, value] : table.members()) out.emplace(std::string(name), value);
  }

  ir::ValueInfo value_info(const std::string& name) {
    if (auto it = tables_.tensors.find(name); it != tables_.tensors.end())
      return ir::ValueInfo::of(read_tensor_meta(it->second));
    if (auto it = tables_.sym_ints.find(name); it != tables_.sym_ints.end())
      return ir::ValueInfo::of(read_sym_int(it->second));
    if (auto it = tables_.sym_bools.find(name); it != tables_.sym_bools.end()) {
      const auto& c = it->second;
      ir::SymBool b;
      if (c.union_tag() == "as_bool") {
        b.expr = Expr::boolean(c.at("as_bool").boolean());
      } else if (const JsonCursor text = c.at("as_expr").at("expr_str"); text.view().find("Float(") != std::string_view::npos) {
        b.expr = Expr::boolean(true);  // a relation over floats: kept as text
        b.float_srepr = text.str();
        b.float_text = sympy_text(text);
      } else {
        b.expr = parse_expr(text);
      }
      return ir::ValueInfo{b};
    }
    if (auto it = tables_.sym_floats.find(name); it != tables_.sym_floats.end()) {
      const auto& c = it->second;
      ir::SymFloat f;
      if (c.union_tag() == "as_float") {
        f.hint = c.at("as_float").number();
      } else {
        const JsonCursor text = c.at("as_expr").at("expr_str");
        f.srepr = text.str();
        f.expr = sympy_text(text);
      }
      return ir::ValueInfo{f};
    }
    return {};
  }

  static void read_metadata(const JsonCursor& c, ir::NodeMetadata& meta) {
    if (!c.is_object()) return;
    for (const auto& [key, value] : c.members()) {
      if (!value.is_string()) continue;
      const auto text = value.str();
      if (key == "stack_trace") {
        meta.stack_trace = text;
      } else if (key == "nn_module_stack") {
        meta.nn_module_stack = parse_module_stack(text, c);
      } else if (key == "source_fn_stack") {
        for (const auto& item : split(text, ';')) {
          auto comma = item.find(',');
          meta.source_fn_stack.emplace_back(item.substr(0, comma),
                                            comma == std::string::npos ? "" : item.substr(comma + 1));
        }
      } else if (key == "torch_fn") {
        meta.torch_fn = text;
      } else {
        meta.custom[std::string(key)] = text;
      }
    }
  }

  static std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i) {
      if (i == s.size() || s[i] == sep) {
        out.push_back(s.substr(start, i - start));
        start = i + 1;
      }
    }
    return out;
  }

  // "key,path,type" items joined by ';', commas inside brackets not splitting.
  static std::vector<ir::ModuleScope> parse_module_stack(const std::string& text, const JsonCursor& metadata) {
    std::vector<ir::ModuleScope> out;
    for (const auto& item : split(text, ';')) {
      std::vector<std::string> parts;
      int depth = 0;
      size_t start = 0;
      for (size_t i = 0; i < item.size(); ++i) {
        const char ch = item[i];
        if (ch == '[' || ch == '(') ++depth;
        else if (ch == ']' || ch == ')') --depth;
        else if (ch == ',' && depth == 0) {
          parts.push_back(item.substr(start, i - start));
          start = i + 1;
        }
      }
      parts.push_back(item.substr(start));
      if (parts.size() != 3)
        metadata.at("nn_module_stack").fail("expected 'key,path,type', got '" + item + "'");
      out.push_back({parts[0], parts[1], parts[2]});
    }
    return out;
  }

  // --- node creation -------------------------------------------------------
  // Nodes are filled in before they are placed, so use lists stay right
  // without re-deriving them.
  std::unique_ptr<Node> new_node(OpKind op, const std::string& name) {
    if (++context_->nodes > limits_.max_nodes)
      throw SchemaError("the program has more than " + std::to_string(limits_.max_nodes) +
                        " nodes (raise the limit with --limit nodes=...)");
    return builder_->make_as_written(op, name.empty() ? "node" : name);
  }
  Node* make_node(OpKind op, const std::string& name) { return builder_->insert(new_node(op, name)); }

  void bind(const std::string& serialized_name, Node* n, const JsonCursor& where) {
    if (by_name_.count(serialized_name))
      where.fail("value '" + serialized_name + "' is defined twice");
    by_name_[serialized_name] = n;
    n->value = value_info(serialized_name);
  }

  Node* lookup(const std::string& name, const JsonCursor& where) const {
    auto it = by_name_.find(name);
    if (it == by_name_.end()) where.fail("refers to undefined value '" + name + "'");
    return it->second;
  }

  void read_inputs(const JsonCursor& inputs) {
    size_t i = 0;
    for (const JsonCursor& in : inputs.elements()) {
      const auto tag = in.union_tag();
      if (tag == "as_tensor" || tag == "as_custom_obj") {
        const auto name = in.union_value().at("name").str();
        Node* n = make_node(OpKind::Placeholder, name);
        bind(name, n, in);
      } else if (tag == "as_sym_int") {
        const auto v = in.union_value();
        if (v.union_tag() != "as_name") in.fail("a constant symint cannot be a graph input");
        const auto name = v.at("as_name").str();
        Node* n = make_node(OpKind::Placeholder, name);
        bind(name, n, in);
      } else if (tag == "as_int" || tag == "as_float" || tag == "as_bool" || tag == "as_none" ||
                 tag == "as_string") {
        std::string name = "arg" + std::to_string(i);
        if (signature_ && i < signature_->inputs.size() && !signature_->inputs[i].arg.name.empty())
          name = signature_->inputs[i].arg.name;
        make_node(OpKind::Placeholder, name);
      } else {
        in.fail("unsupported graph input kind '" + tag + "'");
      }
      ++i;
    }
  }

  Argument read_sym_arg(const JsonCursor& c) {
    const auto tag = c.union_tag();
    if (tag == "as_name") return lookup(c.at("as_name").str(), c);
    if (tag == "as_int") return c.at("as_int").integer();
    if (tag == "as_float") return c.at("as_float").number();
    if (tag == "as_bool") return c.at("as_bool").boolean();
    c.fail("unknown symbolic argument kind '" + tag + "'");
  }

  Argument read_argument(const JsonCursor& c) {
    const auto tag = c.union_tag();
    const auto v = c.at(tag.c_str());
    if (tag == "as_none") return ir::None{};
    if (tag == "as_tensor") return lookup(v.at("name").str(), v);
    if (tag == "as_int") return v.integer();
    if (tag == "as_float") return v.number();
    if (tag == "as_bool") return v.boolean();
    if (tag == "as_string") return v.str();
    if (tag == "as_scalar_type") {
      auto t = ir::scalar_type_from_code(static_cast<int>(v.integer()));
      if (!t) v.fail("unknown dtype code " + std::to_string(v.integer()));
      return *t;
    }
    if (tag == "as_memory_format") return static_cast<ir::MemoryFormat>(v.integer());
    if (tag == "as_layout") return static_cast<ir::Layout>(v.integer());
    if (tag == "as_device") return read_device(v);
    if (tag == "as_sym_int" || tag == "as_sym_float" || tag == "as_sym_bool") return read_sym_arg(v);
    if (tag == "as_graph") return read_subgraph(v);
    if (tag == "as_custom_obj") return lookup(v.at("name").str(), v);
    if (tag == "as_operator") return ir::OperatorRef{v.str()};
    if (tag == "as_optional_tensor") {
      return v.union_tag() == "as_none" ? Argument(ir::None{}) : lookup(v.union_value().at("name").str(), v);
    }
    if (!v.is_array()) c.fail("unsupported argument kind '" + tag + "'");
    ArgumentList list;
    for (const JsonCursor& item : v.elements()) {
      if (tag == "as_tensors") list.items.push_back(lookup(item.at("name").str(), item));
      else if (tag == "as_ints") list.items.push_back(item.integer());
      else if (tag == "as_floats") list.items.push_back(item.number());
      else if (tag == "as_bools") list.items.push_back(item.boolean());
      else if (tag == "as_strings") list.items.push_back(item.str());
      else if (tag == "as_sym_ints" || tag == "as_sym_floats" || tag == "as_sym_bools")
        list.items.push_back(read_sym_arg(item));
      else if (tag == "as_optional_tensors")
        list.items.push_back(item.union_tag() == "as_none" ? Argument(ir::None{})
                                                            : lookup(item.union_value().at("name").str(), item));
      else if (tag == "as_int_lists") {
        ArgumentList inner{{}, true};
        for (const JsonCursor& k : item.elements()) inner.items.push_back(k.integer());
        list.items.push_back(inner);
      } else if (tag == "as_float_lists") {
        ArgumentList inner;
        for (const JsonCursor& k : item.elements()) inner.items.push_back(k.number());
        list.items.push_back(inner);
      } else if (tag == "as_nested_tensors") {
        ArgumentList inner;
        for (const JsonCursor& k : item.elements()) inner.items.push_back(lookup(k.at("name").str(), item));
        list.items.push_back(inner);
      } else {
        c.fail("unsupported list argument kind '" + tag + "'");
      }
    }
    return list;
  }

  // A cond/map branch: its own graph and names, registered as a submodule
  // and referenced through a get_attr node named after it.
  Argument read_subgraph(const JsonCursor& v) {
    const auto name = v.at("name").str();
    auto sub = std::make_shared<ir::GraphModule>();
    GraphReader inner(context_, nullptr);
    inner.read(v.at("graph"), *sub);
    gm_->submodules.emplace_back(name, sub);
    Node* n = make_node(OpKind::GetAttr, name);
    n->attr = name;
    return n;
  }

  void read_node(const JsonCursor& c) {
    const std::string target = c.at("target").str();
    const bool hop = target.rfind("torch.ops.higher_order.", 0) == 0;
    std::vector<Argument> args;
    std::vector<ir::NamedArgument> kwargs;
    const auto inputs = c.at("inputs");
    if (hop || !bind_by_schema(target, inputs, args, kwargs)) {
      for (const JsonCursor& in : inputs.elements()) {
        const std::string name = in.at("name").str();
        const int kind = in.has("kind") ? static_cast<int>(in.at("kind").integer()) : kPositional;
        Argument a = read_argument(in.at("arg"));
        const bool keyword = hop ? (kind != kPositional && !name.empty())
                                 : (kind == kKeyword && !is_python_keyword(name));
        if (keyword) kwargs.push_back({name, std::move(a)});
        else args.push_back(std::move(a));
      }
    }
    ir::NodeMetadata meta;
    if (c.has("metadata")) read_metadata(c.at("metadata"), meta);
    if (context_->hop_meta_to_get_attr)
      for (auto& a : args) copy_meta_to_get_attr(a, meta, hop);

    const auto outputs = c.at("outputs");
    if (!hop && context_->file_signatures) learn_signature(target, inputs, outputs);
    auto node = new_node(OpKind::CallFunction, node_name(c, target, outputs, hop));
    node->target = ir::Target(target);
    node->set_inputs(std::move(args), std::move(kwargs));
    node->meta = meta;
    read_node_outputs(c, outputs, builder_->insert(std::move(node)), hop);
  }

  // A file that does not record how each argument was passed (torch <= 2.6)
  // is bound as torch's deserializer binds it: in schema order, an argument
  // with a default value or keyword-only by keyword, the others by position.
  bool bind_by_schema(const std::string& target, const JsonCursor& inputs, std::vector<Argument>& args,
                      std::vector<ir::NamedArgument>& kwargs) {
    const ir::OpSignatureLookup* schemas = context_->schemas;
    if (!schemas || !*schemas || inputs.size() == 0) return false;
    for (const JsonCursor& in : inputs.elements())
      if (in.has("kind")) return false;
    const ir::Target t(target);
    if (!t.is_torch_op()) return false;
    const auto schema = (*schemas)(t.schema_name());
    if (!schema) return false;
    std::map<std::string, JsonCursor, std::less<>> by_name;
    for (const JsonCursor& in : inputs.elements()) by_name.emplace(in.at("name").str(), in);
    for (const auto& s : schema->arguments) {
      auto it = by_name.find(s.name);
      if (it == by_name.end()) continue;
      Argument a = read_argument(it->second.at("arg"));
      const bool positional = (!s.has_default && !s.kwarg_only) || is_python_keyword(s.name);
      if (positional) args.push_back(std::move(a));
      else kwargs.push_back({s.name, std::move(a)});
      by_name.erase(it);
    }
    if (!by_name.empty())
      inputs.fail("argument '" + by_name.begin()->first + "' is not in the schema of " + t.schema_name());
    return true;
  }

  // What this call says about its op: the names of the arguments it passes
  // (positional ones at their index: torch writes them in schema order) and
  // the kinds of its outputs. The call naming the most arguments is kept; the
  // writer asks the dispatcher first anyway.
  void learn_signature(const std::string& target, const JsonCursor& inputs, const JsonCursor& outputs) {
    const ir::Target t(target);
    if (!t.is_torch_op()) return;
    ir::OpSignatureMap& known = *context_->file_signatures;
    const std::string key = t.schema_name();
    if (auto it = known.find(key); it != known.end() && it->second.arguments.size() >= inputs.size()) return;
    ir::OpSignature sig;
    sig.complete = false;
    for (const JsonCursor& in : inputs.elements()) {
      ir::OpArgumentSignature a;
      a.name = in.at("name").str();
      a.kwarg_only = in.has("kind") && in.at("kind").integer() == kKeyword;
      const auto tag = in.at("arg").union_key();
      if (tag == "as_ints") a.list = ir::ListKind::Int;
      else if (tag == "as_floats") a.list = ir::ListKind::Float;
      else if (tag == "as_bools") a.list = ir::ListKind::Bool;
      else if (tag == "as_strings") a.list = ir::ListKind::String;
      else if (tag == "as_tensors" || tag == "as_optional_tensors") a.list = ir::ListKind::Tensor;
      sig.arguments.push_back(std::move(a));
    }
    for (const JsonCursor& o : outputs.elements()) {
      const auto tag = o.union_key();
      sig.returns.push_back(tag == "as_tensor"      ? ir::ReturnKind::Tensor
                            : tag == "as_tensors"   ? ir::ReturnKind::TensorList
                            : tag == "as_none"      ? ir::ReturnKind::OptionalTensor
                            : tag == "as_sym_int"   ? ir::ReturnKind::SymInt
                            : tag == "as_sym_bool"  ? ir::ReturnKind::SymBool
                            : tag == "as_sym_float" ? ir::ReturnKind::SymFloat
                                                    : ir::ReturnKind::Other);
    }
    known[key] = std::move(sig);
  }

  // torch names a node after its single output value (sync_fx_node), else
  // after the serialized node name, else after the op.
  static std::string node_name(const JsonCursor& c, const std::string& target, const JsonCursor& outputs,
                               bool hop) {
    if (!hop && outputs.size() == 1) {
      const auto tag = outputs.at(0).union_tag();
      if (tag == "as_tensor" || tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float")
        return output_name(outputs.at(0));
      if (tag == "as_none") return ir::Target(target).op_name() + "_" + ir::Target(target).overload() + "_unused";
    }
    const std::string name = c.has("name") ? c.at("name").str() : "";
    if (!name.empty()) return name;
    // A HOP without a name (files before torch 2.11): torch names it after its one
    // tensor only when the node says it returns a single tensor, else FX after the HOP.
    if (hop && !(c.has("is_hop_single_tensor_return") && c.at("is_hop_single_tensor_return").boolean()))
      return ir::Target(target).op_name();
    return default_name(target, outputs);
  }

  static void copy_meta_to_get_attr(const Argument& a, const ir::NodeMetadata& meta, bool hop) {
    // torch gives a branch's get_attr node the metadata of the HOP call.
    if (Node* g = a.node(); hop && g && g->op == OpKind::GetAttr) g->meta = meta;
  }

  static std::string default_name(const std::string& target, const JsonCursor& outputs) {
    if (outputs.size() == 1) {
      const auto o = outputs.at(0);
      const auto tag = o.union_tag();
      if (tag == "as_tensor") return o.union_value().at("name").str();
      if (tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float") {
        const auto v = o.union_value();
        if (v.union_tag() == "as_name") return v.at("as_name").str();
      }
    }
    // FX's own name for the call (Graph._target_to_str): "unbind.int" -> unbind_int; a HOP's is its name.
    const ir::Target t(target);
    return t.is_torch_op() ? t.op_name() + "_" + t.overload() : t.op_name();
  }

  void read_node_outputs(const JsonCursor& c, const JsonCursor& outputs, Node* n, bool hop) {
    const size_t count = outputs.size();
    if (count == 0) return;
    // As torch: one value is a tuple of one unless the node says it is a single tensor. Older
    // files (torch <= 2.6) wrote a HOP's results as one as_tensors list: its items, as for an op.
    const std::string first_tag = count == 1 ? outputs.at(0).union_tag() : "";
    const bool hop_tuple_of_one = hop && count == 1 &&
                                  !(c.has("is_hop_single_tensor_return") && c.at("is_hop_single_tensor_return").boolean()) &&
                                  first_tag != "as_none" && first_tag != "as_tensors";
    if (hop_tuple_of_one) {
      ir::ValueTuple vals;
      getitem(n, 0, output_name(outputs.at(0)), vals, outputs.at(0));
      n->value = ir::ValueInfo::of_tuple(std::move(vals));
      return;
    }
    if (count == 1) {
      const auto o = outputs.at(0);
      const auto tag = o.union_tag();
      if (tag == "as_tensor" || tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float") {
        bind(output_name(o), n, o);
        return;
      }
      if (tag == "as_none") return;  // e.g. _assert_scalar: no value
      if (tag == "as_tensors") {
        ir::ValueTuple vals;
        const auto list = o.union_value();
        int64_t i = 0;
        for (const JsonCursor& item : list.elements()) getitem(n, i++, item.at("name").str(), vals, item);
        n->value = ir::ValueInfo::of_tuple(std::move(vals));
        return;
      }
    }
    ir::ValueTuple vals;
    int64_t i = 0;
    for (const JsonCursor& o : outputs.elements()) {
      if (o.union_tag() == "as_none") {
        // torch's deserializer makes a getitem named as_none for it (an op's or
        // auto_functionalized_v2's None result), which nothing reads.
        auto item = new_node(OpKind::CallFunction, "as_none");
        item->target = ir::Target("_operator.getitem");
        item->set_args({Argument(n), Argument(i++)});
        item->meta = n->meta;
        builder_->insert(std::move(item));
        vals.push_back({});
        continue;
      }
      getitem(n, i++, output_name(o), vals, o);
    }
    n->value = ir::ValueInfo::of_tuple(std::move(vals));
  }

  static std::string output_name(const JsonCursor& o) {
    const auto tag = o.union_tag();
    const auto v = o.union_value();
    if (tag == "as_tensor") return v.at("name").str();
    if (tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float") return v.at("as_name").str();
    o.fail("unsupported node output kind '" + tag + "'");
  }

  void getitem(Node* parent, int64_t index, const std::string& name, ir::ValueTuple& vals, const JsonCursor& where) {
    auto item = new_node(OpKind::CallFunction, name);
    item->target = ir::Target("_operator.getitem");
    item->set_args({Argument(parent), Argument(index)});
    item->meta = parent->meta;  // torch copies the call's metadata to its getitems
    Node* g = builder_->insert(std::move(item));
    bind(name, g, where);
    vals.push_back(g->value);
  }

  Argument read_graph_output(const JsonCursor& o) {
    const auto tag = o.union_tag();
    if (tag == "as_tensor" || tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float")
      return lookup(output_name(o), o);
    if (tag == "as_int") return o.at("as_int").integer();
    if (tag == "as_float") return o.at("as_float").number();
    if (tag == "as_bool") return o.at("as_bool").boolean();
    if (tag == "as_none") return ir::None{};
    o.fail("unsupported graph output kind '" + tag + "'");
  }

  void read_outputs(const JsonCursor& g) {
    const auto outs = g.at("outputs");
    ArgumentList list{{}, true};
    for (const JsonCursor& o : outs.elements()) list.items.push_back(read_graph_output(o));
    auto out = new_node(OpKind::Output, "output");
    const bool single = g.has("is_single_tensor_return") && g.at("is_single_tensor_return").boolean();
    if (single) {
      if (list.items.size() != 1) g.fail("is_single_tensor_return with " + std::to_string(list.items.size()) + " outputs");
      out->set_args({list.items[0]});
    } else {
      out->set_args({Argument(list)});
    }
    builder_->insert(std::move(out));
  }

  ReadContext* context_;
  const ir::GraphSignature* signature_;
  const ReadLimits& limits_;
  ir::GraphModule* gm_ = nullptr;
  std::optional<ir::GraphBuilder> builder_;  // over gm_'s graph
  ValueTables tables_;
  std::unordered_map<std::string, Node*> by_name_;
};

ir::SpecArgument read_spec_argument(const JsonCursor& c) {
  // Signature arguments are either tagged unions (user inputs/outputs) or
  // plain {"name": ...} objects (parameters, buffers, ...).
  ir::SpecArgument a;
  if (c.has("name") && c.size() == 1) {
    a.name = c.at("name").str();
    return a;
  }
  const auto tag = c.union_tag();
  const auto v = c.union_value();
  if (tag == "as_tensor") {
    a.name = v.at("name").str();
  } else if (tag == "as_sym_int" || tag == "as_sym_float" || tag == "as_sym_bool") {
    a.type = tag == "as_sym_int" ? ir::SpecArgument::Type::SymInt
             : tag == "as_sym_float" ? ir::SpecArgument::Type::SymFloat : ir::SpecArgument::Type::SymBool;
    if (v.union_tag() == "as_name") a.name = v.at("as_name").str();
  } else if (tag == "as_custom_obj") {
    a.type = ir::SpecArgument::Type::CustomObj;
    a.name = v.at("name").str();
  } else if (tag == "as_token") {
    a.type = ir::SpecArgument::Type::Token;
    a.name = v.at("name").str();
  } else {
    a.type = ir::SpecArgument::Type::Constant;
    if (tag == "as_int") a.constant = v.integer();
    else if (tag == "as_float") a.constant = v.number();
    else if (tag == "as_bool") a.constant = v.boolean();
    else if (tag == "as_string") a.constant = v.str();
    else if (tag == "as_none") a.constant = ir::None{};
    else c.fail("unsupported signature argument kind '" + tag + "'");
  }
  return a;
}

ir::GraphSignature read_signature(const JsonCursor& s) {
  ir::GraphSignature sig;
  const auto ins = s.at("input_specs");
  for (const JsonCursor& spec : ins.elements()) {
    const auto tag = spec.union_tag();
    const auto v = spec.union_value();
    ir::InputSpec in;
    if (tag == "user_input") {
      in.kind = ir::InputKind::UserInput;
      in.arg = read_spec_argument(v.at("arg"));
    } else if (tag == "parameter") {
      in.kind = ir::InputKind::Parameter;
      in.arg = read_spec_argument(v.at("arg"));
      in.target = v.at("parameter_name").str();
    } else if (tag == "buffer") {
      in.kind = ir::InputKind::Buffer;
      in.arg = read_spec_argument(v.at("arg"));
      in.target = v.at("buffer_name").str();
      in.persistent = v.at("persistent").boolean();
    } else if (tag == "tensor_constant") {
      in.kind = ir::InputKind::ConstantTensor;
      in.arg = read_spec_argument(v.at("arg"));
      in.target = v.at("tensor_constant_name").str();
    } else if (tag == "custom_obj") {
      in.kind = ir::InputKind::CustomObj;
      in.arg = read_spec_argument(v.at("arg"));
      in.arg.type = ir::SpecArgument::Type::CustomObj;
      in.target = v.at("custom_obj_name").str();
    } else if (tag == "token") {
      in.kind = ir::InputKind::Token;
      in.arg = read_spec_argument(v.at("arg"));
      in.arg.type = ir::SpecArgument::Type::Token;
    } else if (tag == "constant_input") {
      in.kind = ir::InputKind::UserInput;
      in.arg.type = ir::SpecArgument::Type::Constant;
      in.arg.name = v.at("name").str();
    } else {
      spec.fail("unknown input spec kind '" + tag + "'");
    }
    sig.inputs.push_back(std::move(in));
  }
  static const std::map<std::string, std::pair<ir::OutputKind, const char*>> kOutputKinds = {
      {"user_output", {ir::OutputKind::UserOutput, nullptr}},
      {"loss_output", {ir::OutputKind::LossOutput, nullptr}},
      {"buffer_mutation", {ir::OutputKind::BufferMutation, "buffer_name"}},
      {"parameter_mutation", {ir::OutputKind::ParameterMutation, "parameter_name"}},
      {"gradient_to_parameter", {ir::OutputKind::GradientToParameter, "parameter_name"}},
      {"gradient_to_user_input", {ir::OutputKind::GradientToUserInput, "user_input_name"}},
      {"user_input_mutation", {ir::OutputKind::UserInputMutation, "user_input_name"}},
      {"token", {ir::OutputKind::Token, nullptr}},
  };
  const auto outs = s.at("output_specs");
  for (const JsonCursor& spec : outs.elements()) {
    const auto tag = spec.union_tag();
    auto it = kOutputKinds.find(tag);
    if (it == kOutputKinds.end()) spec.fail("unknown output spec kind '" + tag + "'");
    const auto v = spec.union_value();
    ir::OutputSpec out;
    out.kind = it->second.first;
    out.arg = read_spec_argument(v.at("arg"));
    if (it->second.second) out.target = v.at(it->second.second).str();
    sig.outputs.push_back(std::move(out));
  }
  return sig;
}

ir::RangeConstraints read_range_constraints(const JsonCursor& c, const std::set<std::string>& seen) {
  ir::RangeConstraints rc;
  c.expect_object();
  for (const auto& [key_view, v] : c.members()) {
    const std::string key(key_view);
    if (!seen.count(key)) continue;  // torch drops symbols no graph value mentions
    Expr k;
    try {
      k = Expr::parse(key);
    } catch (const std::exception& e) {
      c.fail("bad range-constraint key '" + key + "': " + e.what());
    }
    // torch 2.5 wrote unbounded ends as the JSON tokens (-)Infinity, later releases leave them out.
    auto bound = [&v = v](const char* end, bool lower) {  // named: clang 14 cannot capture a structured binding
      if (!v.has(end)) return Expr::infinity(lower);
      const JsonCursor b = v.at(end);
      if (b.is_string() || (b.type() == JsonType::Real && std::isinf(b.number()))) return Expr::infinity(lower);
      return Expr(b.integer());
    };
    ir::ValueRange r{bound("min_val", true), bound("max_val", false)};
    rc.entries.emplace_back(k, r);
  }
  return rc;
}

std::vector<ir::ModuleCallEntry> read_module_call_graph(const JsonCursor& c) {
  std::vector<ir::ModuleCallEntry> out;
  for (const JsonCursor& e : c.elements()) {
    ir::ModuleCallEntry m;
    m.fqn = e.at("fqn").str();
    if (e.has("signature")) {
      const auto s = e.at("signature");
      m.has_signature = true;
      if (s.has("in_spec")) m.in_spec = s.at("in_spec").str();
      if (s.has("out_spec")) m.out_spec = s.at("out_spec").str();
      if (s.has("forward_arg_names")) {
        const auto names = s.at("forward_arg_names");
        for (const JsonCursor& name : names.elements()) m.forward_arg_names.push_back(name.str());
      }
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

TensorMetaReader::TensorMetaReader() : context_(std::make_unique<ReadContext>(limits_)) {}
TensorMetaReader::~TensorMetaReader() = default;

ir::TensorMeta TensorMetaReader::read(const JsonCursor& c) { return GraphReader(context_.get(), nullptr).read_tensor_meta(c); }

ir::ExportedProgram parse_program_json(const std::string& json_text, const std::string& label,
                                       const ReadLimits& limits, const ir::OpSignatureLookup& schemas) {
  const JsonDocument doc = JsonDocument::parse(json_text, label, limits);
  try {
    const JsonCursor root(doc, label);
    ir::ExportedProgram ep;
    if (root.has("schema_version")) {
      const auto v = root.at("schema_version");
      ep.schema_major = static_cast<int>(v.at("major").integer());
      ep.schema_minor = static_cast<int>(v.at("minor").integer());
    }
    if (ep.schema_major > kMaxSchemaMajor || ep.schema_major < 1)
      throw Pt2Error(label + ": unsupported schema version " + std::to_string(ep.schema_major) + "." +
                     std::to_string(ep.schema_minor) + " (ExportLens reads schema 1.x to " +
                     std::to_string(kMaxSchemaMajor) + ".x, torch 2.x archives)");
    if (root.has("torch_version")) ep.torch_version = root.at("torch_version").str();
    const auto gm = root.at("graph_module");
    ep.signature = read_signature(gm.at("signature"));
    ReadContext context(limits);
    context.file_signatures = &ep.file_signatures;
    context.schemas = &schemas;
    context.hop_meta_to_get_attr = ep.schema_major >= 8;
    GraphReader(&context, &ep.signature).read(gm.at("graph"), ep.graph_module);
    if (root.has("range_constraints"))
      ep.range_constraints = read_range_constraints(root.at("range_constraints"), context.seen_exprs);
    if (gm.has("module_call_graph")) ep.module_call_graph = read_module_call_graph(gm.at("module_call_graph"));
    if (root.has("verifiers"))
      for (const JsonCursor& v : root.at("verifiers").elements()) ep.verifiers.push_back(v.str());
    if (root.has("guards_code"))
      for (const JsonCursor& g : root.at("guards_code").elements()) ep.guards_code.push_back(g.str());
    return ep;
  } catch (const SchemaError& e) {
    const std::string what = e.what();
    throw Pt2Error(what.rfind(label, 0) == 0 ? what : label + ": " + what);
  } catch (const std::invalid_argument& e) {
    throw Pt2Error(label + ": " + e.what());
  }
}

}  // namespace exportlens::serde
