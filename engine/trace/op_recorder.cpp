// The dispatcher's side of the tracer: one boxed kernel, registered for every
// operator at AutogradPrivateUse1 and PrivateUse1, so that an op reaches the
// tracer before any CompositeImplicitAutograd decomposition (aten.linear,
// aten.conv2d stay whole, as in torch.export's training IR). It turns the
// boxed arguments into a graph node (arguments as FX records them: trailing
// defaults dropped), computes the output's symbolic shape with the op's shape
// rule (guards with the node as provenance), and returns fakes.
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/empty_strided.h>
#include <c10/core/Scalar.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <unordered_set>

#include "engine/ops/shape_rule.h"
#include "engine/runtime/torch_types.h"
#include "engine/trace/fake_tensor.h"
#include "engine/trace/source_locator.h"
#include "engine/trace/sym_node.h"
#include "engine/trace/trace_errors.h"
#include "engine/trace/tracer.h"

namespace exportlens::trace {

using symbolic::contiguous_strides;
using symbolic::probe_contiguity;
using symbolic::view_strides;

using symbolic::Expr;

namespace {

// ---- registration ----------------------------------------------------------------

void capture_kernel(const c10::OperatorHandle& op, c10::DispatchKeySet, torch::jit::Stack* stack) {
  Tracer* t = Tracer::current();
  if (!t)
    throw std::runtime_error("ExportLens: " + op.schema().operator_name().name +
                             " was called on a traced (fake) tensor after its trace ended");
  t->record(op, stack);
}

struct KernelRegistry {
  std::mutex mutex;
  std::unordered_set<c10::OperatorName> done;
  std::vector<c10::RegistrationHandleRAII> handles;
};

KernelRegistry& registry() {
  static auto* r = new KernelRegistry;  // never destroyed: kernels stay registered for the process
  return *r;
}

// ---- argument conversion -----------------------------------------------------------

ir::Layout layout_from_torch(c10::Layout l) {
  switch (l) {
    case c10::kStrided: return ir::Layout::Strided;
    case c10::kSparse: return ir::Layout::SparseCoo;
    case c10::kSparseCsr: return ir::Layout::SparseCsr;
    case c10::kSparseCsc: return ir::Layout::SparseCsc;
    case c10::kSparseBsr: return ir::Layout::SparseBsr;
    case c10::kSparseBsc: return ir::Layout::SparseBsc;
    case c10::kMkldnn: return ir::Layout::_mkldnn;
    default: return ir::Layout::Unknown;
  }
}

ir::MemoryFormat memory_format_from_torch(c10::MemoryFormat m) {
  switch (m) {
    case c10::MemoryFormat::Contiguous: return ir::MemoryFormat::ContiguousFormat;
    case c10::MemoryFormat::Preserve: return ir::MemoryFormat::PreserveFormat;
    case c10::MemoryFormat::ChannelsLast: return ir::MemoryFormat::ChannelsLast;
    case c10::MemoryFormat::ChannelsLast3d: return ir::MemoryFormat::ChannelsLast3d;
    default: return ir::MemoryFormat::Unknown;
  }
}

ir::Device device_from_torch(const c10::Device& d) {
  ir::Device out;
  if (d.is_privateuseone() || d.is_cpu()) return out;  // fakes stand for CPU tensors
  out.type = c10::DeviceTypeName(d.type(), /*lower_case=*/true);
  if (d.has_index()) out.index = d.index();
  return out;
}

/// c10's IValue equality for the values schema defaults take (no tensors).
bool same_as_default(const c10::IValue& v, const c10::IValue& d) {
  if (d.isNone()) return v.isNone();
  if (d.isInt() && v.isIntList()) {  // int[2] stride=1: the default stands for [1, 1]
    const auto l = v.toIntVector();
    return !l.empty() && std::all_of(l.begin(), l.end(), [&](int64_t x) { return x == d.toInt(); });
  }
  if (d.isInt()) return v.isInt() && v.toInt() == d.toInt();
  if (d.isDouble()) return v.isDouble() && v.toDouble() == d.toDouble();
  if (d.isBool()) return v.isBool() && v.toBool() == d.toBool();
  if (d.isString()) return v.isString() && v.toStringRef() == d.toStringRef();
  if (d.isIntList()) {
    if (!v.isIntList()) return false;
    // int[2] dilation=1 is stored as [1, 1]; LibTorch's C++ default passes [1].
    const auto a = v.toIntVector(), b = d.toIntVector();
    auto all_equal = [](const std::vector<int64_t>& l, int64_t x) {
      return std::all_of(l.begin(), l.end(), [&](int64_t y) { return y == x; });
    };
    return a == b || (a.size() == 1 && all_equal(b, a[0])) || (b.size() == 1 && all_equal(a, b[0]));
  }
  if (d.isDoubleList()) return v.isDoubleList() && v.toDoubleVector() == d.toDoubleVector();
  if (d.isBoolList()) return v.isBoolList() && v.toBoolList().vec() == d.toBoolList().vec();
  return false;
}

/// C++-only overloads ("For C++ only" in native_functions.yaml) recorded as
/// the overload Python's same code records: x + 1 is add.Tensor(x, 1).
std::string python_overload(const std::string& name, const std::string& overload) {
  static const std::set<std::string> scalar_to_tensor = {"add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_"};
  if (overload == "Scalar" && scalar_to_tensor.count(name)) return "Tensor";
  return overload.empty() ? "default" : overload;
}

struct OpName {
  std::string ns, name, overload;
};

OpName split_name(const c10::FunctionSchema& schema) {
  const std::string& full = schema.name();
  const auto sep = full.find("::");
  OpName n{full.substr(0, sep), full.substr(sep + 2), ""};
  n.overload = python_overload(n.name, schema.overload_name());
  return n;
}

std::string torch_op_label(const OpName& n) { return n.ns + "." + n.name + "." + n.overload; }

}  // namespace

void install_capture_kernels() {
  KernelRegistry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto& dispatcher = c10::Dispatcher::singleton();
  for (const auto& name : dispatcher.getAllOpNames()) {
    if (r.done.count(name)) continue;
    auto handle = dispatcher.findSchema(name);
    if (!handle) continue;  // implementations without a schema: not callable
    r.done.insert(name);
    for (auto key : {c10::DispatchKey::AutogradPrivateUse1, c10::DispatchKey::PrivateUse1}) {
      if (handle->hasKernelForDispatchKey(key)) continue;  // a real PrivateUse1 backend owns it
      r.handles.push_back(dispatcher.registerImpl(name, key,
                                                  c10::KernelFunction::makeFromBoxedFunction<&capture_kernel>(),
                                                  std::nullopt, nullptr, "ExportLens tracer"));
    }
  }
}

// ---- recording one op ----------------------------------------------------------------

class OpRecorder {
 public:
  OpRecorder(Tracer& t, const c10::OperatorHandle& op, torch::jit::Stack* stack)
      : t_(t), op_(op), schema_(op.schema()), stack_(*stack), name_(split_name(schema_)) {}

