#pragma once
// ExportLens SDK: write a LibTorch C++ model that ExportLens can trace into a
// torch.export-style ExportedProgram (the C++ counterpart of
// torch.export.export).
//
//   #include "exportlens_sdk.h"
//   namespace el = exportlens::sdk;
//
//   struct Net : torch::nn::Module {
//     el::Linear fc1{this, "fc1", 10, 5}, fc2{this, "fc2", 5, 2};
//     torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
//   };
//   EXPORTLENS_MODEL(Net, "net").inputs({"x"}, [] { return el::Inputs{torch::randn({2, 10})}; });
//
// Build it as a shared library against the LibTorch ExportLens uses and run
// `exportlens trace libnet.so` (see README.md).
//
// What the SDK adds to plain LibTorch, and why:
//  * Linear / Conv2d / BatchNorm2d / LayerNorm / ReLU modules that call the same ATen ops
//    as their Python namesakes (C++'s torch::nn::Linear builds addmm by hand,
//    Python's records aten.linear), under a module scope, so a port's graph
//    matches torch.export's;
//  * call(module, args...): any submodule call under its module scope;
//  * check / check_is_size / cond / map: torch._check, torch._check_is_size,
//    torch.cond and torch.map; sym(a) >= 10 builds the symbolic condition
//    (c10::SymInt's own comparisons return a plain bool, i.e. guard);
//  * item_int / tolist: data-dependent values as symbolic ints;
//  * index(x, {Slice(), Slice(2, None)}): indexing recorded as Python's
//    x[:, 2:] records it (every dimension's slice);
//  * EXPORTLENS_MODEL: registers a model with its example inputs and spec;
//  * EXPORTLENS_DECOMPOSITIONS: registers a decomposition table whose rules
//    are LibTorch functions (traced into the lowered graph when they apply):
//      EXPORTLENS_DECOMPOSITIONS("my_double_conv2d", "conv2d as 2 * convolution")
//          .rule("aten.conv2d.default", [](const el::OpArgs& a) -> torch::Tensor {
//            return 2 * at::convolution(a.tensor(0), a.tensor(1), a.optional_tensor(2), a.ints(3),
//                                       a.ints(4), a.ints(5), false, {0, 0}, a.integer(6));
//          });
//
// Everything here also runs eagerly on real tensors when no trace is active.
#include <ATen/TensorIndexing.h>
#include <torch/nn/init.h>
#include <torch/nn/module.h>
#include <torch/version.h>

#include <cmath>
#include <limits>
#include <memory>
#include <source_location>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "exportlens_sdk_hooks.h"

namespace exportlens::sdk {

using at::indexing::None;
using at::indexing::Slice;
using Inputs = std::vector<c10::IValue>;

inline Site site_of(const std::source_location& l) { return {l.file_name(), l.line(), l.function_name()}; }

// ---- module scopes ------------------------------------------------------------

/// While alive, ops belong to `module` (one nn_module_stack entry).
class ModuleScope {
 public:
  explicit ModuleScope(const torch::nn::Module& module, std::source_location loc = std::source_location::current())
      : active_(tracing()) {
    if (active_) tracer_hooks()->enter_module(module, site_of(loc));
  }
  ~ModuleScope() {
    if (active_) tracer_hooks()->exit_module();
  }
  ModuleScope(const ModuleScope&) = delete;
  ModuleScope& operator=(const ModuleScope&) = delete;

 private:
  bool active_;
};

/// module.forward(args...) under the module's scope; `module` is a module or
/// a pointer / ModuleHolder to one.
template <class M, class... Args>
auto call(M& module, Args&&... args) {
  if constexpr (std::is_base_of_v<torch::nn::Module, M>) {
    ModuleScope scope(module);
    return module.forward(std::forward<Args>(args)...);
  } else {
    ModuleScope scope(*module);
    return module->forward(std::forward<Args>(args)...);
  }
}

// ---- modules that record what their Python namesakes record -----------------

namespace detail {
inline void init_like_python(torch::Tensor& weight, torch::Tensor& bias) {
  // Python's reset_parameters: kaiming_uniform_(a=sqrt(5)), bias U(-1/sqrt(fan_in), ..).
  torch::NoGradGuard no_grad;
  torch::nn::init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    const auto fan_in = std::get<0>(torch::nn::init::_calculate_fan_in_and_fan_out(weight));
    const double bound = fan_in > 0 ? 1.0 / std::sqrt(double(fan_in)) : 0.0;
    torch::nn::init::uniform_(bias, -bound, bound);
  }
}

/// A submodule registered in its parent and called through its scope.
template <class Impl>
class Holder {
 public:
  template <class... A>
  Holder(torch::nn::Module* parent, const std::string& name, A&&... args)
      : impl_(parent->register_module(name, std::make_shared<Impl>(std::forward<A>(args)...))) {}
  template <class... A>
  auto operator()(A&&... args) {
    ModuleScope scope(*impl_);
    return impl_->forward(std::forward<A>(args)...);
  }
  Impl* operator->() const { return impl_.get(); }
  Impl& operator*() const { return *impl_; }
  const std::shared_ptr<Impl>& ptr() const { return impl_; }

