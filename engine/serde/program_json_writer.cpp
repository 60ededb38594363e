// The program JSON as torch 2.13's serializer writes it
// (torch/_export/serde/serialize.py, GraphModuleSerializer and
// ExportedProgramSerializer; field order as in schema.py), so that torch's
// deserializer, and ExportLens' own reader, rebuild the same FX graph:
// the same node names, args and kwargs, getitems and metadata.
#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "engine/ir/pytree_spec.h"
#include "engine/serde/tensor_meta_json.h"
#include "engine/serde/pt2_writer.h"

namespace exportlens::serde {
namespace {

using ir::Argument;
using ir::ArgumentList;
using ir::Node;
using ir::OpKind;
using json = nlohmann::ordered_json;

constexpr int kPositional = 1;
constexpr int kKeyword = 2;
constexpr int kOpsetAten = 10;  // torch._C._get_max_operator_version() in 2.13

json tagged(const char* tag, json value) {
  json j = json::object();
  j[tag] = std::move(value);
  return j;
}

json named(const std::string& name) { return json{{"name", name}}; }

json as_name(const std::string& name) { return tagged("as_name", name); }

// Python's json writes inf/nan; torch's _dataclass_to_dict turns them into strings first.
json float_value(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  return d;
}

json device_json(const ir::Device& d) {
  json j = json::object();
  j["type"] = d.type;
  j["index"] = d.index ? json(*d.index) : json(nullptr);
  return j;
}

bool is_sym_int(const Node* n) { return n && n->value.sym_int(); }
bool is_sym_bool(const Node* n) { return n && n->value.sym_bool(); }
bool is_sym_float(const Node* n) { return n && std::holds_alternative<ir::SymFloat>(n->value.v); }
bool is_sym_value(const Node* n) { return is_sym_int(n) || is_sym_bool(n) || is_sym_float(n); }

// Python operators and torch.sym_* functions: torch names their arguments by
// inspect.signature; its deserializer reads them by position only.
bool is_python_sym_op(const ir::Target& t) {
  const auto& q = t.qualified();
  return q.rfind("_operator.", 0) == 0 || q.rfind("operator.", 0) == 0 || q.rfind("torch.sym_", 0) == 0 ||
         q == "math.trunc";
}

class GraphWriter {
 public:
  GraphWriter(const ir::ExportedProgram& ep, const WriteOptions& options, std::string where)
      : ep_(ep), options_(options), where_(std::move(where)) {}

  json write(const ir::GraphModule& gm) {
    gm_ = &gm;
    index_getitems(gm.graph);
    json inputs = json::array(), nodes = json::array(), outputs = json::array();
    bool single_tensor_return = false;
    for (const Node* n : gm.graph.nodes()) {
      switch (n->op) {
        case OpKind::Placeholder: inputs.push_back(placeholder(n)); break;
        case OpKind::GetAttr: break;  // written where a call uses it (as_graph)
        case OpKind::CallFunction:
          if (!n->target.is_getitem()) nodes.push_back(call(n));
          break;
        case OpKind::Output: {
          const Argument& a = n->args().empty() ? Argument() : n->args()[0];
          if (const auto* list = a.list()) {
            for (const auto& item : list->items) outputs.push_back(argument(item, ir::ListKind::Unknown, n));
          } else {
            single_tensor_return = true;
            outputs.push_back(argument(a, ir::ListKind::Unknown, n));
          }
          break;
        }
      }
    }
    json g = json::object();
    g["inputs"] = std::move(inputs);
    g["outputs"] = std::move(outputs);
    g["nodes"] = std::move(nodes);
    g["tensor_values"] = std::move(tensor_values_);
    g["sym_int_values"] = std::move(sym_int_values_);
    g["sym_bool_values"] = std::move(sym_bool_values_);
    g["is_single_tensor_return"] = single_tensor_return;
    g["custom_obj_values"] = json::object();
    g["sym_float_values"] = std::move(sym_float_values_);
    return g;
  }

