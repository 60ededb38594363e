#include "engine/sources/traced_sources.h"

#include "engine/trace/gallery/gallery_models.h"

namespace exportlens::sources {

OpenOutcome open_library_source(const std::string& path, const OpenRequest& request) {
  return trace::trace_library_model(path, request.model, request.trace);
}

OpenOutcome open_example_source(const std::string& name, const OpenRequest& request) {
  return trace::trace_gallery_model(name, request.trace);
}

}  // namespace exportlens::sources