 private:
  std::shared_ptr<Impl> impl_;
};
}  // namespace detail

/// torch.nn.Linear: records aten.linear (C++'s torch::nn::Linear records addmm/matmul).
struct LinearImpl : torch::nn::Module {
  LinearImpl(int64_t in_features, int64_t out_features, bool with_bias = true)
      : torch::nn::Module("torch.nn.modules.linear.Linear") {
    weight = register_parameter("weight", torch::empty({out_features, in_features}));
    bias = with_bias ? register_parameter("bias", torch::empty({out_features})) : torch::Tensor();
    detail::init_like_python(weight, bias);
  }
  torch::Tensor forward(const torch::Tensor& x) { return torch::linear(x, weight, bias); }
  torch::Tensor weight, bias;
};
using Linear = detail::Holder<LinearImpl>;

/// torch.nn.Conv2d (square kernel, groups 1): records aten.conv2d.
struct Conv2dImpl : torch::nn::Module {
  Conv2dImpl(int64_t in_channels, int64_t out_channels, int64_t kernel, int64_t stride = 1, int64_t padding = 0)
      : torch::nn::Module("torch.nn.modules.conv.Conv2d"), stride_(stride), padding_(padding) {
    weight = register_parameter("weight", torch::empty({out_channels, in_channels, kernel, kernel}));
    bias = register_parameter("bias", torch::empty({out_channels}));
    detail::init_like_python(weight, bias);
  }
  torch::Tensor forward(const torch::Tensor& x) {
    // F.conv2d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)
    return torch::conv2d(x, weight, bias, {stride_, stride_}, {padding_, padding_}, {1, 1}, 1);
  }
  torch::Tensor weight, bias;
  int64_t stride_, padding_;
};
using Conv2d = detail::Holder<Conv2dImpl>;

/// torch.nn.BatchNorm2d in training mode: num_batches_tracked.add_(1), aten.batch_norm.
struct BatchNorm2dImpl : torch::nn::Module {
  explicit BatchNorm2dImpl(int64_t features, double eps = 1e-5, double momentum = 0.1)
      : torch::nn::Module("torch.nn.modules.batchnorm.BatchNorm2d"), eps_(eps), momentum_(momentum) {
    weight = register_parameter("weight", torch::ones({features}));
    bias = register_parameter("bias", torch::zeros({features}));
    running_mean = register_buffer("running_mean", torch::zeros({features}));
    running_var = register_buffer("running_var", torch::ones({features}));
    num_batches_tracked = register_buffer("num_batches_tracked", torch::tensor(int64_t{0}));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    if (is_training()) num_batches_tracked.add_(1);
    return torch::batch_norm(x, weight, bias, running_mean, running_var, is_training(), momentum_, eps_, false);
  }
  torch::Tensor weight, bias, running_mean, running_var, num_batches_tracked;
  double eps_, momentum_;
};
using BatchNorm2d = detail::Holder<BatchNorm2dImpl>;

/// torch.nn.LayerNorm over the last dimension: records aten.layer_norm.
struct LayerNormImpl : torch::nn::Module {
  explicit LayerNormImpl(int64_t features, double eps = 1e-5)
      : torch::nn::Module("torch.nn.modules.normalization.LayerNorm"), features_(features), eps_(eps) {
    weight = register_parameter("weight", torch::ones({features}));
    bias = register_parameter("bias", torch::zeros({features}));
  }
  torch::Tensor forward(const torch::Tensor& x) { return torch::layer_norm(x, {features_}, weight, bias, eps_); }
  torch::Tensor weight, bias;
  int64_t features_;
  double eps_;
};
using LayerNorm = detail::Holder<LayerNormImpl>;