 private:
  [[noreturn]] void fail(const Node* n, const std::string& what) const {
    throw Pt2WriteError(where_ + (n ? "node '" + n->name + "'" : std::string("the graph")) + ": " + what);
  }

  // ---- getitems: a multi-output call's values are named after its getitems
  void index_getitems(const ir::Graph& g) {
    for (const Node* n : g.nodes()) {
      if (n->op != OpKind::CallFunction || !n->target.is_getitem() || n->args().size() != 2) continue;
      const Node* parent = n->args()[0].node();
      const auto* index = std::get_if<int64_t>(&n->args()[1].v);
      if (!parent || !index) continue;
      auto [it, fresh] = getitems_[parent].emplace(*index, n);
      if (!fresh) duplicate_[n] = it->second;  // torch keeps the first of equal getitems
    }
  }

  const Node* getitem_at(const Node* parent, int64_t index) const {
    auto it = getitems_.find(parent);
    if (it == getitems_.end()) return nullptr;
    auto g = it->second.find(index);
    return g == it->second.end() ? nullptr : g->second;
  }

  std::string output_name_at(const Node* parent, int64_t index) const {
    const Node* g = getitem_at(parent, index);
    return g ? g->name : parent->name + "_unused_" + std::to_string(index);
  }

  // ---- values ----------------------------------------------------------------
  json tensor_output(const std::string& name, const ir::TensorMeta& meta) {
    tensor_values_[name] = tensor_meta_json(meta);
    return named(name);
  }

  // serialize_output: one value under `name`, recorded in its table.
  json output_value(const std::string& name, const ir::ValueInfo& v, const Node* n) {
    if (const auto* t = v.tensor()) return tagged("as_tensor", tensor_output(name, *t));
    if (const auto* s = v.sym_int()) {
      sym_int_values_[name] = sym_int_json(*s);
      return tagged("as_sym_int", as_name(name));
    }
    if (const auto* b = v.sym_bool()) {
      sym_bool_values_[name] = sym_bool_json(*b);
      return tagged("as_sym_bool", as_name(name));
    }
    if (const auto* f = std::get_if<ir::SymFloat>(&v.v)) {
      sym_float_values_[name] = sym_float_json(*f);
      return tagged("as_sym_float", as_name(name));
    }
    if (!v.known()) return tagged("as_none", true);
    fail(n, "a nested value where one tensor or symbolic value was expected");
  }

  // ---- inputs ------------------------------------------------------------------
  json placeholder(const Node* n) {
    if (const auto* t = n->value.tensor()) return tagged("as_tensor", tensor_output(n->name, *t));
    if (const auto* s = n->value.sym_int()) {
      sym_int_values_[n->name] = sym_int_json(*s);
      return tagged("as_sym_int", as_name(n->name));
    }
    // A constant user input (an int, a float, None): torch writes its value.
    if (const ir::InputSpec* spec = gm_ == &ep_.graph_module ? ep_.signature.input_named(n->name) : nullptr;
        spec && spec->arg.type == ir::SpecArgument::Type::Constant)
      return argument(spec->arg.constant, ir::ListKind::Unknown, n);
    if (!n->value.known()) return tagged("as_none", true);
    fail(n, "a graph input that is neither a tensor, a SymInt nor a constant cannot be written");
  }

  // ---- arguments ----------------------------------------------------------------
  std::string tensor_name(const Node* n) const {
    auto it = duplicate_.find(n);
    return it == duplicate_.end() ? n->name : it->second->name;
  }

  json node_argument(const Node* arg, const Node* user) {
    if (arg->op == OpKind::GetAttr) {
      const ir::GraphModule* sub = gm_->submodule(arg->attr);
      if (!sub) fail(user, "get_attr '" + arg->attr + "' names no subgraph");
      GraphWriter inner(ep_, options_, where_ + arg->attr + "/");
      json g = json::object();
      g["name"] = arg->attr;
      g["graph"] = inner.write(*sub);
      return tagged("as_graph", std::move(g));
    }
    if (is_sym_int(arg)) return tagged("as_sym_int", as_name(arg->name));
    if (is_sym_float(arg)) return tagged("as_sym_float", as_name(arg->name));
    if (is_sym_bool(arg)) return tagged("as_sym_bool", as_name(arg->name));
    return tagged("as_tensor", named(tensor_name(arg)));
  }