  void run() {
    const size_t n = schema_.arguments().size();
    inputs_.assign(stack_.end() - long(n), stack_.end());
    torch::jit::drop(stack_, n);
    location_ = t_.model_location();
    try {
      if (name_.ns == "aten" && (name_.name == "item" || name_.name == "_local_scalar_dense" ||
                                 name_.name == "is_nonzero"))
        return record_item();
      record_call();
    } catch (const symbolic::DataDependentError& e) {
      raise_data_dependent(t_, e, location_, false);
    } catch (const symbolic::CheckFailedError& e) {
      raise_check_failed(t_, e, location_);
    }
  }

 private:
  // ---- arguments
  ir::Argument convert(const c10::IValue& v, const c10::TypePtr& declared) {
    if (v.isNone()) return ir::None{};
    c10::TypePtr type = declared;
    if (auto opt = type->cast<c10::OptionalType>()) type = opt->getElementType();
    switch (type->kind()) {
      case c10::TypeKind::ScalarTypeType:
        if (v.isInt()) return runtime::from_torch(static_cast<c10::ScalarType>(v.toInt()));
        break;
      case c10::TypeKind::LayoutType:
        if (v.isInt()) return layout_from_torch(static_cast<c10::Layout>(v.toInt()));
        break;
      case c10::TypeKind::MemoryFormatType:
        if (v.isInt()) return memory_format_from_torch(static_cast<c10::MemoryFormat>(v.toInt()));
        break;
      default: break;
    }
    if (v.isTensor()) {
      ir::Node* node = t_.node_for(v.toTensor());
      if (!node) return ir::None{};
      input_nodes_.push_back(node);
      return node;
    }
    if (v.isInt()) return v.toInt();
    if (v.isDouble()) return v.toDouble();
    if (v.isBool()) return v.toBool();
    if (v.isString()) return v.toStringRef();
    if (v.isSymInt()) return note_input(t_.argument_for(v.toSymInt()));
    if (v.isSymBool()) {
      const c10::SymBool b = v.toSymBool();
      if (!b.is_heap_allocated()) return b.as_bool_unchecked();
      return note_input(t_.argument_for(b.toSymNodeImpl()));
    }
    if (v.isDevice()) return device_from_torch(v.toDevice());
    if (v.isIntList()) {
      ir::ArgumentList l;
      for (int64_t i : v.toIntVector()) l.items.emplace_back(i);
      return l;
    }
    if (v.isDoubleList()) {
      ir::ArgumentList l;
      for (double d : v.toDoubleVector()) l.items.emplace_back(d);
      return l;
    }
    if (v.isBoolList()) {
      ir::ArgumentList l;
      for (bool b : v.toBoolList().vec()) l.items.emplace_back(b);
      return l;
    }
    if (v.isList()) {
      c10::TypePtr element = c10::AnyType::get();
      if (auto list = type->cast<c10::ListType>()) element = list->getElementType();
      ir::ArgumentList l;
      for (const c10::IValue& item : v.toListRef()) l.items.push_back(convert(item, element));
      return l;
    }
    if (v.isTuple()) {
      ir::ArgumentList l{{}, true};
      for (const c10::IValue& item : v.toTupleRef().elements()) l.items.push_back(convert(item, c10::AnyType::get()));
      return l;
    }
    if (v.isGenerator())
      raise(t_, TraceError("unsupported", "RuntimeError",
                           torch_op_label(name_) + ": explicit random generators cannot be traced"));
    raise(t_, TraceError("unsupported", "RuntimeError",
                         torch_op_label(name_) + ": argument of kind " + v.tagKind() + " cannot be traced"));
  }

