#include "engine/runtime/interpreter.h"
#include "engine/ir/argument_lookup.h"

#include <ATen/autocast_mode.h>
#include <ATen/core/List.h>
#include <c10/core/GradMode.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/stack.h>
#include <c10/core/InferenceMode.h>
#include <c10/core/Scalar.h>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "engine/runtime/declared_values.h"
#include "engine/runtime/op_safety.h"
#include "engine/runtime/program_runner.h"
#include "engine/runtime/python_defined_ops.h"
#include "engine/runtime/run_memory.h"
#include "engine/runtime/torch_types.h"

namespace exportlens::runtime {
namespace {

using c10::IValue;
using ir::Argument;
using ir::Node;
using ir::OpKind;

std::optional<c10::OperatorHandle> find_op(const ir::Target& t) {
  ensure_python_defined_ops();
  const std::string ns_name = t.op_namespace() + "::" + t.op_name();
  const std::string overload = t.overload() == "default" ? "" : t.overload();
  return c10::Dispatcher::singleton().findSchema({ns_name, overload});
}

// Symbolic ints are sizes computed from the file: overflow and division by
// zero are errors of the node that computes them, not wraparound.
class ArithmeticError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string node_context(const Node* n) { return "node '" + n->name + "' (" + n->target.qualified() + ")"; }

/// The op a node calls: its target, or the op auto_functionalized_v2 wraps (its first operand).
std::optional<ir::Target> called_op(const Node* n) {
  if (n->target.is_torch_op()) return n->target;
  if (n->target.is_higher_order() && n->target.op_name() == "auto_functionalized_v2" && !n->args().empty())
    if (const auto* op = std::get_if<ir::OperatorRef>(&n->args()[0].v)) return ir::Target(op->qualified);
  return std::nullopt;
}

// Python's integer floor division and modulo (sym ops follow Python).
int64_t py_floordiv(int64_t a, int64_t b) {
  if (b == 0) throw ArithmeticError("integer division by zero");
  if (a == std::numeric_limits<int64_t>::min() && b == -1) throw ArithmeticError("integer overflow in floor division");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t py_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;  // also for INT64_MIN, whose quotient would overflow
  return a - py_floordiv(a, b) * b;
}

int64_t add_checked(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw ArithmeticError("integer overflow in add");
  return r;
}
int64_t sub_checked(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) throw ArithmeticError("integer overflow in sub");
  return r;
}
int64_t mul_checked(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw ArithmeticError("integer overflow in mul");
  return r;
}
int64_t pow_checked(int64_t base, int64_t exp) {
  if (base == 0) return exp == 0 ? 1 : 0;
  if (base == 1) return 1;
  if (base == -1) return exp % 2 ? -1 : 1;
  int64_t r = 1;
  for (; exp > 0; --exp) r = mul_checked(r, base);  // |base| >= 2 overflows within 63 steps
  return r;
}
// double -> int64 only when it fits (the conversion is undefined otherwise).
int64_t to_int(double v) {
  if (!(v >= -9.2233720368547758e18 && v < 9.2233720368547758e18)) throw ArithmeticError("value out of the int64 range");
  return static_cast<int64_t>(v);
}

// The symbolic-int / boolean operators a graph calls ("_operator.mul",
// "torch.sym_max", ...), by the callee's last name; resolved once per graph.
enum class SymOp { Mul, Add, Sub, FloorDiv, Mod, TrueDiv, Pow, Neg, Pos, Eq, Ne, Lt, Le, Gt, Ge, And, Or, Not, Max, Min,
                   Float, Trunc, Sqrt, Ite };

std::optional<SymOp> sym_op_named(const std::string& fn) {
  static const std::unordered_map<std::string, SymOp> kOps = {
      {"mul", SymOp::Mul},       {"add", SymOp::Add},         {"sub", SymOp::Sub},       {"floordiv", SymOp::FloorDiv},
      {"mod", SymOp::Mod},       {"truediv", SymOp::TrueDiv}, {"pow", SymOp::Pow},       {"neg", SymOp::Neg},
      {"pos", SymOp::Pos},       {"eq", SymOp::Eq},           {"ne", SymOp::Ne},         {"lt", SymOp::Lt},
      {"le", SymOp::Le},         {"gt", SymOp::Gt},           {"ge", SymOp::Ge},         {"and_", SymOp::And},
      {"or_", SymOp::Or},        {"sym_not", SymOp::Not},     {"not_", SymOp::Not},      {"sym_max", SymOp::Max},
      {"sym_min", SymOp::Min},   {"sym_float", SymOp::Float}, {"sym_int", SymOp::Trunc}, {"trunc", SymOp::Trunc},
      {"sym_sqrt", SymOp::Sqrt}, {"sym_ite", SymOp::Ite}};
  auto it = kOps.find(fn);
  return it == kOps.end() ? std::nullopt : std::optional(it->second);
}

IValue eval_sym_op(SymOp op, const std::vector<IValue>& a) {
  auto num = [&](size_t i) -> double { return a.at(i).isInt() ? double(a[i].toInt()) : a.at(i).toDouble(); };
  auto all_int = [&] {
    for (const auto& v : a)
      if (!v.isInt() && !v.isBool()) return false;
    return true;
  };
  auto i = [&](size_t k) { return a.at(k).isBool() ? int64_t(a[k].toBool()) : a.at(k).toInt(); };
  switch (op) {
    case SymOp::Mul: return all_int() ? IValue(mul_checked(i(0), i(1))) : IValue(num(0) * num(1));
    case SymOp::Add: return all_int() ? IValue(add_checked(i(0), i(1))) : IValue(num(0) + num(1));
    case SymOp::Sub: return all_int() ? IValue(sub_checked(i(0), i(1))) : IValue(num(0) - num(1));
    case SymOp::FloorDiv: return all_int() ? IValue(py_floordiv(i(0), i(1))) : IValue(std::floor(num(0) / num(1)));
    case SymOp::Mod: return all_int() ? IValue(py_mod(i(0), i(1))) : IValue(std::fmod(num(0), num(1)));
    case SymOp::TrueDiv: return IValue(num(0) / num(1));
    case SymOp::Pow: return all_int() && i(1) >= 0 ? IValue(pow_checked(i(0), i(1))) : IValue(std::pow(num(0), num(1)));
    case SymOp::Neg: return all_int() ? IValue(sub_checked(0, i(0))) : IValue(-num(0));
    case SymOp::Pos: return a.at(0);
    case SymOp::Eq: return IValue(num(0) == num(1));
    case SymOp::Ne: return IValue(num(0) != num(1));
    case SymOp::Lt: return IValue(num(0) < num(1));
    case SymOp::Le: return IValue(num(0) <= num(1));
    case SymOp::Gt: return IValue(num(0) > num(1));
    case SymOp::Ge: return IValue(num(0) >= num(1));
    case SymOp::And: return IValue(bool(i(0)) && bool(i(1)));
    case SymOp::Or: return IValue(bool(i(0)) || bool(i(1)));
    case SymOp::Not: return IValue(!bool(i(0)));
    case SymOp::Max: return all_int() ? IValue(std::max(i(0), i(1))) : IValue(std::max(num(0), num(1)));
    case SymOp::Min: return all_int() ? IValue(std::min(i(0), i(1))) : IValue(std::min(num(0), num(1)));
    case SymOp::Float: return IValue(num(0));
    case SymOp::Trunc: return IValue(to_int(std::trunc(num(0))));
    case SymOp::Sqrt: return IValue(std::sqrt(num(0)));
    case SymOp::Ite: return a.at(0).toBool() ? a.at(1) : a.at(2);
  }
  return IValue();
}

/// How the interpreter runs a call_function node, decided once per graph:
/// the kind of call and, for a symbolic operator, which one.
enum class HandlerKind {
  TorchOp, Getitem, SymOp, Cond, Map, WhileLoop, Scan, SetGradEnabled, Autocast, AutoFunctionalized, Unsupported
};
struct Handler {
  HandlerKind kind = HandlerKind::Unsupported;
  SymOp sym = SymOp::Add;  // kind SymOp only
};

Handler handler_for(const ir::Target& t) {
  if (t.is_getitem()) return {HandlerKind::Getitem};
  if (t.is_torch_op()) return {HandlerKind::TorchOp};
  if (t.is_higher_order()) {
    static const std::unordered_map<std::string, HandlerKind> kHops = {
        {"cond", HandlerKind::Cond},           {"map_impl", HandlerKind::Map},
        {"while_loop", HandlerKind::WhileLoop}, {"scan", HandlerKind::Scan},
        {"wrap_with_set_grad_enabled", HandlerKind::SetGradEnabled}, {"wrap_with_autocast", HandlerKind::Autocast},
        {"auto_functionalized_v2", HandlerKind::AutoFunctionalized}};
    auto it = kHops.find(t.op_name());
    return {it == kHops.end() ? HandlerKind::Unsupported : it->second};
  }
  if (auto op = sym_op_named(t.op_name())) return {HandlerKind::SymOp, *op};
  return {};
}

// A Python number where the schema wants a Tensor (add.Tensor(y, 2)): torch
// wraps it as a 0-dim "wrapped number" tensor, which type promotion ignores.
IValue wrapped_number(const IValue& v) {
  at::Tensor t = v.isBool()  ? at::scalar_tensor(v.toBool(), at::kBool)
                 : v.isInt() ? at::scalar_tensor(v.toInt(), at::kLong)
                             : at::scalar_tensor(v.toDouble(), at::kDouble);
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

// Several observers of one run: each begins in order and ends in reverse.

// One graph (top level or a branch) with its resolved ops.
}  // namespace

class ObserverChain final : public NodeObserver {
 public:
  void add(NodeObserver* o) {
    if (o) observers_.push_back(o);
  }
  const std::vector<NodeObserver*>& members() const { return observers_; }
  void node_begin(const Node& n) override {
    for (auto* o : observers_) o->node_begin(n);
  }
  void node_end(const Node& n, const IValue& v) override {
    for (auto it = observers_.rbegin(); it != observers_.rend(); ++it) (*it)->node_end(n, v);
  }
  void input_bound(const Node& n, const IValue& v) override {
    for (auto* o : observers_) o->input_bound(n, v);
  }
  bool wants_live_values() const override {
    for (auto* o : observers_)
      if (o->wants_live_values()) return true;
    return false;
  }
  void live_values(const Node& n, const std::vector<IValue>& values) override {
    for (auto* o : observers_)
      if (o->wants_live_values()) o->live_values(n, values);
  }