/// torch.nn.ReLU: records aten.relu.
struct ReLUImpl : torch::nn::Module {
  ReLUImpl() : torch::nn::Module("torch.nn.modules.activation.ReLU") {}
  torch::Tensor forward(const torch::Tensor& x) { return torch::relu(x); }
};
using ReLU = detail::Holder<ReLUImpl>;

// ---- symbolic conditions, checks, data-dependent values ---------------------

/// A SymInt whose comparisons build a symbolic condition instead of guarding:
/// check(sym(a) >= 10).
struct Sym {
  c10::SymInt value;
};
inline Sym sym(c10::SymInt v) { return {std::move(v)}; }
inline c10::SymBool operator>=(const Sym& a, const c10::SymInt& b) { return a.value.sym_ge(b); }
inline c10::SymBool operator>(const Sym& a, const c10::SymInt& b) { return a.value.sym_gt(b); }
inline c10::SymBool operator<=(const Sym& a, const c10::SymInt& b) { return a.value.sym_le(b); }
inline c10::SymBool operator<(const Sym& a, const c10::SymInt& b) { return a.value.sym_lt(b); }
inline c10::SymBool operator==(const Sym& a, const c10::SymInt& b) { return a.value.sym_eq(b); }
inline c10::SymBool operator!=(const Sym& a, const c10::SymInt& b) { return a.value.sym_ne(b); }

/// torch._check(condition): tells the tracer the condition holds (refining
/// ranges of data-dependent values); an assertion when run eagerly.
inline void check(const c10::SymBool& condition, const std::string& message = "",
                  std::source_location loc = std::source_location::current()) {
  if (tracing()) return tracer_hooks()->check(condition, message, site_of(loc));
  if (!condition.guard_bool(loc.file_name(), loc.line()))
    throw std::runtime_error(message.empty() ? "exportlens::sdk::check failed" : message);
}

/// torch._check_is_size(value): value >= 0 and usable as a size.
inline void check_is_size(const c10::SymInt& value, std::source_location loc = std::source_location::current()) {
  if (tracing()) return tracer_hooks()->check_is_size(value, site_of(loc));
  if (value.guard_int(loc.file_name(), loc.line()) < 0) throw std::runtime_error("check_is_size: negative size");
}

/// x.item() as an int (an unbacked symbol while tracing).
inline c10::SymInt item_int(const at::Tensor& t) { return t.item().toSymInt(); }

/// y.tolist() of a 1-D integer tensor: unbind, then item() per element.
inline std::vector<c10::SymInt> tolist(const at::Tensor& t) {
  std::vector<c10::SymInt> out;
  for (const auto& e : t.unbind(0)) out.push_back(e.item().toSymInt());
  return out;
}

/// Python-style indexing: x[:, 2:] records a slice for every dimension, as
/// torch.export's graphs show (LibTorch's own indexing skips full slices).
inline at::Tensor index(const at::Tensor& x, const std::vector<at::indexing::TensorIndex>& indices) {
  // y[a] is select(y, 0, a), as Python records it (LibTorch's C++ indexing
  // adds a bounds check Python's does not).
  if (indices.size() == 1 && indices[0].is_integer()) return x.select_symint(0, indices[0].integer());
  // An open end is Python's sys.maxsize (LibTorch's Slice uses a smaller sentinel).
  std::vector<at::indexing::TensorIndex> python;
  for (const auto& i : indices) {
    if (!i.is_slice()) {
      python.push_back(i);
      continue;
    }
    const auto& s = i.slice();
    const bool open_end = s.stop().maybe_as_int() == at::indexing::INDEX_MAX;
    python.emplace_back(Slice(s.start(), open_end ? c10::SymInt(std::numeric_limits<int64_t>::max()) : s.stop(),
                              s.step()));
  }
  return at::indexing::get_item(x, python, /*disable_slice_optimization=*/true);
}

// ---- control flow --------------------------------------------------------------