  static bool all_of(const ArgumentList& l, auto&& pred) {
    for (const auto& a : l.items)
      if (!pred(a)) return false;
    return true;
  }
  template <typename T>
  static bool all_hold(const ArgumentList& l) {
    return all_of(l, [](const Argument& a) { return std::holds_alternative<T>(a.v); });
  }

  // A list of symbolic values of one kind and constants of its type
  // (as_sym_ints: [{"as_name": "sym_size_int"}, {"as_int": 4}]).
  template <typename C>
  static std::optional<json> sym_list(const ArgumentList& l, bool (*is_sym)(const Node*), const char* constant_tag,
                                      const char* tag) {
    if (!all_of(l, [&](const Argument& a) { return std::holds_alternative<C>(a.v) || is_sym(a.node()); }))
      return std::nullopt;
    json out = json::array();
    for (const auto& a : l.items) {
      if (const Node* n = a.node()) out.push_back(as_name(n->name));
      else if constexpr (std::is_same_v<C, double>) out.push_back(tagged(constant_tag, float_value(std::get<C>(a.v))));
      else out.push_back(tagged(constant_tag, std::get<C>(a.v)));
    }
    return tagged(tag, std::move(out));
  }

  // serialize_input: torch decides by the values, the schema only for empty lists.
  json argument(const Argument& a, ir::ListKind list_kind, const Node* user) {
    if (a.is_none()) return tagged("as_none", true);
    if (const Node* n = a.node()) return node_argument(n, user);
    if (const auto* b = std::get_if<bool>(&a.v)) return tagged("as_bool", *b);
    if (const auto* i = std::get_if<int64_t>(&a.v)) return tagged("as_int", *i);
    if (const auto* d = std::get_if<double>(&a.v)) return tagged("as_float", float_value(*d));
    if (const auto* s = std::get_if<std::string>(&a.v)) return tagged("as_string", *s);
    if (const auto* o = std::get_if<ir::OperatorRef>(&a.v)) return tagged("as_operator", o->qualified);
    if (const auto* t = std::get_if<ir::ScalarType>(&a.v)) return tagged("as_scalar_type", static_cast<int>(*t));
    if (const auto* l = std::get_if<ir::Layout>(&a.v)) return tagged("as_layout", static_cast<int>(*l));
    if (const auto* m = std::get_if<ir::MemoryFormat>(&a.v)) return tagged("as_memory_format", static_cast<int>(*m));
    if (const auto* d = std::get_if<ir::Device>(&a.v)) return tagged("as_device", device_json(*d));
    if (const auto* l = a.list()) return list_argument(*l, list_kind, user);
    fail(user, "an argument of an unsupported kind");
  }