 private:
  std::vector<NodeObserver*> observers_;
};


struct GraphRunner {
  const ir::GraphModule& gm;
  c10::Device device;
  std::vector<Node*> order;  // the graph's nodes, walked once here rather than per run
  // By node index: how a call runs, the resolved op, and the values whose
  // last reader the node is.
  std::vector<Handler> handlers;
  std::vector<std::optional<c10::OperatorHandle>> ops;
  std::vector<std::vector<int>> frees;
  std::map<std::string, std::unique_ptr<GraphRunner>> subgraphs;
  std::vector<std::string> missing;     // ops this process does not have
  struct UnsafeCall {
    std::string where;  // "node 'x'", "true_graph_0/node 'x'"
    ir::Target target;
    std::string reason;
  };
  std::vector<UnsafeCall> unsafe;  // ops that do more than compute (op_safety.h)

  GraphRunner(const ir::GraphModule& g, c10::Device dev) : gm(g), device(dev), order(g.graph.nodes()) {
    const auto& nodes = order;
    handlers.resize(nodes.size());
    ops.resize(nodes.size());
    frees.resize(nodes.size());
    std::vector<int> last_use(nodes.size(), -1);  // the last node reading each value
    for (const Node* n : nodes) {
      if (n->op == OpKind::CallFunction) handlers[n->index()] = handler_for(n->target);
      if (const auto target = n->op == OpKind::CallFunction ? called_op(n) : std::nullopt) {
        if (auto op = find_op(*target)) {
          ops[n->index()] = *op;
          if (auto why = unsafe_reason(op->schema())) unsafe.push_back({"node '" + n->name + "'", *target, *why});
        } else {
          missing.push_back(target->schema_name() + " (node '" + n->name + "')");
        }
      }
      n->for_each_input([&](const Node* in) { last_use[in->index()] = n->index(); });
    }
    for (size_t v = 0; v < last_use.size(); ++v)
      if (last_use[v] >= 0) frees[last_use[v]].push_back(static_cast<int>(v));
    for (const auto& [name, sub] : gm.submodules) {
      auto runner = std::make_unique<GraphRunner>(*sub, dev);
      for (const auto& m : runner->missing) missing.push_back(name + "/" + m);
      for (const auto& u : runner->unsafe) unsafe.push_back({name + "/" + u.where, u.target, u.reason});
      subgraphs.emplace(name, std::move(runner));
    }
  }