namespace detail {
inline Tensors as_list(const at::Tensor& t) { return {t}; }
inline Tensors as_list(Tensors v) { return v; }
template <class... T>
Tensors as_list(const std::tuple<T...>& t) {
  return std::apply([](const auto&... x) { return Tensors{x...}; }, t);
}

/// Calls f with the tensors spread over its parameters (or as one list).
template <class F>
auto spread(F& f, const Tensors& v) {
  if constexpr (std::is_invocable_v<F&, const Tensors&>) {
    return f(v);
  } else if constexpr (std::is_invocable_v<F&, at::Tensor>) {
    return f(v.at(0));
  } else if constexpr (std::is_invocable_v<F&, at::Tensor, at::Tensor>) {
    return f(v.at(0), v.at(1));
  } else if constexpr (std::is_invocable_v<F&, at::Tensor, at::Tensor, at::Tensor>) {
    return f(v.at(0), v.at(1), v.at(2));
  } else {
    static_assert(std::is_invocable_v<F&, at::Tensor, at::Tensor, at::Tensor, at::Tensor>,
                  "branch/body functions take 1-4 tensors or one std::vector<at::Tensor>");
    return f(v.at(0), v.at(1), v.at(2), v.at(3));
  }
}

template <class R>
R from_list(const Tensors& v) {
  if constexpr (std::is_same_v<R, at::Tensor>) {
    return v.at(0);
  } else {
    return v;
  }
}

inline bool eager_pred(const c10::IValue& p, const std::source_location& loc) {
  if (p.isTensor()) return p.toTensor().item<bool>();
  if (p.isSymBool()) return p.toSymBool().guard_bool(loc.file_name(), loc.line());
  return p.toBool();
}
}  // namespace detail

/// torch.cond(pred, true_fn, false_fn, operands): both branches become
/// subgraphs. pred: bool, c10::SymBool or a one-element bool tensor. The
/// branches take the operands (1-4 tensors, or one std::vector) and return a
/// tensor, a std::vector or a std::tuple of tensors.
template <class TrueFn, class FalseFn>
auto cond(const c10::IValue& pred, TrueFn on_true, FalseFn on_false, const Tensors& operands,
          std::source_location loc = std::source_location::current()) {
  using R = std::conditional_t<std::is_same_v<std::decay_t<decltype(detail::spread(on_true, operands))>, at::Tensor>,
                               at::Tensor, Tensors>;
  if (!tracing()) {
    return R(detail::from_list<R>(detail::as_list(detail::eager_pred(pred, loc) ? detail::spread(on_true, operands)
                                                                                 : detail::spread(on_false, operands))));
  }
  const BranchFn t = [&](const Tensors& v) { return detail::as_list(detail::spread(on_true, v)); };
  const BranchFn f = [&](const Tensors& v) { return detail::as_list(detail::spread(on_false, v)); };
  return detail::from_list<R>(tracer_hooks()->cond(pred, t, f, operands, site_of(loc)));
}

/// torch._higher_order_ops.map(body, xs, *args): body(x, args...) for every
/// x along xs's first dimension; results are stacked.
template <class Body>
auto map(Body body, const at::Tensor& xs, const Tensors& args = {},
         std::source_location loc = std::source_location::current()) {
  auto call = [&](const Tensors& slices, const Tensors& rest) {
    Tensors all = slices;
    all.insert(all.end(), rest.begin(), rest.end());
    return detail::as_list(detail::spread(body, all));
  };
  using R = std::conditional_t<
      std::is_same_v<std::decay_t<decltype(detail::spread(body, std::declval<const Tensors&>()))>, at::Tensor>,
      at::Tensor, Tensors>;
  if (!tracing()) {
    std::vector<Tensors> per_step;
    for (const auto& x : xs.unbind(0)) per_step.push_back(call({x}, args));
    Tensors stacked;
    for (size_t i = 0; !per_step.empty() && i < per_step[0].size(); ++i) {
      Tensors column;
      for (const auto& step : per_step) column.push_back(step[i]);
      stacked.push_back(at::stack(column));
    }
    return detail::from_list<R>(stacked);
  }
  const MapBodyFn fn = [&](const Tensors& slices, const Tensors& rest) { return call(slices, rest); };
  return detail::from_list<R>(tracer_hooks()->map(fn, {xs}, args, site_of(loc)));
}

// ---- models ----------------------------------------------------------------------

/// One traceable model: how to build it, call it, and example inputs.
struct ModelDef {
  std::string name;
  std::string description;
  std::vector<std::string> arg_names;  // forward's parameter names (placeholder names)
  std::function<std::shared_ptr<torch::nn::Module>()> make;
  std::function<c10::IValue(torch::nn::Module&, const Inputs&)> forward;
  std::function<Inputs()> example_inputs;
  std::string dynamic_shapes;  // the spec in Python syntax; empty: static
  bool strict = false;
};

