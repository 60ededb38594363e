#include "engine/trace/gallery/gallery_models.h"

#include <stdexcept>

#include "engine/trace/gallery/gallery.h"
#include "engine/trace/model_tracing.h"

namespace exportlens::trace {
namespace {

// The documents the examples come from, as users know them.
std::string document_name(const std::string& code) {
  if (code == "000") return "torch.export tutorial (PyTorch 2.3)";
  if (code == "002") return "torch.export tutorial (PyTorch 2.5)";
  if (code == "003") return "book chapter";
  if (code == "000/002") return "torch.export tutorials";
  return "ExportLens examples";
}

}  // namespace

std::vector<ModelSummary> gallery_models() {
  std::vector<ModelSummary> out;
  for (const auto& e : gallery::examples()) {
    ModelSummary s = summary_of(e.def);
    s.family = e.family;
    s.document = document_name(e.seed);
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
