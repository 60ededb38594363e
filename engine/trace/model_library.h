#pragma once
// Models built against the SDK: the built-in gallery and shared libraries
// loaded at run time (`exportlens trace LIB.so`). A library is checked for
// the SDK ABI and the LibTorch version it was built with, attached to the
// tracer's hooks, and kept loaded for the life of the process. Decomposition
// tables the library defines (EXPORTLENS_DECOMPOSITIONS) are registered with
// engine/passes when it loads (traced_rule.h).
#include <filesystem>
#include <string>
#include <vector>

#include "engine/trace/sdk/exportlens_sdk.h"

namespace exportlens::trace {

struct ModelLibrary {
  std::string path;
  std::vector<sdk::ModelDef> models;
  std::vector<std::string> tables;  // decomposition tables it registered
};

/// Loads (once per path) and returns the library's models and tables. Throws
/// std::runtime_error naming the file and what is wrong.
const ModelLibrary& load_model_library(const std::filesystem::path& path);

/// The model called `name` in `lib` (the only one when `name` is empty).
const sdk::ModelDef& find_model(const ModelLibrary& lib, const std::string& name);

}  // namespace exportlens::trace