  struct Env {
    std::vector<IValue> values;
    NodeObserver* nested = nullptr;  // the observers that see the subgraphs this run enters
    /// The run's cancel token, checked between the nodes of the subgraphs it
    /// enters too: a long while_loop or scan stops at its next node.
    const CancelToken* cancel = nullptr;
    /// Values given from outside (RunStepper::evaluate: a node fed another run's inputs), looked up first.
    /// (A node reads a few values: a list searched in order beats a hash.)
    const std::vector<std::pair<const Node*, IValue>>* given = nullptr;
    const IValue& get(const Node* n) const {
      if (given)
        for (const auto& [node, value] : *given)
          if (node == n) return value;
      return values.at(n->index());
    }
  };

  // --- argument conversion, guided by the op's schema -----------------------
  IValue convert_plain(const Argument& a, const Env& env) const {
    return std::visit(
        [&](const auto& v) -> IValue {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, ir::None>) return IValue();
          else if constexpr (std::is_same_v<T, Node*>) return env.get(v);
          else if constexpr (std::is_same_v<T, ir::ScalarType>) return IValue(to_torch(v));
          else if constexpr (std::is_same_v<T, ir::Layout>) return IValue(to_torch(v));
          else if constexpr (std::is_same_v<T, ir::MemoryFormat>) return IValue(to_torch(v));
          else if constexpr (std::is_same_v<T, ir::Device>) {
            // A program exported on the CPU names the CPU in its factory calls
            // (arange, full, ...): on a GPU they make their tensors there, as
            // torch.export's move_to_device_pass rewrites them.
            const c10::Device d = to_torch(v);
            return IValue(d.is_cpu() && !device.is_cpu() ? device : d);
          }
          else if constexpr (std::is_same_v<T, ir::OperatorRef>) return IValue(v.qualified);
          else if constexpr (std::is_same_v<T, ir::ArgumentList>) {
            c10::impl::GenericList list(c10::AnyType::get());
            for (const auto& item : v.items) list.push_back(convert_plain(item, env));
            return list;
          } else {
            return IValue(v);
          }
        },
        a.v);
  }

  IValue convert(const Argument& a, const c10::TypePtr& type, const Env& env) const {
    const c10::TypePtr t = type->kind() == c10::TypeKind::OptionalType
                               ? (a.is_none() ? type : type->castRaw<c10::OptionalType>()->getElementType())
                               : type;
    if (a.is_none()) return IValue();
    if (t->kind() == c10::TypeKind::ListType) {
      const auto elem = t->castRaw<c10::ListType>()->getElementType();
      const auto* list = a.list();
      if (!list) {  // a node producing a list (e.g. from split), or a scalar broadcast
        IValue v = convert_plain(a, env);
        return v;
      }
      switch (elem->kind()) {
        case c10::TypeKind::IntType:
        case c10::TypeKind::SymIntType: {
          c10::List<int64_t> out;
          for (const auto& item : list->items) out.push_back(convert_plain(item, env).toInt());
          return out;
        }
        case c10::TypeKind::FloatType: {
          c10::List<double> out;
          for (const auto& item : list->items) {
            auto v = convert_plain(item, env);
            out.push_back(v.isInt() ? double(v.toInt()) : v.toDouble());
          }
          return out;
        }
        case c10::TypeKind::BoolType: {
          c10::List<bool> out;
          for (const auto& item : list->items) out.push_back(convert_plain(item, env).toBool());
          return out;
        }
        case c10::TypeKind::TensorType: {
          c10::List<at::Tensor> out;
          for (const auto& item : list->items) out.push_back(convert_plain(item, env).toTensor());
          return out;
        }
        case c10::TypeKind::OptionalType: {
          c10::List<std::optional<at::Tensor>> out;
          for (const auto& item : list->items) {
            auto v = convert_plain(item, env);
            out.push_back(v.isNone() ? std::nullopt : std::optional<at::Tensor>(v.toTensor()));
          }
          return out;
        }
        default:
          return convert_plain(a, env);
      }
    }
    IValue v = convert_plain(a, env);
    if (t->kind() == c10::TypeKind::TensorType && (v.isInt() || v.isDouble() || v.isBool()))
      return wrapped_number(v);
    if (t->kind() == c10::TypeKind::FloatType && v.isInt()) return IValue(double(v.toInt()));
    if (t->kind() == c10::TypeKind::IntType && v.isBool()) return IValue(int64_t(v.toBool()));
    return v;
  }

  std::vector<IValue> build_stack(const Node* n, const c10::FunctionSchema& schema, const Env& env) const {
    std::vector<IValue> stack;
    const auto& params = schema.arguments();
    size_t positional = 0;
    for (const auto& p : params) {
      const Argument* given = nullptr;
      if (!p.kwarg_only() && positional < n->args().size()) {
        given = &n->args()[positional++];
      } else {
        for (const auto& kw : n->kwargs())
          if (kw.name == p.name()) given = &kw.value;
      }
      if (given) {
        stack.push_back(convert(*given, p.type(), env));
      } else if (p.default_value()) {
        stack.push_back(*p.default_value());
      } else {
        throw RunError(node_context(n) + ": missing argument '" + p.name() + "' of " + schema.name());
      }
    }
    if (positional < n->args().size())
      throw RunError(node_context(n) + ": " + std::to_string(n->args().size()) + " positional arguments, but " +
                     schema.name() + " takes " + std::to_string(positional));
    return stack;
  }

  // --- node kinds ------------------------------------------------------------
  IValue call_op(const Node* n, const Env& env) const {
    const auto& resolved = ops[n->index()];
    if (!resolved)
      throw RunError("cannot run " + node_context(n) + ": operator " + n->target.schema_name() +
                     " is not registered in this process (load the library that defines it)");
    const auto& op = *resolved;
    auto stack = build_stack(n, op.schema(), env);
    try {
      op.callBoxed(stack);
    } catch (const c10::Error& e) {
      throw RunError(node_context(n) + " failed: " + e.what_without_backtrace());
    }
    if (op.schema().returns().empty()) return IValue();
    if (stack.size() == 1) return std::move(stack[0]);
    return c10::ivalue::Tuple::create(std::move(stack));
  }

