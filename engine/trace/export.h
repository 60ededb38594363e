#pragma once
// The C++ counterpart of torch.export.export: trace a LibTorch module (or any
// callable) on example inputs with a dynamic_shapes spec into an
// ExportedProgram, the same IR the .pt2 reader produces, plus the guards,
// range constraints, violations and suggested fixes of the trace.
//
//   auto r = exportlens::trace::export_module(*net, forward, {"x"}, {torch::randn({2, 10})},
//                                             "dynamic_shapes = {'x': (Dim.AUTO, None)}");
//   if (r.ok()) std::cout << exportlens::ir::print_program(*r.program);
//   else std::cerr << r.error_type << ": " << r.report.message;
//
// LibTorch headers: include from engine/trace and tests only (the CLI and GUI
// use trace_facade.h).
#include <ATen/core/ivalue.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ops/solve_result.h"
#include "engine/trace/tracer.h"

namespace torch::nn {
class Module;
}
namespace exportlens::sdk {
struct ModelDef;
}

namespace exportlens::trace {

/// forward(*inputs): the model call being traced.
using ForwardFn = std::function<c10::IValue(const std::vector<c10::IValue>& inputs)>;

struct ExportOptions {
  bool strict = false;       // torch.export(strict=True)
  bool log = false;          // keep the TORCH_LOGS=+dynamic style guard log in the report
  bool node_shapes = false;  // every node's symbolic value in the report
  bool locations = true;     // source lines of nodes and guards (needs the model's debug info)
};

struct ExportResult {
  std::optional<ir::ExportedProgram> program;  // present on success
  /// Status (ok / violation / error), error kind and torch's message, range
  /// constraints, input shapes, every guard with provenance, violations,
  /// suggested fixes, symbols, diagnostics (specializations with source lines).
  ops::SolveResult report;
  std::string error_type;  // the exception type torch raises for the same failure
  std::vector<Specialization> specializations;
  double trace_ms = 0;
  bool ok() const { return program.has_value(); }
};

/// torch.export.export(module, inputs, dynamic_shapes=spec). `module` must be
/// owned by a std::shared_ptr (its submodule paths are read); its parameters
/// and buffers become PARAMETER / BUFFER inputs and the state dict.
ExportResult export_module(torch::nn::Module& module, const ForwardFn& forward,
                           const std::vector<std::string>& arg_names, const std::vector<c10::IValue>& inputs,
                           const std::string& dynamic_shapes, const ExportOptions& options = {});

/// A callable without parameters.
ExportResult export_function(const ForwardFn& forward, const std::vector<std::string>& arg_names,
                             const std::vector<c10::IValue>& inputs, const std::string& dynamic_shapes,
                             const ExportOptions& options = {});

/// A model from the SDK (a gallery example or a plugin's EXPORTLENS_MODEL):
/// built with torch::manual_seed(0), its example inputs, and `spec` (the
/// model's own spec when empty). `prepare` may load weights first.
ExportResult export_model(const sdk::ModelDef& def, const std::optional<std::string>& spec,
                          const ExportOptions& options = {},
                          const std::function<void(torch::nn::Module&)>& prepare = {},
                          std::optional<std::vector<c10::IValue>> inputs = std::nullopt);

}  // namespace exportlens::trace