  json list_argument(const ArgumentList& l, ir::ListKind list_kind, const Node* user) {
    using K = ir::ListKind;
    if (l.items.empty()) {
      switch (list_kind) {
        case K::Bool: return tagged("as_bools", json::array());
        case K::Int: return tagged("as_ints", json::array());
        case K::Float: return tagged("as_floats", json::array());
        case K::String: return tagged("as_strings", json::array());
        case K::Tensor:
        case K::Unknown: return tagged("as_tensors", json::array());  // torch's default too
      }
    }
    json items = json::array();
    if (all_hold<bool>(l)) {
      for (const auto& a : l.items) items.push_back(std::get<bool>(a.v));
      return tagged("as_bools", std::move(items));
    }
    if (all_hold<int64_t>(l)) {
      for (const auto& a : l.items) items.push_back(std::get<int64_t>(a.v));
      return tagged("as_ints", std::move(items));
    }
    if (all_hold<double>(l)) {
      for (const auto& a : l.items) items.push_back(float_value(std::get<double>(a.v)));
      return tagged("as_floats", std::move(items));
    }
    if (all_hold<std::string>(l)) {
      for (const auto& a : l.items) items.push_back(std::get<std::string>(a.v));
      return tagged("as_strings", std::move(items));
    }
    if (auto j = sym_list<int64_t>(l, is_sym_int, "as_int", "as_sym_ints")) return *j;
    if (auto j = sym_list<double>(l, is_sym_float, "as_float", "as_sym_floats")) return *j;
    if (auto j = sym_list<bool>(l, is_sym_bool, "as_bool", "as_sym_bools")) return *j;
    if (all_of(l, [](const Argument& a) { return a.node() != nullptr; })) {
      for (const auto& a : l.items) items.push_back(named(tensor_name(a.node())));
      return tagged("as_tensors", std::move(items));
    }
    auto list_of_nodes = [](const Argument& a) {
      const auto* inner = a.list();
      return inner && all_of(*inner, [](const Argument& x) { return x.node() != nullptr; });
    };
    if (all_of(l, list_of_nodes)) {
      for (const auto& a : l.items) {
        json inner = json::array();
        for (const auto& x : a.list()->items) inner.push_back(named(tensor_name(x.node())));
        items.push_back(std::move(inner));
      }
      return tagged("as_nested_tensors", std::move(items));
    }
    if (all_of(l, [](const Argument& a) { return a.node() != nullptr || a.is_none(); })) {
      for (const auto& a : l.items)
        items.push_back(a.is_none() ? tagged("as_none", true) : tagged("as_tensor", named(tensor_name(a.node()))));
      return tagged("as_optional_tensors", std::move(items));
    }
    if (all_of(l, [](const Argument& a) { return a.list() && all_hold<int64_t>(*a.list()); })) {
      for (const auto& a : l.items) {
        json inner = json::array();
        for (const auto& x : a.list()->items) inner.push_back(std::get<int64_t>(x.v));
        items.push_back(std::move(inner));
      }
      return tagged("as_int_lists", std::move(items));
    }
    if (all_of(l, [](const Argument& a) { return a.list() && all_hold<double>(*a.list()); })) {
      for (const auto& a : l.items) {
        json inner = json::array();
        for (const auto& x : a.list()->items) inner.push_back(float_value(std::get<double>(x.v)));
        items.push_back(std::move(inner));
      }
      return tagged("as_float_lists", std::move(items));
    }
    fail(user, "a list argument mixing kinds torch cannot write");
  }

  static json named_argument(const std::string& name, json arg, int kind) {
    json j = json::object();
    j["name"] = name;
    j["arg"] = std::move(arg);
    j["kind"] = kind;
    return j;
  }

  // ---- calls -------------------------------------------------------------------
  const ir::OpSignature* signature_of(const Node* n) {
    const std::string key = n->target.schema_name();
    if (auto it = looked_up_.find(key); it != looked_up_.end()) return it->second ? &*it->second : nullptr;
    std::optional<ir::OpSignature> sig;
    if (options_.signatures) sig = options_.signatures(key);
    if (auto it = ep_.file_signatures.find(key); it != ep_.file_signatures.end()) {
      // The file's names win where it gives them: torch.export.load binds by the schema of the
      // process that loads the file, which registered the op as the one that wrote it did (a
      // custom op's C++ registration here may name its arguments otherwise).
      const ir::OpSignature& file = it->second;
      if (!sig) {
        sig = file;
      } else {
        for (size_t i = 0; i < file.arguments.size() && i < sig->arguments.size() && !file.arguments[i].kwarg_only; ++i)
          sig->arguments[i].name = file.arguments[i].name;
      }
    }
    auto& slot = looked_up_[key];
    slot = std::move(sig);
    if (!slot)
      fail(n, n->target.schema_name() + " is not registered in this process and the program's file does not "
                                        "describe it (load the library that defines it)");
    return &*slot;
  }