  /// auto_functionalized_v2(op, <op's arguments by name>, _<arg>_base_index, ..., _all_bases): the op run on
  /// copies of the bases (each written argument the copy of its base, or the
  /// view of it the arguments describe), as torch's dense kernel runs it;
  /// the value is the op's results, then the copies.
  IValue call_auto_functionalized(const Node* n, const Env& env) const {
    const auto& resolved = ops[n->index()];
    if (!resolved)
      throw RunError("cannot run " + node_context(n) + ": the op it wraps is not registered in this process "
                     "(load the library that defines it)");
    const c10::FunctionSchema& schema = resolved->schema();
    auto kwarg = [&](const std::string& name) { return ir::find_keyword(n->kwargs(), name); };
    auto integer = [&](const std::string& name) -> int64_t {
      const Argument* a = kwarg(name);
      const auto* i = a ? std::get_if<int64_t>(&a->v) : nullptr;
      if (!i) throw RunError(node_context(n) + ": expected an integer '" + name + "'");
      return *i;
    };
    const Argument* all = kwarg("_all_bases");
    if (!all || !all->list()) throw RunError(node_context(n) + ": no _all_bases list");
    std::vector<at::Tensor> bases;
    for (const auto& b : all->list()->items) {
      const at::Tensor t = convert_plain(b, env).toTensor();
      bases.push_back(at::empty_strided(t.sizes(), t.strides(), t.options()).copy_(t));  // clone_preserve_strides
    }
    // A written argument from its view information (torch's ViewInfo kinds).
    auto written = [&](const std::string& prefix) -> IValue {
      const Argument* index = kwarg(prefix + "_base_index");
      if (!index) throw RunError(node_context(n) + ": no '" + prefix + "_base_index'");
      if (index->is_none()) return IValue();
      const int64_t i = integer(prefix + "_base_index");
      if (i < 0 || size_t(i) >= bases.size()) throw RunError(node_context(n) + ": base index out of range");
      const at::Tensor& base = bases[size_t(i)];
      if (kwarg(prefix + "_alias")) return base.alias();
      if (kwarg(prefix + "_slice_dim"))
        return base.slice(integer(prefix + "_slice_dim"), integer(prefix + "_slice_start"), integer(prefix + "_slice_end"));
      if (kwarg(prefix + "_size")) {
        const IValue size = convert_plain(*kwarg(prefix + "_size"), env), stride = convert_plain(*kwarg(prefix + "_stride"), env);
        return base.as_strided(size.toIntVector(), stride.toIntVector(), integer(prefix + "_storage_offset"));
      }
      return base;
    };
    std::vector<IValue> stack;
    for (const auto& p : schema.arguments()) {
      if (p.alias_info() && p.alias_info()->isWrite()) {
        if (p.type()->kind() == c10::TypeKind::ListType) {
          c10::List<at::Tensor> list;
          for (int64_t k = 0, length = integer("_" + p.name() + "_length"); k < length; ++k)
            list.push_back(written("_" + p.name() + "_" + std::to_string(k)).toTensor());
          stack.emplace_back(std::move(list));
        } else {
          stack.push_back(written("_" + p.name()));
        }
      } else if (const Argument* given = kwarg(p.name())) {
        stack.push_back(convert(*given, p.type(), env));
      } else if (p.default_value()) {
        stack.push_back(*p.default_value());
      } else {
        throw RunError(node_context(n) + ": missing argument '" + p.name() + "' of " + schema.name());
      }
    }
    resolved->callBoxed(stack);
    std::vector<IValue> out;
    if (schema.returns().empty()) out.emplace_back();
    for (auto& v : stack) out.push_back(std::move(v));
    for (auto& b : bases) out.emplace_back(std::move(b));
    return c10::ivalue::Tuple::create(std::move(out));
  }

  IValue getitem(const Node* n, const Env& env) const {
    const Node* source = n->args().size() == 2 ? n->args()[0].node() : nullptr;
    const auto* index = n->args().size() == 2 ? std::get_if<int64_t>(&n->args()[1].v) : nullptr;
    if (!source || !index) throw RunError(node_context(n) + ": getitem expects a value and an integer index");
    const IValue& container = env.get(source);
    const auto size = container.isTuple() ? container.toTupleRef().elements().size()
                      : container.isList() ? container.toListRef().size()
                                           : throw RunError(node_context(n) + ": getitem on a value that is neither a tuple nor a list");
    if (*index < 0 || static_cast<size_t>(*index) >= size)
      throw RunError(node_context(n) + ": index " + std::to_string(*index) + " out of range for " +
                     std::to_string(size) + " values");
    return container.isTuple() ? container.toTupleRef().elements()[*index] : container.toListRef()[*index];
  }

  std::vector<IValue> operand_list(const Argument& a, const Env& env) const {
    std::vector<IValue> out;
    if (const auto* list = a.list()) {
      for (const auto& item : list->items) out.push_back(convert_plain(item, env));
    } else {
      out.push_back(convert_plain(a, env));
    }
    return out;
  }

  GraphRunner& branch(const Argument& a, const Node* n) const {
    const Node* g = a.node();
    if (!g || g->op != OpKind::GetAttr) throw RunError(node_context(n) + ": expected a subgraph argument");
    auto it = subgraphs.find(g->attr);
    if (it == subgraphs.end()) throw RunError(node_context(n) + ": unknown subgraph '" + g->attr + "'");
    return *it->second;
  }

  /// Runs a subgraph from inside a node of this one, watched by the observers that see subgraphs.
  static std::vector<IValue> enter(const GraphRunner& body, const std::vector<IValue>& operands, const Env& env) {
    return body.run(operands, env.nested, env.nested, Progress{{}, env.cancel});
  }

  /// A predicate's truth: a bool, or a one-element tensor (cond's pred, while_loop's condition).
  static bool holds(const IValue& pred) { return pred.isTensor() ? pred.toTensor().item<bool>() : pred.toBool(); }

