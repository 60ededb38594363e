#include "engine/trace/trace_facade.h"

#include <stdexcept>

#include "engine/trace/export.h"
#include "engine/trace/model_library.h"
#include "engine/trace/model_tracing.h"

namespace exportlens::trace {

ModelSummary summary_of(const sdk::ModelDef& d) {
  ModelSummary s;
  s.name = d.name;
  s.description = d.description;
  s.arg_names = d.arg_names;
  s.dynamic_shapes = d.dynamic_shapes;
  s.strict = d.strict;
  return s;
}

TraceOutcome trace_model(const sdk::ModelDef& def, const TraceRequest& request) {
  ExportOptions options;
  options.log = request.log;
  options.node_shapes = request.node_shapes;
  ExportResult r = export_model(def, request.dynamic_shapes, options);
  return {std::move(r.program), std::move(r.report), std::move(r.error_type), r.trace_ms};
}

std::vector<ModelSummary> library_models(const std::filesystem::path& library) {
  std::vector<ModelSummary> out;
  for (const auto& d : load_model_library(library).models) out.push_back(summary_of(d));
  return out;
}

std::vector<std::string> library_tables(const std::filesystem::path& library) {
  return load_model_library(library).tables;
}

TraceOutcome trace_library_model(const std::filesystem::path& library, const std::string& model,
                                 const TraceRequest& request) {
  return trace_model(find_model(load_model_library(library), model), request);
}

}  // namespace exportlens::trace
