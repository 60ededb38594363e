#pragma once
// Opening the sources that are traced (a C++ model library, a built-in
// example): traced_sources.cpp hands them to the C++ tracer;
// traced_sources_unavailable.cpp answers for a build without it
// (EXPORTLENS_TRACER=OFF, the headless build), saying so.
#include <string>

#include "engine/sources/program_source.h"

namespace exportlens::sources {

OpenOutcome open_library_source(const std::string& path, const OpenRequest& request);
/// `name` without the example: scheme.
OpenOutcome open_example_source(const std::string& name, const OpenRequest& request);

}  // namespace exportlens::sources