  IValue call_cond(const Node* n, const Env& env) const {
    const bool take_true = holds(convert_plain(n->args().at(0), env));
    auto& b = branch(n->args().at(take_true ? 1 : 2), n);
    return c10::ivalue::Tuple::create(enter(b, operand_list(n->args().at(3), env), env));
  }

  /// The operands a wrapper HOP passes on to its subgraph: arguments from `first` on.
  std::vector<IValue> operands_from(const Node* n, size_t first, const Env& env) const {
    std::vector<IValue> out;
    for (size_t i = first; i < n->args().size(); ++i) out.push_back(convert_plain(n->args()[i], env));
    return out;
  }

  // wrap_with_set_grad_enabled(enable_grad, body, *args): body under torch.set_grad_enabled.
  IValue call_set_grad_enabled(const Node* n, const Env& env) const {
    const bool enabled = convert_plain(n->args().at(0), env).toBool();
    auto& body = branch(n->args().at(1), n);
    c10::AutoGradMode mode(enabled);
    return c10::ivalue::Tuple::create(enter(body, operands_from(n, 2, env), env));
  }

  // wrap_with_autocast(device_type, dtype, enabled, cache_enabled, body, *args):
  // body under torch.autocast, the process's autocast state restored after.
  IValue call_autocast(const Node* n, const Env& env) const {
    const std::string device = convert_plain(n->args().at(0), env).toStringRef();
    const IValue dtype = convert_plain(n->args().at(1), env);
    const bool enabled = convert_plain(n->args().at(2), env).toBool();
    auto& body = branch(n->args().at(4), n);
    const c10::DeviceType type = c10::Device(device).type();
    struct Restore {
      c10::DeviceType type;
      bool enabled;
      at::ScalarType dtype;
      ~Restore() {
        at::autocast::set_autocast_enabled(type, enabled);
        at::autocast::set_autocast_dtype(type, dtype);
      }
    } restore{type, at::autocast::is_autocast_enabled(type), at::autocast::get_autocast_dtype(type)};
    at::autocast::set_autocast_enabled(type, enabled);
    if (!dtype.isNone()) at::autocast::set_autocast_dtype(type, dtype.toScalarType());
    return c10::ivalue::Tuple::create(enter(body, operands_from(n, 5, env), env));
  }

  // map_impl(body, xs, args): apply body to each slice xs[i] along dim 0 and stack.
  IValue call_map(const Node* n, const Env& env) const {
    auto& body = branch(n->args().at(0), n);
    const auto xs = operand_list(n->args().at(1), env);
    const auto extra = operand_list(n->args().at(2), env);
    if (xs.empty()) throw RunError(node_context(n) + ": map over no tensors");
    const int64_t count = xs[0].toTensor().size(0);
    std::vector<std::vector<at::Tensor>> per_output;
    for (int64_t i = 0; i < count; ++i) {
      std::vector<IValue> in;
      for (const auto& x : xs) in.emplace_back(x.toTensor().select(0, i));
      in.insert(in.end(), extra.begin(), extra.end());
      auto outs = enter(body, in, env);
      per_output.resize(outs.size());
      for (size_t k = 0; k < outs.size(); ++k) per_output[k].push_back(outs[k].toTensor());
    }
    std::vector<IValue> stacked;
    for (auto& ts : per_output) stacked.emplace_back(at::stack(ts));
    return c10::ivalue::Tuple::create(std::move(stacked));
  }

  // while_loop(cond, body, carried, additional): body maps the carried values
  // (tensors and ints) to the next ones while cond holds on them.
  IValue call_while_loop(const Node* n, const Env& env) const {
    auto& cond = branch(n->args().at(0), n);
    auto& body = branch(n->args().at(1), n);
    std::vector<IValue> carried = operand_list(n->args().at(2), env);
    const auto extra = operand_list(n->args().at(3), env);
    auto operands = [&] {
      std::vector<IValue> in = carried;
      in.insert(in.end(), extra.begin(), extra.end());
      return in;
    };
    // A loop whose condition never turns false would hang the run: past this
    // many iterations it is refused, as a file that lies about itself.
    constexpr int64_t kMaxIterations = 100000000;
    for (int64_t i = 0;; ++i) {
      const std::vector<IValue> verdict = enter(cond, operands(), env);
      if (verdict.size() != 1) throw RunError(node_context(n) + ": the condition returns more than one value");
      if (!holds(verdict[0])) break;
      if (i == kMaxIterations)
        throw RunError(node_context(n) + ": the loop's condition still holds after " + std::to_string(kMaxIterations) +
                       " iterations");
      std::vector<IValue> next = enter(body, operands(), env);
      if (next.size() != carried.size())
        throw RunError(node_context(n) + ": the body returns " + std::to_string(next.size()) + " values for " +
                       std::to_string(carried.size()) + " carried");
      carried = std::move(next);
    }
    return c10::ivalue::Tuple::create(std::move(carried));
  }

  // scan(combine, init, xs, additional): combine maps (carry, xs[i]) to the next
  // carry and step i's outputs, along dim 0; the result is the last carry, then
  // each output stacked over the steps.
  IValue call_scan(const Node* n, const Env& env) const {
    auto& combine = branch(n->args().at(0), n);
    std::vector<IValue> carry = operand_list(n->args().at(1), env);
    const auto xs = operand_list(n->args().at(2), env);
    const auto extra = operand_list(n->args().at(3), env);
    const int64_t steps = xs.empty() ? 0 : xs[0].toTensor().size(0);
    if (steps == 0) throw RunError(node_context(n) + ": scan over no steps");
    std::vector<std::vector<at::Tensor>> per_output;
    for (int64_t i = 0; i < steps; ++i) {
      std::vector<IValue> in = carry;
      for (const auto& x : xs) in.emplace_back(x.toTensor().select(0, i));
      in.insert(in.end(), extra.begin(), extra.end());
      std::vector<IValue> out = enter(combine, in, env);
      if (out.size() < carry.size())
        throw RunError(node_context(n) + ": the combine function returns fewer values than the carry holds");
      per_output.resize(out.size() - carry.size());
      for (size_t k = carry.size(); k < out.size(); ++k) per_output[k - carry.size()].push_back(out[k].toTensor());
      out.resize(carry.size());
      carry = std::move(out);
    }
    std::vector<IValue> result = std::move(carry);
    for (auto& ys : per_output) result.emplace_back(at::stack(ys));
    return c10::ivalue::Tuple::create(std::move(result));
  }

