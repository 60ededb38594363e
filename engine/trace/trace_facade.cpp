#include "engine/trace/trace_facade.h"

#include <stdexcept>

#include "engine/trace/export.h"
#include "engine/trace/gallery/gallery.h"
#include "engine/trace/model_library.h"

namespace exportlens::trace {

namespace {

ModelSummary summary_of(const sdk::ModelDef& d) {
  ModelSummary s;
  s.name = d.name;
  s.description = d.description;
  s.arg_names = d.arg_names;
  s.dynamic_shapes = d.dynamic_shapes;
  s.strict = d.strict;
  return s;
}

TraceOutcome trace(const sdk::ModelDef& def, const TraceRequest& request) {
  ExportOptions options;
  options.log = request.log;
  options.node_shapes = request.node_shapes;
  ExportResult r = export_model(def, request.dynamic_shapes, options);
  return {std::move(r.program), std::move(r.report), std::move(r.error_type), r.trace_ms};
}

}  // namespace

std::vector<ModelSummary> gallery_models() {
  std::vector<ModelSummary> out;
  for (const auto& e : gallery::examples()) {
    ModelSummary s = summary_of(e.def);
    s.family = e.family;
    s.seed = e.seed;
    s.expected = e.expected;
    s.oracle = e.oracle;
    s.notes = e.notes;
    out.push_back(std::move(s));
  }
  return out;
}

TraceOutcome trace_gallery_model(const std::string& name, const TraceRequest& request) {
  const gallery::Example* e = gallery::find(name);
  if (!e) throw std::invalid_argument("no gallery example '" + name + "' (see `exportlens example --list`)");
  return trace(e->def, request);
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
  return trace(find_model(load_model_library(library), model), request);
}

}  // namespace exportlens::trace
