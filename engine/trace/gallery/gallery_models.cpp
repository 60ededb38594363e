#include "engine/trace/gallery/gallery_models.h"

#include <stdexcept>

#include "engine/trace/gallery/gallery.h"
#include "engine/trace/model_tracing.h"

namespace exportlens::trace {

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
  return trace_model(e->def, request);
}

}  // namespace exportlens::trace
