#pragma once
// The state of one trace: the graph being built, the ShapeEnv, which graph
// node holds each tensor (fakes know theirs; parameters, buffers and lifted
// constants are looked up), module scopes, source locations, and the
// dispatcher entry every op lands in (record()). One tracer is active per
// thread; while a Tracer::Activation lives, every ATen op called on that
// thread dispatches to the tracer (a forced PrivateUse1 dispatch key), fake
// tensors or not, so factory ops are captured too.
#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <c10/core/SymBool.h>
#include <c10/core/SymInt.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/base/error.h"
#include "engine/ir/exported_program.h"
#include "engine/ops/sym_value.h"
#include "engine/symbolic/shape_env.h"
#include "engine/trace/graph_recorder.h"
#include "engine/symbolic/contiguity_probe.h"

namespace exportlens::trace {

using symbolic::Strides;

struct TraceOptions {
  bool strict = false;     // torch.export(strict=True): see engine/trace/README.md for what differs
  bool locations = true;   // look up each node's model source line
};

/// A failure torch.export reports with its own exception type.
class TraceError : public Error {
 public:
  TraceError(std::string failure, std::string torch_type, const std::string& message)
      : Error(error_kind_of(failure), {}, message), failure_(std::move(failure)), torch_type_(std::move(torch_type)) {}
  /// "dynamic_control_flow", "data_dependent", "unsupported", "user_code", "check", "internal"
  /// (the solve result's failure kind; Error::kind() is the general one).
  const std::string& failure() const { return failure_; }
  /// The exception type torch raises for it ("torch._dynamo.exc.Unsupported").
  const std::string& torch_type() const { return torch_type_; }

 private:
  static ErrorKind error_kind_of(const std::string& failure) {
    if (failure == "data_dependent") return ErrorKind::DataDependent;
    if (failure == "check") return ErrorKind::Check;
    if (failure == "user_code") return ErrorKind::Input;
    if (failure == "internal") return ErrorKind::Internal;
    return ErrorKind::Unsupported;  // unsupported, dynamic_control_flow
  }
  std::string failure_, torch_type_;
};

/// Model code read a symbolic size as a plain integer.
struct Specialization {
  std::string expr;    // the symbolic size ("s77")
  int64_t value = 0;   // what it became
  std::string where;   // "net.cpp:12 in forward"
  std::string code;
};

/// How a symbolic value is computed in the graph, for when an op takes it.
struct SymRecipe {
  enum class Kind { Value, SizeOf, Operator };
  Kind kind = Kind::Value;
  ir::Node* node = nullptr;       // Value: the node computing it; SizeOf: the tensor
  int64_t dim = 0;                // SizeOf
  std::string op;                 // Operator: "add", "ge", ... (_operator.<op>)
  std::vector<c10::SymNode> operands;
};

class Tracer {
 public:
  Tracer(TraceOptions options, ir::GraphModule& root);
  ~Tracer();
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  /// The tracer active on this thread, or nullptr.
  static Tracer* current();
  uint64_t id() const { return id_; }
  const TraceOptions& options() const { return options_; }
  symbolic::ShapeEnv& env() { return env_; }
  const symbolic::ShapeEnv& env() const { return env_; }
  GraphRecorder& graph() { return graph_; }
  const GraphRecorder& graph() const { return graph_; }

  /// While alive: this tracer is current and every op dispatches to it.
  class Activation {
   public:
    explicit Activation(Tracer& t);
    ~Activation();

   private:
    Tracer* previous_;
    Tracer& tracer_;
    int depth_;
    c10::impl::ForceDispatchKeyGuard dispatch_;
  };
  /// Inside the tracer's own code: LibTorch runs normally and size reads are not the model's.
  class Internal {
   public:
    explicit Internal(Tracer& t);
    ~Internal();

   private:
    Tracer& t_;
    c10::impl::ForceDispatchKeyGuard dispatch_;
  };
  bool in_model_code() const { return internal_depth_ == 0; }

  // ---- tensors ----------------------------------------------------------------
  at::Tensor make_fake(ir::Node* node, const ops::SymTensor& sym);
  /// The node holding `t` in the current graph; an unknown real tensor becomes
  /// a lifted constant. Undefined tensors give nullptr.
  ir::Node* node_for(const at::Tensor& t);
  /// `t` now holds the value of `node` (after an in-place op).
  void rebind(const at::Tensor& t, ir::Node* node);
  /// A parameter or buffer and its placeholder; `owner` is its module's path.
  void add_state(const at::Tensor& t, ir::Node* placeholder, const std::string& owner);
  /// Tensors the model used that are neither parameters nor buffers: lifted
  /// as CONSTANT_TENSOR inputs ("lifted_tensor_0"), in order.
  struct LiftedConstant {
    std::string target;
    at::Tensor tensor;
    ir::Node* node;
  };
  const std::vector<LiftedConstant>& constants() const { return constants_; }
  /// Tensors of an outer graph used inside a branch: where to lift them (cond/map).
  using Capture = std::function<ir::Node*(ir::Node* outer)>;
  void set_capture(Capture c) { capture_ = std::move(c); }