  ir::Argument note_input(ir::Argument a) {
    if (ir::Node* n = a.node()) input_nodes_.push_back(n);
    return a;
  }

  /// FX's arguments: positional up to the last one that differs from its
  /// default, keyword-only ones that differ; factory ops get the device and
  /// pin_memory Python's argument parser fills in.
  void convert_arguments() {
    const auto& args = schema_.arguments();
    const size_t n = args.size();
    size_t kw_start = n;
    while (kw_start > 0 && args[kw_start - 1].kwarg_only()) --kw_start;
    auto is_default = [&](size_t i) {
      return args[i].default_value().has_value() && same_as_default(inputs_[i], *args[i].default_value());
    };
    size_t positional_end = kw_start;
    while (positional_end > 0 && is_default(positional_end - 1)) --positional_end;
    for (size_t i = 0; i < positional_end; ++i) args_.push_back(convert(inputs_[i], args[i].type()));
    const bool has_self = n > 0 && args[0].name() == "self";
    for (size_t i = kw_start; i < n; ++i) {
      const std::string& name = args[i].name();
      if (!is_default(i)) {
        kwargs_.push_back({name, convert(inputs_[i], args[i].type())});
      } else if (name == "device" && inputs_[i].isNone() && !has_self) {
        kwargs_.push_back({name, ir::Device{}});
      } else if (name == "pin_memory" && inputs_[i].isNone()) {
        kwargs_.push_back({name, false});
      }
    }
  }

