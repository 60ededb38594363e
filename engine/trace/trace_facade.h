#pragma once
// Tracing C++ models without seeing LibTorch: what the CLI (and later the
// GUI) call. Gallery examples by name, model libraries by path; the outcome
// is the program (on success) and the same report `exportlens check` gives.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ops/solve_result.h"

namespace exportlens::trace {

struct ModelSummary {
  std::string name;
  std::string description;
  std::vector<std::string> arg_names;
  std::string dynamic_shapes;  // the model's own spec ("" = static)
  bool strict = false;
  // Gallery examples only:
  std::string family;
  std::string document;  // where it comes from: "torch.export tutorial (PyTorch 2.5)", "book chapter"
  std::string expected, oracle, notes;
};

struct TraceRequest {
  std::optional<std::string> dynamic_shapes;  // overrides the model's spec
  bool log = false;                           // guard log in the report
  bool node_shapes = false;
};

struct TraceOutcome {
  std::optional<ir::ExportedProgram> program;
  ops::SolveResult report;
  std::string error_type;  // torch's exception type for a failure
  double trace_ms = 0;
  std::vector<std::string> notes;  // what the reader left out of the program (a graph text's unreadable lines)
};

/// Loads a model library (throws std::runtime_error with the reason).
std::vector<ModelSummary> library_models(const std::filesystem::path& library);
/// Loads a model library and returns the decomposition tables it registered
/// (EXPORTLENS_DECOMPOSITIONS; now listed by passes::decomposition_table_names()).
std::vector<std::string> library_tables(const std::filesystem::path& library);
/// `model` empty: the library's only model.
TraceOutcome trace_library_model(const std::filesystem::path& library, const std::string& model,
                                 const TraceRequest& request = {});

}  // namespace exportlens::trace