  // The name of positional argument `i`: from a learnt signature only as far
  // as the file's call passed its arguments by position.
  std::string positional_name(const Node* n, const ir::OpSignature& sig, size_t i) {
    const bool known = i < sig.arguments.size() && (sig.complete || [&] {
                         for (size_t k = 0; k <= i; ++k)
                           if (sig.arguments[k].kwarg_only) return false;
                         return true;
                       }());
    if (!known)
      fail(n, "the name of argument " + std::to_string(i) + " of " + n->target.schema_name() + " is unknown");
    return sig.arguments[i].name;
  }

  static ir::ListKind list_kind_of(const ir::OpSignature& sig, std::string_view name) {
    for (const auto& a : sig.arguments)
      if (a.name == name) return a.list;
    return ir::ListKind::Unknown;
  }

  json op_inputs(const Node* n, const ir::OpSignature& sig) {
    json inputs = json::array();
    std::set<std::string> written;
    auto keyword = [&](const std::string& name) -> const Argument* {
      for (const auto& k : n->kwargs())
        if (k.name == name) return &k.value;
      return nullptr;
    };
    // Schema order, as torch's serialize_inputs walks it.
    for (size_t i = 0; i < std::max(sig.arguments.size(), n->args().size()); ++i) {
      if (i < sig.arguments.size()) {
        const auto& s = sig.arguments[i];
        if (const Argument* kw = keyword(s.name)) {
          inputs.push_back(named_argument(s.name, argument(*kw, s.list, n), kKeyword));
          written.insert(s.name);
          continue;
        }
      }
      if (i < n->args().size()) {
        const std::string name = positional_name(n, sig, i);
        inputs.push_back(named_argument(name, argument(n->args()[i], list_kind_of(sig, name), n), kPositional));
      }
    }
    for (const auto& k : n->kwargs())
      if (!written.count(k.name)) inputs.push_back(named_argument(k.name, argument(k.value, list_kind_of(sig, k.name), n), kKeyword));
    return inputs;
  }

  // serialize_outputs for an op with a schema.
  json op_outputs(const Node* n, const ir::OpSignature& sig) {
    json outs = json::array();
    const auto& returns = sig.returns;
    if (returns.empty()) return outs;
    const ir::ValueTuple* tuple = n->value.tuple();
    if (returns.size() == 1 && returns[0] == ir::ReturnKind::TensorList) {
      json list = json::array();
      if (tuple)
        for (size_t i = 0; i < tuple->size(); ++i)
          if (const auto* t = (*tuple)[i].tensor()) list.push_back(tensor_output(output_name_at(n, int64_t(i)), *t));
      outs.push_back(tagged("as_tensors", std::move(list)));
      return outs;
    }
    if (returns.size() == 1 && !tuple) {
      outs.push_back(output_value(n->name, n->value, n));
      return outs;
    }
    if (!tuple) fail(n, "the op returns " + std::to_string(returns.size()) + " values but the node holds one");
    for (size_t i = 0; i < tuple->size(); ++i) {
      const ir::ValueInfo& v = (*tuple)[i];
      if (const ir::ValueTuple* inner = v.tuple()) {  // a Tensor[] among the returns
        const Node* user = getitem_at(n, int64_t(i));
        json list = json::array();
        for (size_t k = 0; k < inner->size(); ++k) {
          const auto* t = (*inner)[k].tensor();
          if (!t) continue;
          const std::string name = user ? output_name_at(user, int64_t(k))
                                        : n->name + "_unused_" + std::to_string(i) + "_" + std::to_string(k);
          list.push_back(tensor_output(name, *t));
        }
        outs.push_back(tagged("as_tensors", std::move(list)));
      } else if (!v.known()) {
        outs.push_back(tagged("as_none", true));
      } else {
        outs.push_back(output_value(output_name_at(n, int64_t(i)), v, n));
      }
    }
    return outs;
  }

