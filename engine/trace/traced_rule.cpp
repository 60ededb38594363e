#include "engine/trace/traced_rule.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/zeros.h>

#include <functional>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include "engine/passes/rewriter.h"
#include "engine/runtime/torch_types.h"
#include "engine/trace/export.h"

namespace exportlens::trace {

namespace {

using passes::DecompositionError;
/// A graph node's value as the rule sees it (an example tensor, a fake, an int).
using NodeValue = std::function<c10::IValue(ir::Node*)>;

std::optional<c10::OperatorHandle> find_operator(const std::string& key) {
  const std::string name = passes::op_target(key).schema_name();  // "aten::add.Tensor"
  if (name.empty()) return std::nullopt;
  const auto dot = name.find('.', name.find("::"));
  const c10::OperatorName op{name.substr(0, dot), dot == std::string::npos ? "" : name.substr(dot + 1)};
  return c10::Dispatcher::singleton().findSchema(op);
}

c10::IValue list_of(const ir::ArgumentList& l, const c10::TypePtr& elem, const NodeValue& value_of);

/// One argument as the schema types it (lists typed, enums as LibTorch's).
c10::IValue convert(const ir::Argument& a, const c10::TypePtr& type, const NodeValue& value_of) {
  if (a.is_none()) return {};
  const c10::TypePtr t =
      type->kind() == c10::TypeKind::OptionalType ? type->castRaw<c10::OptionalType>()->getElementType() : type;
  if (ir::Node* n = a.node()) return value_of(n);
  if (const auto* l = a.list())
    return list_of(*l, t->kind() == c10::TypeKind::ListType ? t->castRaw<c10::ListType>()->getElementType()
                                                           : c10::AnyType::get(),
                   value_of);
  return std::visit(
      [&](const auto& v) -> c10::IValue {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, ir::ScalarType> || std::is_same_v<T, ir::Layout> ||
                      std::is_same_v<T, ir::MemoryFormat> || std::is_same_v<T, ir::Device>)
          return c10::IValue(runtime::to_torch(v));
        else if constexpr (std::is_same_v<T, int64_t>)
          return t->kind() == c10::TypeKind::FloatType ? c10::IValue(double(v)) : c10::IValue(v);
        else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, std::string>)
          return c10::IValue(v);
        else if constexpr (std::is_same_v<T, ir::OperatorRef>)
          return c10::IValue(v.qualified);
        else
          return {};  // None, Node*, ArgumentList: handled above
      },
      a.v);
}

c10::IValue list_of(const ir::ArgumentList& l, const c10::TypePtr& elem, const NodeValue& value_of) {
  const auto each = [&](auto push) {
    for (const auto& item : l.items) push(convert(item, elem, value_of));
  };
  switch (elem->kind()) {
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType: {
      c10::List<int64_t> out;
      each([&](const c10::IValue& v) { out.push_back(v.toInt()); });
      return out;
    }
    case c10::TypeKind::FloatType: {
      c10::List<double> out;
      each([&](const c10::IValue& v) { out.push_back(v.isInt() ? double(v.toInt()) : v.toDouble()); });
      return out;
    }
    case c10::TypeKind::BoolType: {
      c10::List<bool> out;
      each([&](const c10::IValue& v) { out.push_back(v.toBool()); });
      return out;
    }
    case c10::TypeKind::TensorType: {
      c10::List<at::Tensor> out;
      each([&](const c10::IValue& v) { out.push_back(v.toTensor()); });
      return out;
    }
    case c10::TypeKind::OptionalType: {
      c10::List<std::optional<at::Tensor>> out;
      each([&](const c10::IValue& v) {
        out.push_back(v.isNone() ? std::nullopt : std::optional<at::Tensor>(v.toTensor()));
      });
      return out;
    }
    default: {
      c10::impl::GenericList out(c10::AnyType::get());
      each([&](const c10::IValue& v) { out.push_back(v); });
      return out;
    }
  }
}

/// The call's arguments by schema position, defaults filled in.
sdk::OpArgs op_args(const passes::OpCall& call, const c10::FunctionSchema& schema, const NodeValue& value_of) {
  sdk::OpArgs out;
  out.op = call.key();
  const auto& params = schema.arguments();
  for (size_t i = 0; i < params.size(); ++i) {
    const auto& p = params[i];
    const ir::Argument* given = call.get(p.kwarg_only() ? call.args.size() + i : i, p.name());
    if (given) {
      out.values.push_back(convert(*given, p.type(), value_of));
    } else if (p.default_value()) {
      out.values.push_back(*p.default_value());
    } else {
      call.fail("missing argument '" + p.name() + "'");
    }
  }
  return out;
}

/// A symbolic int argument at its example value (rules are traced static).
c10::IValue static_int(const ir::Node* n, const passes::OpCall& call) {
  const ir::SymInt* s = n->value.sym_int();
  if (!s->hint) call.fail("argument '" + n->name + "' is an unbacked symbol; a traced rule needs example values");
  return *s->hint;
}

at::Tensor example_tensor(const ir::TensorMeta& m, const ir::Node* n, const passes::OpCall& call) {
  std::vector<int64_t> sizes;
  for (const auto& d : m.sizes) {
    if (!d.hint) call.fail("'" + n->name + "' has an unbacked size; a traced rule needs example sizes");
    sizes.push_back(*d.hint);
  }
  return at::zeros(sizes, at::TensorOptions().dtype(runtime::to_torch(m.dtype)));
}

/// Maps the traced graph's values to the builder's arguments.
class Replay {
 public:
  Replay(passes::Rewriter& b, std::string key) : b_(b), key_(std::move(key)) {}