  // Any failure inside a node names the node; LibTorch's C++ backtrace and
  // library exception types stay out of the message.
  IValue call_function(const Node* n, const Env& env) const {
    try {
      return dispatch(n, env);
    } catch (const RunError&) {
      throw;
    } catch (const c10::Error& e) {
      throw RunError(node_context(n) + " failed: " + e.what_without_backtrace());
    } catch (const std::bad_alloc&) {
      throw RunError(node_context(n) + " failed: out of memory");
    } catch (const ArithmeticError& e) {
      throw RunError(node_context(n) + ": " + e.what());
    } catch (const std::out_of_range&) {
      throw RunError(node_context(n) + ": its arguments do not match what the op takes");
    } catch (const std::bad_variant_access&) {
      throw RunError(node_context(n) + ": an argument has the wrong kind");
    }
  }

  IValue dispatch(const Node* n, const Env& env) const {
    const Handler& h = handlers[n->index()];
    switch (h.kind) {
      case HandlerKind::TorchOp: return call_op(n, env);
      case HandlerKind::Getitem: return getitem(n, env);
      case HandlerKind::SymOp: {
        std::vector<IValue> args;
        for (const auto& a : n->args()) args.push_back(convert_plain(a, env));
        return eval_sym_op(h.sym, args);
      }
      case HandlerKind::Cond: return call_cond(n, env);
      case HandlerKind::Map: return call_map(n, env);
      case HandlerKind::WhileLoop: return call_while_loop(n, env);
      case HandlerKind::Scan: return call_scan(n, env);
      case HandlerKind::SetGradEnabled: return call_set_grad_enabled(n, env);
      case HandlerKind::Autocast: return call_autocast(n, env);
      case HandlerKind::AutoFunctionalized: return call_auto_functionalized(n, env);
      case HandlerKind::Unsupported: break;
    }
    if (n->target.is_higher_order())
      throw RunError(node_context(n) + ": higher-order op '" + n->target.op_name() + "' is not supported by the runtime");
    throw RunError(node_context(n) + ": unsupported symbolic operator '" + n->target.op_name() + "'");
  }

  std::vector<IValue> outputs(const Node* out, const Env& env) const {
    std::vector<IValue> result;
    if (out->args().empty()) return result;
    if (const auto* list = out->args()[0].list()) {
      for (const auto& item : list->items) result.push_back(convert_plain(item, env));
    } else {
      result.push_back(convert_plain(out->args()[0], env));
    }
    return result;
  }

  /// `observer` sees this graph's nodes, `nested` those of the subgraphs it enters.
  std::vector<IValue> run(const std::vector<IValue>& placeholders, NodeObserver* observer = nullptr,
                          NodeObserver* nested = nullptr, const Progress& progress = {}) const;
};

/// One run of a graph, a call at a time: the loop torch's interpreter runs,
/// cut where a caller (RunStepper) may look at the values between nodes.
class GraphRun {
 public:
  GraphRun(const GraphRunner& runner, const std::vector<IValue>& placeholders, NodeObserver* observer,
           NodeObserver* nested, Progress progress)
      : r_(runner), nodes_(runner.order), placeholders_(placeholders), observer_(observer),
        progress_(std::move(progress)) {
    env_.nested = nested;
    env_.cancel = progress_.cancel;
    env_.values.resize(nodes_.size());
    held_.resize(nodes_.size());
  }

  bool done() const { return finished_; }
  const GraphRunner::Env& env() const { return env_; }

  /// Binds the placeholders up to the next call, runs it and returns it;
  /// at the output node, returns nullptr and done() becomes true.
  const Node* step() {
    while (next_ < nodes_.size()) {
      const Node* n = nodes_[next_++];
      progress_.at(int(next_) - 1, int(nodes_.size()));
      switch (n->op) {
        case OpKind::Placeholder:
          if (next_input_ >= placeholders_.size())
            throw RunError("graph expects more inputs than were given (at placeholder '" + n->name + "')");
          env_.values[n->index()] = placeholders_[next_input_++];
          if (observer_) observer_->input_bound(*n, env_.values[n->index()]);
          continue;
        case OpKind::GetAttr:
          continue;  // subgraphs are resolved by the op that uses them
        case OpKind::Output:
          outputs_ = r_.outputs(n, env_);
          finished_ = true;
          return nullptr;
        case OpKind::CallFunction:
          if (observer_) observer_->node_begin(*n);
          env_.values[n->index()] = r_.call_function(n, env_);
          if (observer_) observer_->node_end(*n, env_.values[n->index()]);
          last_ = n;
          return n;
      }
    }
    throw RunError("graph has no output node");
  }

  /// Frees the values the last call was the last reader of, as torch's
  /// interpreter does (those held stay until let go).
  void release() {
    if (!last_) return;
    for (int v : r_.frees[last_->index()])
      if (!held_[size_t(v)]) env_.values[size_t(v)] = IValue();
    if (observer_ && observer_->wants_live_values()) observer_->live_values(*last_, env_.values);
    last_ = nullptr;
  }

  void hold(const Node* n, bool on) {
    held_[size_t(n->index())] = on;
    if (!on && done_reading(n)) env_.values[size_t(n->index())] = IValue();
  }

  std::vector<IValue> take_outputs() { return std::move(outputs_); }

 private:
  // Whether every reader of `n` has run: its value is free to go.
  bool done_reading(const Node* n) const {
    for (const Node* user : n->users())
      if (user->index() >= int(next_) || user == last_) return false;
    return true;
  }

  const GraphRunner& r_;
  const std::vector<Node*>& nodes_;
  const std::vector<IValue>& placeholders_;
  NodeObserver* observer_;
  Progress progress_;
  GraphRunner::Env env_;
  std::vector<char> held_;
  size_t next_ = 0, next_input_ = 0;
  const Node* last_ = nullptr;
  bool finished_ = false;
  std::vector<IValue> outputs_;
};

std::vector<IValue> GraphRunner::run(const std::vector<IValue>& placeholders, NodeObserver* observer,
                                     NodeObserver* nested, const Progress& progress) const {
  GraphRun run(*this, placeholders, observer, nested, progress);
  while (run.step()) run.release();
  return run.take_outputs();
}