  // serialize_hoo_outputs: cond/map and other callables without a schema.
  json hop_outputs(const Node* n) {
    json outs = json::array();
    const ir::ValueTuple* tuple = n->value.tuple();
    if (!tuple) {
      outs.push_back(output_value(n->name, n->value, n));
      return outs;
    }
    for (size_t i = 0; i < tuple->size(); ++i) {
      const ir::ValueInfo& v = (*tuple)[i];
      const Node* user = getitem_at(n, int64_t(i));
      if (const ir::ValueTuple* inner = v.tuple()) {
        json list = json::array();
        for (size_t k = 0; k < inner->size(); ++k) {
          const auto* t = (*inner)[k].tensor();
          if (!t) fail(n, "a list output holding something other than tensors");
          const std::string name = user ? output_name_at(user, int64_t(k))
                                        : n->name + "_unused_" + std::to_string(i) + "_" + std::to_string(k);
          list.push_back(tensor_output(name, *t));
        }
        outs.push_back(tagged("as_tensors", std::move(list)));
      } else {
        outs.push_back(output_value(user ? user->name : n->name + "_unused_" + std::to_string(i), v, n));
      }
    }
    return outs;
  }

  json call(const Node* n) {
    json node = json::object();
    node["target"] = n->target.qualified();
    json inputs = json::array(), outputs;
    json is_hop_single = nullptr;
    const bool sym_op = is_python_sym_op(n->target) || is_sym_value(n);
    if (n->target.is_torch_op() && !sym_op) {
      const ir::OpSignature& sig = *signature_of(n);
      inputs = op_inputs(n, sig);
      outputs = op_outputs(n, sig);
    } else if (sym_op) {
      // Named by the schema (an aten op returning a SymInt), else a, b, c.
      const ir::OpSignature* sig = n->target.is_torch_op() ? signature_of(n) : nullptr;
      if (!n->kwargs().empty()) fail(n, "a symbolic-value op with keyword arguments");
      for (size_t i = 0; i < n->args().size(); ++i) {
        const std::string name = sig ? positional_name(n, *sig, i) : std::string(1, char('a' + std::min<size_t>(i, 25)));
        inputs.push_back(named_argument(name, argument(n->args()[i], ir::ListKind::Unknown, n), kPositional));
      }
      outputs = json::array({output_value(n->name, n->value, n)});
    } else {
      for (const auto& a : n->args()) inputs.push_back(named_argument("", argument(a, ir::ListKind::Unknown, n), kPositional));
      for (const auto& k : n->kwargs()) inputs.push_back(named_argument(k.name, argument(k.value, ir::ListKind::Unknown, n), kKeyword));
      outputs = hop_outputs(n);
      if (n->target.is_higher_order()) is_hop_single = n->value.tensor() != nullptr;
    }
    node["inputs"] = std::move(inputs);
    node["outputs"] = std::move(outputs);
    node["metadata"] = metadata(n->meta);
    node["is_hop_single_tensor_return"] = is_hop_single;
    node["name"] = n->name;
    return node;
  }

  // torch splits "key,path,type" at commas outside [] and (): a C++ type
  // ("MLinear<3, 4>", as the tracer names a template) keeps its parts apart
  // when its angle brackets become square ones.
  static std::string splittable(std::string field) {
    int depth = 0;
    bool bare_comma = false;
    for (char c : field) {
      if (c == '[' || c == '(') ++depth;
      else if (c == ']' || c == ')') --depth;
      else if (c == ',' && depth == 0) bare_comma = true;
    }
    if (bare_comma)
      for (char& c : field) c = c == '<' ? '[' : c == '>' ? ']' : c;
    return field;
  }

  static json metadata(const ir::NodeMetadata& m) {
    json j = json::object();
    if (!m.stack_trace.empty()) j["stack_trace"] = m.stack_trace;
    if (!m.nn_module_stack.empty()) {
      std::string s;
      for (const auto& scope : m.nn_module_stack)
        s += (s.empty() ? "" : ";") + scope.key + "," + splittable(scope.path) + "," + splittable(scope.type);
      j["nn_module_stack"] = s;
    }
    if (!m.source_fn_stack.empty()) {
      std::string s;
      for (const auto& [name, fn] : m.source_fn_stack) s += (s.empty() ? "" : ";") + name + "," + fn;
      j["source_fn_stack"] = s;
    }
    if (!m.torch_fn.empty()) j["torch_fn"] = m.torch_fn;
    for (const auto& [key, text] : m.custom) j[key] = text;
    return j;
  }