  ir::Argument run(const ir::ExportedProgram& ep, const std::vector<ir::Node*>& inputs) {
    const auto placeholders = ep.graph().placeholders();
    for (size_t i = 0, next = 0; i < placeholders.size(); ++i) {
      const auto& spec = ep.signature.inputs.at(i);
      if (spec.kind != ir::InputKind::UserInput)
        fail("its rule reads a tensor that is not an argument ('" + spec.target.value_or(placeholders[i]->name) +
             "'); compute it from the arguments");
      env_[placeholders[i]] = inputs.at(next++);
    }
    for (const ir::Node* n : ep.graph().nodes()) {
      if (n->op == ir::OpKind::Placeholder) continue;
      if (n->op == ir::OpKind::Output) return output(n->args().at(0));
      if (n->op != ir::OpKind::CallFunction) fail("its rule traced '" + n->name + "' (control flow is not supported)");
      env_[n] = call(*n);
    }
    fail("its rule's trace has no output");
  }

 private:
  ir::Argument call(const ir::Node& n) {
    if (n.target.is_getitem()) {
      const ir::ArgumentList* parts = env_.at(n.args().at(0).node()).list();
      if (!parts) fail("getitem of a single value in its rule's trace");
      return parts->items.at(size_t(std::get<int64_t>(n.args().at(1).v)));
    }
    if (!n.target.is_torch_op())
      fail("its rule traced '" + n.target.qualified() + "' (symbolic-size arithmetic is not supported)");
    std::vector<ir::Argument> args;
    for (const auto& a : n.args()) args.push_back(map(a));
    std::vector<ir::NamedArgument> kwargs = n.kwargs();
    for (auto& k : kwargs) k.value = map(k.value);
    return b_.call(passes::op_key(n.target), std::move(args), std::move(kwargs));
  }

  ir::Argument map(const ir::Argument& a) const {
    if (ir::Node* n = a.node()) return env_.at(n);
    if (const auto* l = a.list()) {
      ir::ArgumentList out{{}, l->is_tuple};
      for (const auto& item : l->items) out.items.push_back(map(item));
      return out;
    }
    return a;
  }

  /// One result as itself, several as the tuple a multi-output op returns.
  ir::Argument output(const ir::Argument& out) const {
    const ir::ArgumentList* l = out.list();
    if (l && l->items.size() == 1) return map(l->items[0]);
    return map(out);
  }

  [[noreturn]] void fail(const std::string& what) const { throw DecompositionError(key_ + ": " + what); }

  passes::Rewriter& b_;
  std::string key_;
  std::unordered_map<const ir::Node*, ir::Argument> env_;
};

ir::Argument lower_by_tracing(const sdk::RuleFn& fn, passes::Rewriter& b, const passes::OpCall& call) {
  const auto op = find_operator(call.key());
  if (!op) call.fail("no such operator in LibTorch");
  const c10::FunctionSchema& schema = op->schema();

  // The call's tensors become the trace's inputs, one per distinct node.
  std::vector<ir::Node*> tensor_nodes;
  std::vector<c10::IValue> examples;
  std::unordered_map<const ir::Node*, size_t> index;
  const NodeValue collect = [&](ir::Node* n) -> c10::IValue {
    if (n->value.sym_int()) return static_int(n, call);
    auto [it, fresh] = index.emplace(n, tensor_nodes.size());
    if (fresh) {
      tensor_nodes.push_back(n);
      examples.push_back(example_tensor(b.meta(n), n, call));
    }
    return examples[it->second];
  };
  op_args(call, schema, collect);
  std::vector<std::string> names;
  for (size_t i = 0; i < examples.size(); ++i) names.push_back("arg" + std::to_string(i));

  const ForwardFn forward = [&](const std::vector<c10::IValue>& fakes) {
    return fn(op_args(call, schema, [&](ir::Node* n) -> c10::IValue {
      return n->value.sym_int() ? static_int(n, call) : fakes.at(index.at(n));
    }));
  };
  ExportOptions options;
  options.locations = false;  // the lowered nodes keep the original node's location
  ExportResult r;
  try {
    r = export_function(forward, names, examples, "", options);
  } catch (const std::exception& e) {
    call.fail(std::string("tracing its rule failed: ") + e.what());
  }
  if (!r.ok()) call.fail("tracing its rule failed: " + r.error_type + ": " + r.report.message);
  return Replay(b, call.key()).run(*r.program, tensor_nodes);
}

}  // namespace

passes::DecompositionFn traced_rule(sdk::RuleFn fn) {
  return [fn = std::move(fn)](passes::Rewriter& b, const passes::OpCall& call) {
    return lower_by_tracing(fn, b, call);
  };
}

passes::DecompositionTable traced_table(const sdk::DecompositionDef& def, const std::string& origin) {
  if (def.name.empty()) throw std::invalid_argument(origin + ": a decomposition table has no name");
  passes::DecompositionTable t = passes::decomposition_table(def.base.empty() ? "core" : def.base);
  t.set_name(def.name);
  t.set_description(def.description);
  for (const auto& r : def.rules) {
    const std::string where = origin + ": table '" + def.name + "', rule for '" + r.op + "'";
    if (!find_operator(r.op))
      throw std::invalid_argument(where + ": no such operator (op keys look like aten.conv2d.default)");
    if (!r.fn) throw std::invalid_argument(where + ": no function");
    t.set({r.op, "custom", r.reference.empty() ? origin : r.reference, traced_rule(r.fn)});
  }
  return t;
}

std::vector<std::string> register_traced_tables(const std::vector<sdk::DecompositionDef>& defs,
                                                const std::string& origin) {
  std::vector<std::string> names;
  for (const auto& def : defs) {
    passes::register_decomposition_table(traced_table(def, origin));
    names.push_back(def.name);
  }
  return names;
}

}  // namespace exportlens::trace