struct Interpreter::Impl {
  std::shared_ptr<const GraphRunner> runner;  // shared by the interpreters of one program on one device
  std::map<std::string, at::Tensor, std::less<>> state;  // parameters, buffers, constants by target
};

namespace {

std::optional<c10::ScalarType> precision_dtype(Precision p) {
  switch (p) {
    case Precision::AsExported: return std::nullopt;
    case Precision::BFloat16: return c10::kBFloat16;
    case Precision::Float16: return c10::kHalf;
    case Precision::Float64: return c10::kDouble;
  }
  return std::nullopt;
}

// Only real floating tensors change precision (as nn.Module.to(dtype) does).
bool is_cast(const at::Tensor& t, std::optional<c10::ScalarType> dtype) {
  return dtype && t.defined() && t.is_floating_point() && t.scalar_type() != *dtype;
}

}  // namespace

Interpreter::Interpreter(const ir::ExportedProgram& ep, c10::Device device, Precision precision)
    : impl_(std::make_unique<Impl>()), ep_(ep), device_(device), precision_(precision) {
  impl_->runner = std::make_shared<GraphRunner>(ep.graph_module, device);
  load_weights();
}

Interpreter::Interpreter(const Interpreter& same, Precision precision)
    : impl_(std::make_unique<Impl>()), ep_(same.ep_), device_(same.device_), precision_(precision) {
  impl_->runner = same.impl_->runner;
  if (same.precision_ != Precision::AsExported) {  // its weights are not the archive's any more
    load_weights();
    return;
  }
  // Copies, never the same tensors: a run updates its mutated buffers in
  // place. A weight this precision casts is cast from `same`'s directly.
  const auto dtype = precision_dtype(precision);
  const std::set<std::string_view> cast = weights_cast();
  for (const auto& [key, t] : same.impl_->state)
    impl_->state[key] = cast.count(key) && is_cast(t, dtype) ? t.to(*dtype) : t.clone();
}

void Interpreter::load_weights() {
  for (const auto& [key, payload] : ep_.state_dict) impl_->state[key] = payload_to_tensor(payload, key, device_);
  for (const auto& [key, payload] : ep_.constants) impl_->state[key] = payload_to_tensor(payload, key, device_);
  cast_weights();
}

// As nn.Module.to(dtype): parameters and buffers (persistent or not), not
// lifted tensor constants.
std::set<std::string_view> Interpreter::weights_cast() const {
  std::set<std::string_view> targets;
  if (precision_dtype(precision_))
    for (const auto& spec : ep_.signature.inputs)
      if ((spec.kind == ir::InputKind::Parameter || spec.kind == ir::InputKind::Buffer) && spec.target)
        targets.insert(*spec.target);
  return targets;
}

void Interpreter::cast_weights() {
  const auto dtype = precision_dtype(precision_);
  for (const std::string_view target : weights_cast())
    if (auto it = impl_->state.find(target); it != impl_->state.end() && is_cast(it->second, dtype))
      it->second = it->second.to(*dtype);
}

std::vector<IValue> Interpreter::prepare_inputs(const std::vector<IValue>& user_inputs) const {
  const auto dtype = precision_dtype(precision_);
  std::vector<IValue> out;
  out.reserve(user_inputs.size());
  for (const auto& v : user_inputs) {
    if (!v.isTensor()) {
      out.push_back(v);
      continue;
    }
    at::Tensor t = v.toTensor().to(device_);
    out.emplace_back(is_cast(t, dtype) ? t.to(*dtype) : t);
  }
  return out;
}

CastReport Interpreter::cast_report(const std::vector<IValue>& user_inputs) const {
  CastReport r;
  if (!precision_dtype(precision_)) return r;
  r.precision = precision_name(precision_);
  for (const auto& spec : ep_.signature.inputs) {
    if (spec.kind == ir::InputKind::UserInput || !spec.target) continue;
    auto it = impl_->state.find(*spec.target);
    if (it == impl_->state.end() || !it->second.defined()) continue;
    const bool weight = spec.kind == ir::InputKind::Parameter || spec.kind == ir::InputKind::Buffer;
    if (!weight || !it->second.is_floating_point()) ++r.kept;
    else ++(spec.kind == ir::InputKind::Parameter ? r.parameters : r.buffers);
  }
  for (const auto& v : user_inputs)
    if (v.isTensor() && v.toTensor().defined()) ++(v.toTensor().is_floating_point() ? r.inputs : r.kept);
  return r;
}

Interpreter::~Interpreter() = default;

void Interpreter::check_runnable() const {
  if (!impl_->runner->missing.empty()) {
    std::string msg = "cannot run: operators not registered in this process (load the library that defines them):";
    for (const auto& m : impl_->runner->missing) msg += "\n  " + m;
    throw RunError(msg);
  }
  for (const auto& u : impl_->runner->unsafe) {
    if (user_allows(allowed_ops_, u.target)) continue;
    const std::string op = u.target.op_namespace() + "::" + u.target.op_name();
    throw RunError("refusing to run " + u.where + " (" + u.target.schema_name() + "): the op " + u.reason +
                   "; allow it with --allow-op " + op + " if you trust this program");
  }
}

std::vector<IValue> Interpreter::placeholders(const std::vector<IValue>& user_inputs) const {
  std::vector<IValue> out;
  size_t next_user = 0;
  for (const auto& spec : ep_.signature.inputs) {
    if (spec.kind == ir::InputKind::UserInput) {
      if (next_user >= user_inputs.size())
        throw RunError("expected " + std::to_string(ep_.signature.user_inputs().size()) + " inputs, got " +
                       std::to_string(user_inputs.size()));
      const IValue& v = user_inputs[next_user++];
      const auto dtype = precision_dtype(precision_);
      if (spec.arg.type != ir::SpecArgument::Type::Constant && v.isTensor()) {
        at::Tensor t = v.toTensor().to(device_);
        out.emplace_back(is_cast(t, dtype) ? t.to(*dtype) : t);
      } else {
        out.push_back(v);
      }
      continue;
    }
    if (!spec.target) throw RunError("input '" + spec.arg.name + "' has no state-dict key");
    auto it = impl_->state.find(*spec.target);
    if (it == impl_->state.end()) throw RunError("weight '" + *spec.target + "' is missing from the program");
    out.emplace_back(it->second);
  }
  return out;
}