  const ir::ExportedProgram& ep_;
  const WriteOptions& options_;
  std::string where_;
  const ir::GraphModule* gm_ = nullptr;
  std::map<const Node*, std::map<int64_t, const Node*>> getitems_;
  std::map<const Node*, const Node*> duplicate_;
  std::map<std::string, std::optional<ir::OpSignature>> looked_up_;
  json tensor_values_ = json::object(), sym_int_values_ = json::object(), sym_bool_values_ = json::object(),
       sym_float_values_ = json::object();
};

// ---- signature, module call graph, range constraints --------------------------
json spec_argument(const ir::SpecArgument& a) {
  using T = ir::SpecArgument::Type;
  switch (a.type) {
    case T::Tensor: return tagged("as_tensor", named(a.name));
    case T::SymInt: return tagged("as_sym_int", as_name(a.name));
    case T::SymFloat: return tagged("as_sym_float", as_name(a.name));
    case T::SymBool: return tagged("as_sym_bool", as_name(a.name));
    case T::Token: return tagged("as_token", named(a.name));
    case T::CustomObj:
    case T::Constant: break;
  }
  throw Pt2WriteError("signature argument '" + a.name + "' cannot be written");
}

json constant_json(const Argument& c, const std::string& what) {
  if (c.is_none()) return tagged("as_none", true);
  if (const auto* b = std::get_if<bool>(&c.v)) return tagged("as_bool", *b);
  if (const auto* i = std::get_if<int64_t>(&c.v)) return tagged("as_int", *i);
  if (const auto* d = std::get_if<double>(&c.v)) return tagged("as_float", float_value(*d));
  if (const auto* s = std::get_if<std::string>(&c.v)) return tagged("as_string", *s);
  throw Pt2WriteError(what + ": a constant of a kind torch's schema cannot hold");
}

json input_spec(const ir::InputSpec& s) {
  using K = ir::InputKind;
  const std::string target = s.target.value_or("");
  json v = json::object();
  switch (s.kind) {
    case K::UserInput:
      if (s.arg.type == ir::SpecArgument::Type::Constant) {
        v["name"] = s.arg.name;
        v["value"] = constant_json(s.arg.constant, "input '" + s.arg.name + "'");
        return tagged("constant_input", std::move(v));
      }
      v["arg"] = spec_argument(s.arg);
      return tagged("user_input", std::move(v));
    case K::Parameter:
      v["arg"] = named(s.arg.name);
      v["parameter_name"] = target;
      return tagged("parameter", std::move(v));
    case K::Buffer:
      v["arg"] = named(s.arg.name);
      v["buffer_name"] = target;
      v["persistent"] = s.persistent.value_or(true);
      return tagged("buffer", std::move(v));
    case K::ConstantTensor:
      v["arg"] = named(s.arg.name);
      v["tensor_constant_name"] = target;
      return tagged("tensor_constant", std::move(v));
    case K::Token:
      v["arg"] = named(s.arg.name);
      return tagged("token", std::move(v));
    case K::CustomObj: break;
  }
  throw Pt2WriteError("input '" + s.arg.name + "': custom objects (torchbind) cannot be written");
}

json output_spec(const ir::OutputSpec& s) {
  using K = ir::OutputKind;
  const std::string target = s.target.value_or("");
  json v = json::object();
  auto with = [&](const char* tag, const char* target_field) {
    v["arg"] = named(s.arg.name);
    if (target_field) v[target_field] = target;
    return tagged(tag, std::move(v));
  };
  switch (s.kind) {
    case K::UserOutput:
      v["arg"] = s.arg.type == ir::SpecArgument::Type::Constant
                     ? constant_json(s.arg.constant, "output '" + s.arg.name + "'")
                     : spec_argument(s.arg);
      return tagged("user_output", std::move(v));
    case K::LossOutput: return with("loss_output", nullptr);
    case K::BufferMutation: return with("buffer_mutation", "buffer_name");
    case K::GradientToParameter: return with("gradient_to_parameter", "parameter_name");
    case K::GradientToUserInput: return with("gradient_to_user_input", "user_input_name");
    case K::UserInputMutation: return with("user_input_mutation", "user_input_name");
    case K::Token: return with("token", nullptr);
    case K::ParameterMutation: return with("parameter_mutation", "parameter_name");
  }
  throw Pt2WriteError("output '" + s.arg.name + "' cannot be written");
}

json module_call_graph(const ir::ExportedProgram& ep) {
  json out = json::array();
  std::vector<ir::ModuleCallEntry> entries = ep.module_call_graph;
  if (entries.empty()) entries.push_back({"", true, {}, "", ""});
  for (const auto& e : entries) {
    json entry = json::object();
    entry["fqn"] = e.fqn;
    if (!e.has_signature) {
      entry["signature"] = nullptr;
    } else {
      // A program that never had pytree specs (traced before they were kept):
      // a flat tuple of its user inputs, and of its user outputs.
      const bool root = e.fqn.empty();
      json s = json::object();
      s["inputs"] = json::array();
      s["outputs"] = json::array();
      s["in_spec"] = !e.in_spec.empty() || !root
                         ? e.in_spec
                         : ir::treespec_dumps(ir::PyTreeSpec::positional_args(ep.signature.user_inputs().size()));
      s["out_spec"] = !e.out_spec.empty() || !root
                          ? e.out_spec
                          : ir::treespec_dumps(ir::PyTreeSpec::leaves(ep.signature.user_outputs().size()));
      if (e.forward_arg_names.empty()) {
        s["forward_arg_names"] = nullptr;
      } else {
        s["forward_arg_names"] = e.forward_arg_names;
      }
      entry["signature"] = std::move(s);
    }
    out.push_back(std::move(entry));
  }
  return out;
}

json range_constraints(const ir::RangeConstraints& rc) {
  json out = json::object();
  for (const auto& [key, range] : rc.entries) {
    json r = json::object();
    r["min_val"] = range.lower.as_integer() ? json(*range.lower.as_integer()) : json(nullptr);
    r["max_val"] = range.upper.as_integer() ? json(*range.upper.as_integer()) : json(nullptr);
    out[key.str()] = std::move(r);
  }
  return out;
}

}  // namespace

std::string program_json(const ir::ExportedProgram& ep, const WriteOptions& options) {
  json signature = json::object();
  signature["input_specs"] = json::array();
  for (const auto& s : ep.signature.inputs) signature["input_specs"].push_back(input_spec(s));
  signature["output_specs"] = json::array();
  for (const auto& s : ep.signature.outputs) signature["output_specs"].push_back(output_spec(s));

  json gm = json::object();
  gm["graph"] = GraphWriter(ep, options, "").write(ep.graph_module);
  gm["signature"] = std::move(signature);
  gm["module_call_graph"] = module_call_graph(ep);
  gm["metadata"] = json::object();
  gm["treespec_namedtuple_fields"] = json::object();

  json root = json::object();
  root["graph_module"] = std::move(gm);
  root["opset_version"] = json{{"aten", kOpsetAten}};
  root["range_constraints"] = range_constraints(ep.range_constraints);
  root["schema_version"] = json{{"major", kWrittenSchemaMajor}, {"minor", kWrittenSchemaMinor}};
  root["verifiers"] = ep.verifiers;
  root["torch_version"] = options.torch_version.empty() ? std::string(EXPORTLENS_TORCH_VERSION) : options.torch_version;
  root["guards_code"] = ep.guards_code;
  return root.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace exportlens::serde