namespace detail {
template <class T>
T from_ivalue(const c10::IValue& v) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, at::Tensor>) return v.toTensor();
  else if constexpr (std::is_same_v<D, int64_t>) return v.toInt();
  else if constexpr (std::is_same_v<D, bool>) return v.toBool();
  else if constexpr (std::is_same_v<D, double>) return v.toDouble();
  else if constexpr (std::is_same_v<D, c10::SymInt>) return v.toSymInt();
  else if constexpr (std::is_same_v<D, Tensors>) return v.toTensorVector();
  else if constexpr (std::is_same_v<D, c10::IValue>) return v;
  else static_assert(sizeof(D) == 0, "forward() parameters: Tensor, int64_t, bool, double, SymInt, vector<Tensor>, IValue");
}

inline c10::IValue to_ivalue(const at::Tensor& t) { return t; }
inline c10::IValue to_ivalue(int64_t v) { return v; }
inline c10::IValue to_ivalue(bool v) { return v; }
inline c10::IValue to_ivalue(double v) { return v; }
inline c10::IValue to_ivalue(const c10::SymInt& v) { return v; }
inline c10::IValue to_ivalue(const c10::IValue& v) { return v; }
template <class T>
c10::IValue to_ivalue(const std::vector<T>& v) {
  std::vector<c10::IValue> items;
  for (const auto& x : v) items.push_back(to_ivalue(x));
  return c10::ivalue::Tuple::create(std::move(items));
}
template <class... T>
c10::IValue to_ivalue(const std::tuple<T...>& t) {
  return std::apply([](const auto&... x) { return c10::ivalue::Tuple::create({to_ivalue(x)...}); }, t);
}

template <class M, class R, class... A, size_t... I>
c10::IValue invoke(M& m, R (M::*f)(A...), const Inputs& in, std::index_sequence<I...>) {
  return to_ivalue((m.*f)(from_ivalue<A>(in[I])...));
}

template <class M, class R, class... A>
auto adapt(R (M::*f)(A...)) {
  return [f](torch::nn::Module& m, const Inputs& in) -> c10::IValue {
    if (in.size() != sizeof...(A))
      throw std::invalid_argument("forward() takes " + std::to_string(sizeof...(A)) + " inputs, got " +
                                  std::to_string(in.size()));
    return invoke(static_cast<M&>(m), f, in, std::index_sequence_for<A...>{});
  };
}

inline std::vector<ModelDef>& local_models() {
  static std::vector<ModelDef> models;
  return models;
}
}  // namespace detail

/// Builds a ModelDef for module type M (default-constructible, with a forward()).
template <class M>
class ModelBuilder {
 public:
  explicit ModelBuilder(std::string name) {
    def_.name = std::move(name);
    def_.make = [] { return std::make_shared<M>(); };
    def_.forward = detail::adapt(&M::forward);
  }
  /// forward's parameter names and a function making example inputs.
  ModelBuilder& inputs(std::vector<std::string> names, std::function<Inputs()> make) {
    def_.arg_names = std::move(names);
    def_.example_inputs = std::move(make);
    return *this;
  }
  ModelBuilder& dynamic_shapes(std::string spec) {
    def_.dynamic_shapes = std::move(spec);
    return *this;
  }
  ModelBuilder& describe(std::string text) {
    def_.description = std::move(text);
    return *this;
  }
  ModelBuilder& strict(bool on = true) {
    def_.strict = on;
    return *this;
  }
  const ModelDef& def() const { return def_; }

 private:
  ModelDef def_;
};

template <class M>
ModelBuilder<M> model(std::string name) {
  return ModelBuilder<M>(std::move(name));
}

/// Adds a built model to this library's list (what EXPORTLENS_MODEL does).
struct ModelRegistration {
  template <class M>
  ModelRegistration(const ModelBuilder<M>& b) {  // NOLINT: the macro's assignment
    detail::local_models().push_back(b.def());
  }
};

// ---- decomposition tables ------------------------------------------------------

/// The arguments of one op call a decomposition rule lowers, by the op's
/// schema position, with the schema's defaults filled in. Tensors are the
/// tracer's fakes (shapes and dtypes of the node being lowered).
struct OpArgs {
  std::string op;  // "aten.conv2d.default"
  std::vector<c10::IValue> values;

