// The headless build without the C++ tracer (EXPORTLENS_TRACER=OFF): .pt2
// archives open; model libraries and built-in examples say why they do not.
#include <stdexcept>

#include "engine/sources/traced_sources.h"

namespace exportlens::sources {

OpenOutcome open_library_source(const std::string& path, const OpenRequest&) {
  throw std::runtime_error(path + ": this build of ExportLens has no C++ tracer (EXPORTLENS_TRACER=OFF); "
                           "export the model to a .pt2 file, or use a build with the tracer");
}

OpenOutcome open_example_source(const std::string& name, const OpenRequest&) {
  throw std::runtime_error("example:" + name + ": this build of ExportLens has no C++ tracer (EXPORTLENS_TRACER=OFF)");
}

}  // namespace exportlens::sources