void Interpreter::update_buffers(const std::vector<IValue>& graph_outputs) {
  // Buffer mutations become the buffers' new values, as ep.module() does.
  for (size_t i = 0; i < ep_.signature.outputs.size() && i < graph_outputs.size(); ++i) {
    const auto& spec = ep_.signature.outputs[i];
    if (spec.kind == ir::OutputKind::BufferMutation && spec.target && graph_outputs[i].isTensor())
      impl_->state[*spec.target].copy_(graph_outputs[i].toTensor());
  }
}

std::vector<IValue> Interpreter::user_outputs(const std::vector<IValue>& graph_outputs) const {
  std::vector<IValue> user;
  for (size_t i = 0; i < ep_.signature.outputs.size() && i < graph_outputs.size(); ++i)
    if (ep_.signature.outputs[i].kind == ir::OutputKind::UserOutput) user.push_back(graph_outputs[i]);
  return user;
}

std::vector<IValue> Interpreter::run_graph(const std::vector<IValue>& user_inputs) {
  check_runnable();
  c10::InferenceMode no_autograd;
  const std::vector<IValue> bound = placeholders(user_inputs);
  // What the run allocates is bounded (run_memory.h), and every value is
  // checked against its declaration: the first observer, wrapping the others.
  DeclaredValues declared(memory_limit_, precision_ != Precision::AsExported);
  ObserverChain observers, nested;
  observers.add(&declared);
  for (NodeObserver* o : observers_) observers.add(o);
  for (NodeObserver* o : observers.members())
    if (o->sees_subgraphs()) nested.add(o);
  std::vector<IValue> outs;
  {
    RunMemoryScope charged(std::make_shared<RunMemoryBudget>(memory_limit_));
    outs = impl_->runner->run(bound, &observers, &nested, progress_);
  }
  update_buffers(outs);
  return outs;
}

// ---- a run a node at a time ------------------------------------------------------

struct RunStepper::State {
  Interpreter* interpreter;
  std::vector<IValue> bound;  // the placeholders' values: the run reads them by reference
  std::shared_ptr<RunMemoryBudget> budget;
  DeclaredValues declared;
  ObserverChain observers, nested;
  std::unique_ptr<GraphRun> run;
  std::vector<IValue> outputs;  // the graph's, once the run is done
  State(Interpreter* i, uint64_t limit, bool recast)
      : interpreter(i), budget(std::make_shared<RunMemoryBudget>(limit)), declared(limit, recast) {}
};

RunStepper::RunStepper(std::unique_ptr<State> s) : s_(std::move(s)) {}
RunStepper::RunStepper(RunStepper&&) noexcept = default;
RunStepper::~RunStepper() = default;

RunStepper Interpreter::start(const std::vector<IValue>& user_inputs) {
  check_runnable();
  c10::InferenceMode no_autograd;
  auto state = std::make_unique<RunStepper::State>(this, memory_limit_, precision_ != Precision::AsExported);
  {
    RunMemoryScope charged(state->budget);
    state->bound = placeholders(user_inputs);
  }
  state->observers.add(&state->declared);
  for (NodeObserver* o : observers_) state->observers.add(o);
  for (NodeObserver* o : state->observers.members())
    if (o->sees_subgraphs()) state->nested.add(o);
  state->run = std::make_unique<GraphRun>(*impl_->runner, state->bound, &state->observers, &state->nested, progress_);
  return RunStepper(std::move(state));
}

bool RunStepper::done() const { return s_->run->done(); }

const ir::Node* RunStepper::step() {
  c10::InferenceMode no_autograd;
  RunMemoryScope charged(s_->budget);
  const ir::Node* n = s_->run->step();
  if (!n && s_->outputs.empty()) {
    s_->outputs = s_->run->take_outputs();
    s_->interpreter->update_buffers(s_->outputs);
  }
  return n;
}

void RunStepper::release() {
  RunMemoryScope charged(s_->budget);
  s_->run->release();
}

const IValue* RunStepper::value(const ir::Node& n) const {
  const auto& values = s_->run->env().values;
  const size_t i = size_t(n.index());
  return i < values.size() && !values[i].isNone() ? &values[i] : nullptr;
}

void RunStepper::hold(const ir::Node& n, bool on) { s_->run->hold(&n, on); }

IValue RunStepper::evaluate(const ir::Node& node, const std::function<std::optional<IValue>(const ir::Node&)>& input) const {
  std::vector<std::pair<const Node*, IValue>> given;
  node.for_each_input([&](const Node* in) {
    for (const auto& g : given)
      if (g.first == in) return;
    if (auto v = input(*in)) given.emplace_back(in, std::move(*v));
    else if (const IValue* own = value(*in)) given.emplace_back(in, *own);
    else throw RunError("cannot evaluate node '" + node.name + "': no value for its input '" + in->name + "'");
  });
  GraphRunner::Env env;
  env.given = &given;
  c10::InferenceMode no_autograd;
  RunMemoryScope charged(s_->budget);
  return s_->interpreter->impl_->runner->call_function(&node, env);
}

std::vector<IValue> RunStepper::user_outputs() const { return s_->interpreter->user_outputs(s_->outputs); }

uint64_t RunStepper::peak_bytes() const { return s_->budget->peak(); }

std::vector<IValue> Interpreter::run(const std::vector<IValue>& user_inputs) { return user_outputs(run_graph(user_inputs)); }

std::vector<std::string> missing_operators(const ir::ExportedProgram& ep) {
  return GraphRunner(ep.graph_module, c10::Device(c10::kCPU)).missing;
}

// Declared in program_runner.h: the CLI and GUI ask before a run.
std::vector<RefusedOp> refused_operators(const ir::ExportedProgram& ep, const std::set<std::string>& allowed) {
  std::vector<RefusedOp> out;
  for (const auto& u : GraphRunner(ep.graph_module, c10::Device(c10::kCPU)).unsafe)
    if (!user_allows(allowed, u.target))
      out.push_back({u.where, u.target.op_namespace() + "::" + u.target.op_name(), u.reason, u.target.schema_name()});
  return out;
}

}  // namespace exportlens::runtime