  // ---- shapes
  std::string location_text() const { return location_ ? SourceLocator::describe(*location_) : ""; }

  ops::SymValue infer(ir::Node* node) {
    const ops::ValueOf value_of = [this](const ir::Node* n) -> const ops::SymValue& { return t_.graph().value(n); };
    if (const ops::ShapeRule* rule = ops::find_shape_rule(node->target)) {
      ops::RuleContext ctx(t_.env(), *node, value_of, [this](const ir::Node&) { return location_text(); });
      try {
        return (*rule)(ctx);
      } catch (const ops::RuleError& e) {
        t_.notes().push_back("node " + node->name + ": " + e.what() + "; used LibTorch's meta kernel instead");
      }
    }
    if (auto self = inplace_self(); self >= 0 && input_is_tensor(size_t(self)))
      return value_of(args_.at(size_t(self)).node());
    return infer_with_meta(node);
  }

  /// The index of the argument an in-place / out= op writes and returns, or -1.
  int inplace_self() const {
    const auto& rets = schema_.returns();
    if (rets.size() != 1 || !rets[0].alias_info() || !rets[0].alias_info()->isWrite()) return -1;
    const auto& args = schema_.arguments();
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i].alias_info() && args[i].alias_info()->beforeSets() == rets[0].alias_info()->beforeSets())
        return int(i);
    return -1;
  }
  bool input_is_tensor(size_t i) const { return i < args_.size() && args_[i].node(); }

  /// No shape rule: run LibTorch's Meta kernel (or the composite kernel on
  /// meta tensors) at the example sizes. Symbolic inputs are specialized.
  ops::SymValue infer_with_meta(ir::Node* node) {
    bool symbolic_input = false;
    const auto origin = [&] {
      symbolic::Provenance p;
      p.node = node->name;
      p.op = torch_op_label(name_);
      p.rule = "no ExportLens shape rule: specialized to the example sizes";
      p.location = location_text();
      return p;
    };
    auto concrete = [&](const Expr& e) -> int64_t {
      if (auto v = e.as_integer()) return *v;
      symbolic_input = true;
      return t_.env().specialize(e, origin());
    };
    std::function<c10::IValue(const c10::IValue&)> to_meta = [&](const c10::IValue& v) -> c10::IValue {
      if (v.isTensor()) {
        const at::Tensor& x = v.toTensor();
        if (!x.defined()) return v;
        std::vector<int64_t> sizes;
        c10::ScalarType dtype = x.scalar_type();
        if (auto* f = FakeTensorImpl::of(x)) {
          for (const auto& e : f->sym().sizes) sizes.push_back(concrete(e));
        } else {
          sizes = x.sizes().vec();
        }
        std::vector<int64_t> strides(sizes.size(), 1);
        for (size_t i = sizes.size(); i-- > 1;) strides[i - 1] = strides[i] * std::max<int64_t>(sizes[i], 1);
        return at::empty_strided(sizes, strides, at::TensorOptions().dtype(dtype).device(c10::kMeta));
      }
      if (v.isSymInt()) {
        const c10::SymInt s = v.toSymInt();
        if (auto* n = s.is_heap_allocated() ? TraceSymNode::of(s.toSymNode()) : nullptr) return concrete(n->expr());
        return s.guard_int(__FILE__, __LINE__);
      }
      if (v.isTensorList()) {
        std::vector<at::Tensor> out;
        for (const at::Tensor& x : v.toTensorVector()) out.push_back(to_meta(x).toTensor());
        return out;
      }
      if (v.isList()) {
        c10::impl::GenericList out(v.toList().elementType());
        for (const c10::IValue& item : v.toListRef()) out.push_back(to_meta(item));
        return out;
      }
      return v;
    };
    torch::jit::Stack meta;
    for (const auto& v : inputs_) meta.push_back(to_meta(v));
    try {
      op_.callBoxed(meta);
    } catch (const std::exception& e) {
      raise(t_, TraceError("unsupported", "RuntimeError",
                           "ExportLens has no shape rule for " + torch_op_label(name_) +
                               " and LibTorch could not compute its output shape on meta tensors: " +
                               first_line(e.what())));
    }
    if (symbolic_input)
      t_.notes().push_back("node " + node->name + ": no ExportLens shape rule for " + torch_op_label(name_) +
                           "; symbolic input sizes were specialized to the example values");
    std::vector<ops::SymValue> outs;
    for (const auto& v : meta) outs.push_back(from_meta(v));
    return outs.size() == 1 ? outs[0] : ops::SymValue::list(std::move(outs));
  }

  static std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

  static ops::SymValue from_meta(const c10::IValue& v) {
    if (v.isTensor()) {
      ops::SymTensor t;
      t.dtype = runtime::from_torch(v.toTensor().scalar_type());
      for (int64_t s : v.toTensor().sizes()) t.sizes.emplace_back(s);
      return ops::SymValue::of(std::move(t));
    }
    if (v.isTensorList()) {
      std::vector<ops::SymValue> items;
      for (const at::Tensor& x : v.toTensorVector()) items.push_back(from_meta(x));
      return ops::SymValue::list(std::move(items));
    }
    if (v.isInt()) return ops::SymValue::of_int(Expr(v.toInt()));
    if (v.isBool()) return ops::SymValue::of_bool(Expr::boolean(v.toBool()));
    if (v.isDouble()) return ops::SymValue::of_float(v.toDouble());
    return ops::SymValue::none();
  }

  // ---- outputs
  c10::IValue output_value(const c10::Argument& ret, const ops::SymValue& value, ir::Node* node, int self_index) {
    if (self_index >= 0) {  // in-place: the written argument, now holding `node`
      const c10::IValue& written = inputs_[size_t(self_index)];
      t_.rebind(written.toTensor(), node);
      return written;
    }
    switch (value.kind) {
      case ops::SymValue::Kind::Tensor: return t_.make_fake(node, value.tensor);
      case ops::SymValue::Kind::Int: {
        SymRecipe r;
        r.node = node;
        return c10::IValue(t_.sym_int(value.scalar, r));
      }
      case ops::SymValue::Kind::Bool: {
        if (ret.type()->kind() == c10::TypeKind::BoolType) {
          c10::SymBool b = t_.sym_bool(value.scalar, SymRecipe{SymRecipe::Kind::Value, node});
          return b.guard_bool(__FILE__, __LINE__);
        }
        return c10::IValue(t_.sym_bool(value.scalar, SymRecipe{SymRecipe::Kind::Value, node}));
      }
      case ops::SymValue::Kind::Float: return value.number;
      case ops::SymValue::Kind::List: {
        std::vector<at::Tensor> tensors;
        for (size_t i = 0; i < value.items.size(); ++i) {
          ir::Node* g = getitem(node, int64_t(i), value.items[i]);
          if (!value.items[i].is_tensor())
            raise(t_, TraceError("unsupported", "RuntimeError", torch_op_label(name_) + ": list output of non-tensors"));
          tensors.push_back(t_.make_fake(g, value.items[i].tensor));
        }
        return tensors;
      }
      case ops::SymValue::Kind::None: return c10::IValue();
    }
    return c10::IValue();
  }

  /// A size made of data-dependent values must be >= 0: torch's fake tensors
  /// check that when such a tensor is created (a runtime assert, and the
  /// symbol's range starts at 0).
  void assert_sizes_nonnegative(const ops::SymValue& v, ir::Node* node) {
    if (v.kind == ops::SymValue::Kind::List)
      for (const auto& item : v.items) assert_sizes_nonnegative(item, node);
    if (!v.is_tensor()) return;
    for (const Expr& size : v.tensor.sizes) {
      if (!t_.env().has_unbacked(size)) continue;
      symbolic::Provenance origin;
      origin.node = node->name;
      origin.op = torch_op_label(name_);
      origin.rule = "sizes are non-negative";
      origin.location = location_text();
      t_.env().check(Expr::ge(size, Expr(0)), origin);
    }
  }

  // ---- layouts
  /// The output's strides (tracked views; fresh outputs of contiguous inputs
  /// are contiguous) and torch's contiguity probe on them (make_fx's
  /// tensor_meta), which may add guards (`Ne(s - 1, 1)` for a contiguous
  /// [s - 1] output too).
  void track_layout(ir::Node* node, const ops::SymValue& value) {
    if (!value.is_tensor()) return;  // multi-output ops (split, ...) are not tracked
    const std::vector<Expr>& sizes = value.tensor.sizes;
    std::optional<Strides> out;
    if (const int self = inplace_self(); self >= 0) {
      if (ir::Node* n = args_.at(size_t(self)).node()) out = t_.strides_of(n);
    } else if (is_view()) {
      ir::Node* base = args_.empty() ? nullptr : args_[0].node();
      if (auto in = base ? t_.strides_of(base) : std::nullopt)
        out = view_strides(name_.name + "." + name_.overload, int_arguments(), *in, sizes.size());
    } else if (inputs_contiguous()) {
      out = contiguous_strides(sizes);
    }
    t_.set_strides(node, out);
    if (!out) return;
    const bool contiguous = *out == contiguous_strides(sizes);
    if (contiguous && symbolic::contiguous_probe_is_quiet(t_.env(), sizes)) return;
    symbolic::Provenance origin;
    origin.node = node->name;
    origin.op = torch_op_label(name_);
    origin.rule = "tensor_meta: is_contiguous";
    origin.location = location_text();
    if (contiguous) symbolic::probe_contiguous(t_.env(), sizes, origin);
    else probe_contiguity(t_.env(), sizes, *out, origin);
  }

  bool is_view() const {
    const auto& rets = schema_.returns();
    return rets.size() == 1 && rets[0].alias_info() && !rets[0].alias_info()->isWrite();
  }

  /// The arguments after self as plain integers (nullopt where not one).
  std::vector<std::optional<int64_t>> int_arguments() const {
    std::vector<std::optional<int64_t>> out;
    for (size_t i = 1; i < inputs_.size(); ++i) {
      const c10::IValue& v = inputs_[i];
      if (v.isInt()) out.emplace_back(v.toInt());
      else if (v.isSymInt()) out.push_back(v.toSymInt().maybe_as_int());
      else out.emplace_back(std::nullopt);
    }
    return out;
  }

  /// Every tensor input has contiguous tracked strides.
  bool inputs_contiguous() const {
    for (ir::Node* n : input_nodes_) {
      const ops::SymValue& v = t_.graph().value(n);
      if (!v.is_tensor()) continue;
      const auto s = t_.strides_of(n);
      if (!s || *s != contiguous_strides(v.tensor.sizes)) return false;
    }
    return true;
  }

  ir::Node* getitem(ir::Node* parent, int64_t index, const ops::SymValue& value) {
    ir::Node* g = t_.graph().call(ir::Target("_operator.getitem"), "getitem", {parent, index});
    g->meta = parent->meta;
    t_.graph().set_value(g, value);
    return g;
  }

  void record_call() {
    convert_arguments();
    const ir::Target target("torch.ops." + torch_op_label(name_));
    ir::Node* node = t_.graph().call(target, name_.name, args_, kwargs_);
    stamp(node);
    const ops::SymValue value = infer(node);
    assert_sizes_nonnegative(value, node);
    t_.graph().set_value(node, value);
    track_layout(node, value);

    const auto& rets = schema_.returns();
    if (rets.size() == 1) {
      stack_.push_back(output_value(rets[0], value, node, inplace_self()));
      return;
    }
    if (rets.empty()) return;
    if (value.kind != ops::SymValue::Kind::List || value.items.size() != rets.size())
      raise(t_, TraceError("internal", "RuntimeError",
                           "the shape rule of " + torch_op_label(name_) + " gave " + value.str() + " for " +
                               std::to_string(rets.size()) + " outputs"));
    for (size_t i = 0; i < rets.size(); ++i) {
      ir::Node* g = getitem(node, int64_t(i), value.items[i]);
      stack_.push_back(output_value(rets[i], value.items[i], g, -1));
    }
  }

  /// item() / is_nonzero(): a data-dependent value, an unbacked symbol.
  void record_item() {
    const at::Tensor& self = inputs_.at(0).toTensor();
    args_ = {convert(inputs_[0], schema_.arguments()[0].type())};
    const c10::ScalarType dtype = self.scalar_type();
    const bool is_bool = dtype == c10::ScalarType::Bool || name_.name == "is_nonzero";
    if (c10::isFloatingType(dtype) && !is_bool)
      raise(t_, TraceError("unsupported", "RuntimeError",
                           "item() of a floating-point tensor makes a data-dependent float; the C++ tracer supports "
                           "integer and bool values only" +
                               call_site_text(location_)));
    const ir::Target target(name_.name == "is_nonzero" ? "torch.ops.aten.item.default"
                                                       : "torch.ops." + torch_op_label(name_));
    ir::Node* node = t_.graph().call(target, "item", args_);
    stamp(node);
    symbolic::Provenance origin;
    origin.node = node->name;
    origin.op = "aten.item.default";
    origin.rule = "item(): data-dependent value";
    origin.location = location_text();
    const Expr u = t_.env().create_unbacked(origin);
    t_.define_unbacked(u, node);
    if (!is_bool) {
      t_.graph().set_value(node, ops::SymValue::of_int(u));
      SymRecipe r;
      r.node = node;
      stack_.push_back(c10::IValue(c10::Scalar(t_.sym_int(u, r))));
      return;
    }
    // A bool tensor's value: u in [0, 1], true when Eq(u, 1) (as torch reads it).
    t_.env().constrain_range(u, symbolic::ValueRange::between(symbolic::Num::integer(0), symbolic::Num::integer(1)),
                             origin);
    t_.graph().set_value(node, ops::SymValue::of_int(u));
    SymRecipe r;
    r.node = node;
    auto value = c10::make_intrusive<TraceSymNode>(t_.id(), TraceSymNode::Kind::Int, u, r);
    c10::SymNode truth = value->eq(value->wrap_int(1));  // Eq(u0, 1)
    TraceSymNode::of(truth)->from_tensor_bool = true;
    const c10::SymBool b{truth};
    if (name_.name == "is_nonzero") {
      stack_.push_back(b.guard_bool(__FILE__, __LINE__));
      return;
    }
    stack_.push_back(c10::IValue(c10::Scalar(b)));
  }

  void stamp(ir::Node* node) {
    if (location_) node->meta.stack_trace = SourceLocator::stack_trace_text(*location_);
    t_.stamp_scope(node, input_nodes_);
  }

  Tracer& t_;
  const c10::OperatorHandle& op_;
  const c10::FunctionSchema& schema_;
  torch::jit::Stack& stack_;
  OpName name_;
  std::vector<c10::IValue> inputs_;
  std::vector<ir::Argument> args_;
  std::vector<ir::NamedArgument> kwargs_;
  std::vector<ir::Node*> input_nodes_;
  std::optional<ir::SourceLocation> location_;
};

void Tracer::record(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  Internal internal(*this);
  OpRecorder(*this, op, stack).run();
}

}  // namespace exportlens::trace
