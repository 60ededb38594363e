#pragma once
// The bridge between model code built against the ExportLens SDK (possibly a
// separately compiled shared library) and the tracer inside ExportLens.
//
// Model code never calls the tracer directly: the SDK's helpers (module
// scopes, check, cond, map) look up `tracer_hooks()`. ExportLens fills it in
// for its own gallery and, through `exportlens_sdk_attach_v1`, for every
// plugin it loads. With no trace running the helpers run eagerly, so the same
// model also works as plain LibTorch code.
//
// Only LibTorch's core headers are needed here; exportlens_sdk.h adds the
// torch::nn parts users write models with.
#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>
#include <c10/core/SymBool.h>
#include <c10/core/SymInt.h>

#include <functional>
#include <string>
#include <vector>

namespace torch::nn {
class Module;
}

namespace exportlens::sdk {

/// Bumped whenever TracerHooks or ModelDef change layout.
inline constexpr int kSdkAbiVersion = 1;

/// A place in model source (what std::source_location gives the helpers).
struct Site {
  const char* file = "";
  unsigned line = 0;
  const char* function = "";
};

using Tensors = std::vector<at::Tensor>;
/// A cond branch: operands in, outputs out.
using BranchFn = std::function<Tensors(const Tensors& operands)>;
/// A map body: one slice of each mapped tensor, then the extra arguments.
using MapBodyFn = std::function<Tensors(const Tensors& slices, const Tensors& args)>;

/// What the tracer offers model code. Plain function pointers, so a plugin
/// built separately needs no ExportLens symbols at link time.
struct TracerHooks {
  int abi = kSdkAbiVersion;
  /// A trace is running on this thread.
  bool (*active)() = nullptr;
  /// Entering / leaving a submodule's forward (the nn_module_stack).
  void (*enter_module)(const torch::nn::Module& module, Site site) = nullptr;
  void (*exit_module)() = nullptr;
  /// torch._check(condition, message).
  void (*check)(const c10::SymBool& condition, const std::string& message, Site site) = nullptr;
  /// torch._check_is_size(value).
  void (*check_is_size)(const c10::SymInt& value, Site site) = nullptr;
  /// torch.cond: `pred` holds a bool, a SymBool or a one-element tensor.
  Tensors (*cond)(const c10::IValue& pred, const BranchFn& on_true, const BranchFn& on_false,
                     const Tensors& operands, Site site) = nullptr;
  /// torch.map: body over the first dimension of each tensor in `xs`.
  Tensors (*map)(const MapBodyFn& body, const Tensors& xs, const Tensors& args, Site site) = nullptr;
};

/// This binary's view of the tracer (each shared library has its own copy).
inline TracerHooks*& tracer_hooks() {
  static TracerHooks* hooks = nullptr;
  return hooks;
}

/// True while ExportLens traces the calling thread.
inline bool tracing() {
  TracerHooks* h = tracer_hooks();
  return h && h->active && h->active();
}

}  // namespace exportlens::sdk