  size_t size() const { return values.size(); }
  const c10::IValue& operator[](size_t i) const { return values.at(i); }
  at::Tensor tensor(size_t i) const { return values.at(i).toTensor(); }
  /// An undefined tensor for None.
  at::Tensor optional_tensor(size_t i) const { return values.at(i).isNone() ? at::Tensor() : tensor(i); }
  std::vector<int64_t> ints(size_t i) const { return values.at(i).toIntVector(); }
  int64_t integer(size_t i) const { return values.at(i).toInt(); }
  double number(size_t i) const { return values.at(i).isInt() ? double(values.at(i).toInt()) : values.at(i).toDouble(); }
  bool boolean(size_t i) const { return values.at(i).toBool(); }
};

/// A rule: plain LibTorch code computing the op's result (a tensor, or a
/// tuple IValue for multi-output ops). ExportLens traces it on the call's
/// shapes and splices the recorded ATen calls into the lowered graph, where
/// they decompose further by the rest of the table.
using RuleFn = std::function<c10::IValue(const OpArgs&)>;

struct RuleDef {
  std::string op;         // "aten.conv2d.default"
  std::string reference;  // what it follows (shown with the table)
  RuleFn fn;
};

/// A named table: `base` (a registered table, "core" by default) with these
/// rules added or replaced.
struct DecompositionDef {
  std::string name;
  std::string description;
  std::string base = "core";
  std::vector<RuleDef> rules;
};

namespace detail {
inline std::vector<DecompositionDef>& local_tables() {
  static std::vector<DecompositionDef> tables;
  return tables;
}
}  // namespace detail

class DecompositionsBuilder {
 public:
  DecompositionsBuilder(std::string name, std::string description) {
    def_.name = std::move(name);
    def_.description = std::move(description);
  }
  /// Start from another registered table instead of "core".
  DecompositionsBuilder& base(std::string table) {
    def_.base = std::move(table);
    return *this;
  }
  /// Adds (or overrides) the rule for `op` ("aten.conv2d.default").
  DecompositionsBuilder& rule(std::string op, RuleFn fn, std::string reference = "") {
    def_.rules.push_back({std::move(op), std::move(reference), std::move(fn)});
    return *this;
  }
  const DecompositionDef& def() const { return def_; }

 private:
  DecompositionDef def_;
};

/// Adds a built table to this library's list (what EXPORTLENS_DECOMPOSITIONS does).
struct DecompositionsRegistration {
  DecompositionsRegistration(const DecompositionsBuilder& b) {  // NOLINT: the macro's assignment
    detail::local_tables().push_back(b.def());
  }
};

}  // namespace exportlens::sdk

#define EXPORTLENS_SDK_CONCAT2(a, b) a##b
#define EXPORTLENS_SDK_CONCAT(a, b) EXPORTLENS_SDK_CONCAT2(a, b)
/// EXPORTLENS_MODEL(Type, "name").inputs({"x"}, [] { ... }).dynamic_shapes("...");
#define EXPORTLENS_MODEL(Type, Name)                                                          \
  static ::exportlens::sdk::ModelRegistration EXPORTLENS_SDK_CONCAT(exportlens_model_, __LINE__) = \
      ::exportlens::sdk::model<Type>(Name)
/// EXPORTLENS_DECOMPOSITIONS("name", "what it does").rule("aten.conv2d.default", fn);
#define EXPORTLENS_DECOMPOSITIONS(Name, Description)                                                     \
  static ::exportlens::sdk::DecompositionsRegistration EXPORTLENS_SDK_CONCAT(exportlens_tables_, __LINE__) = \
      ::exportlens::sdk::DecompositionsBuilder(Name, Description)

// The entry points ExportLens looks up in a model library (inline: one per
// library however many of its files include this header).
extern "C" {
__attribute__((used, visibility("default"))) inline int exportlens_sdk_abi_v1(const char** torch_version) {
  *torch_version = TORCH_VERSION;
  return ::exportlens::sdk::kSdkAbiVersion;
}
__attribute__((used, visibility("default"))) inline void exportlens_sdk_attach_v1(
    ::exportlens::sdk::TracerHooks* hooks) {
  ::exportlens::sdk::tracer_hooks() = hooks;
}
__attribute__((used, visibility("default"))) inline void exportlens_sdk_models_v1(
    std::vector<::exportlens::sdk::ModelDef>* out) {
  *out = ::exportlens::sdk::detail::local_models();
}
// Optional (libraries built before tables existed lack it).
__attribute__((used, visibility("default"))) inline void exportlens_sdk_decompositions_v1(
    std::vector<::exportlens::sdk::DecompositionDef>* out) {
  *out = ::exportlens::sdk::detail::local_tables();
}
}