  // ---- symbolic values --------------------------------------------------------
  c10::SymInt sym_int(const symbolic::Expr& e, SymRecipe recipe);
  c10::SymBool sym_bool(const symbolic::Expr& e, SymRecipe recipe);
  /// The graph argument for a symbolic value (materializing its sym nodes).
  ir::Argument argument_for(const c10::SymNode& node);
  ir::Argument argument_for(const c10::SymInt& v);
  /// An expression over the program's symbols as graph nodes (runtime asserts).
  ir::Argument materialize(const symbolic::Expr& e, ir::Node* anchor);
  /// The node defining each unbacked symbol (item() calls), in creation order.
  const std::vector<std::pair<symbolic::Expr, ir::Node*>>& unbacked_definitions() const { return unbacked_defs_; }
  void define_unbacked(const symbolic::Expr& sym, ir::Node* node) { unbacked_defs_.emplace_back(sym, node); }
  /// A user input's dimension: where its sym_size node comes from.
  void define_input_dims(ir::Node* placeholder, const std::vector<symbolic::Expr>& dims);

  // ---- layouts ------------------------------------------------------------------
  /// The symbolic strides of a node's tensor where its layout is tracked
  /// (symbolic/contiguity_probe.h): placeholders are contiguous; nullopt where not tracked.
  std::optional<Strides> strides_of(const ir::Node* n) const;
  void set_strides(const ir::Node* n, std::optional<Strides> s);

  // ---- ops ----------------------------------------------------------------------
  /// The dispatcher's entry: records `op` with the arguments on `stack`.
  void record(const c10::OperatorHandle& op, torch::jit::Stack* stack);

  // ---- provenance, scopes ---------------------------------------------------------
  /// Where model code is now (the innermost model frame), cached per op.
  std::optional<ir::SourceLocation> model_location();
  /// A guard's origin at the model's current line (or `site` from the SDK).
  symbolic::Provenance user_origin(const std::string& rule, const std::optional<ir::SourceLocation>& site = {});
  void set_module_paths(std::unordered_map<const void*, std::pair<std::string, std::string>> paths,
                        std::string root_type);
  void enter_module(const void* module);
  void exit_module();
  /// Stamps stack trace and module stack on a node just created.
  void stamp(ir::Node* n, const std::vector<ir::Node*>& inputs = {});
  /// Only the module stack (the caller has the location).
  void stamp_scope(ir::Node* n, const std::vector<ir::Node*>& inputs) { n->meta.nn_module_stack = scope_for(inputs); }

  /// Model code read `expr` as a plain integer.
  int64_t specialize(const symbolic::Expr& e);
  const std::vector<Specialization>& specializations() const { return specializations_; }
  std::vector<std::string>& notes() { return notes_; }

  /// An error raised inside model code that the model may catch and ignore;
  /// the trace still fails with it.
  void remember_error(std::exception_ptr e) {
    if (!pending_error_) pending_error_ = e;
  }
  void rethrow_pending_error() {
    if (pending_error_) std::rethrow_exception(pending_error_);
  }

 private:
  friend class OpRecorder;
  ir::Node* lift_constant(const at::Tensor& t);
  ir::Node* size_node(ir::Node* tensor, int64_t dim, const symbolic::Expr& e);
  std::vector<ir::ModuleScope> scope_for(const std::vector<ir::Node*>& inputs) const;

  uint64_t id_;
  TraceOptions options_;
  symbolic::ShapeEnv env_;
  GraphRecorder graph_;
  int internal_depth_ = 0;

  struct StateEntry {
    ir::Node* node;
    std::string owner;
    at::Tensor keep_alive;
  };
  std::unordered_map<const c10::TensorImpl*, StateEntry> state_;
  std::unordered_map<const ir::Node*, std::string> owner_of_;  // state placeholder -> module path
  std::vector<LiftedConstant> constants_;
  Capture capture_;

  std::vector<std::pair<symbolic::Expr, ir::Node*>> unbacked_defs_;
  std::unordered_map<std::string, std::pair<ir::Node*, int64_t>> input_dim_of_;  // symbol -> (placeholder, dim)
  std::unordered_map<const ir::Node*, std::unordered_map<int64_t, ir::Node*>> size_nodes_;
  std::unordered_map<const ir::Node*, Strides> strides_;  // tracked layouts (not placeholders)

  std::unordered_map<const void*, std::pair<std::string, std::string>> module_paths_;  // module -> (path, type)
  std::vector<ir::ModuleScope> scopes_;
  std::unordered_map<std::string, std::string> owner_types_;  // module path -> type

  std::vector<Specialization> specializations_;
  std::vector<std::string> notes_;
  std::exception_ptr pending_error_;
};

/// Registers the tracer's kernels with the dispatcher (idempotent; picks up
/// operators registered since the last call, e.g. by a model library).
void install_capture_kernels();

}  // namespace exportlens::trace
