#include "engine/trace/model_library.h"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "engine/trace/sdk_bridge.h"
#include "engine/trace/traced_rule.h"
#include "engine/trace/tracer.h"

namespace exportlens::trace {

namespace {

template <class F>
F symbol(void* handle, const char* name, const std::string& path) {
  void* p = dlsym(handle, name);
  if (!p)
    throw std::runtime_error(path + ": not an ExportLens model library (no " + name +
                             "; include exportlens_sdk.h and register models with EXPORTLENS_MODEL)");
  return reinterpret_cast<F>(p);
}

}  // namespace

const ModelLibrary& load_model_library(const std::filesystem::path& path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<ModelLibrary>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  const std::string key = std::filesystem::absolute(path).lexically_normal().string();
  if (auto it = loaded.find(key); it != loaded.end()) return *it->second;
  if (!std::filesystem::exists(path)) throw std::runtime_error(path.string() + ": no such file");

  // RTLD_LOCAL: each library keeps its own SDK copy; never unloaded (its code backs the models).
  void* handle = dlopen(key.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("cannot load ") + key + ": " + dlerror());
  const char* torch_version = "";
  const int abi = symbol<int (*)(const char**)>(handle, "exportlens_sdk_abi_v1", key)(&torch_version);
  if (abi != sdk::kSdkAbiVersion)
    throw std::runtime_error(key + ": built with ExportLens SDK ABI " + std::to_string(abi) + ", this ExportLens has " +
                             std::to_string(sdk::kSdkAbiVersion) + "; rebuild it against this exportlens_sdk.h");
  if (std::string(torch_version) != TORCH_VERSION)
    throw std::runtime_error(key + ": built against LibTorch " + torch_version + ", ExportLens uses " + TORCH_VERSION +
                             "; rebuild it against the same LibTorch");
  symbol<void (*)(sdk::TracerHooks*)>(handle, "exportlens_sdk_attach_v1", key)(tracer_hooks_table());
  auto lib = std::make_unique<ModelLibrary>();
  lib->path = key;
  symbol<void (*)(std::vector<sdk::ModelDef>*)>(handle, "exportlens_sdk_models_v1", key)(&lib->models);
  std::vector<sdk::DecompositionDef> tables;
  if (void* p = dlsym(handle, "exportlens_sdk_decompositions_v1"))  // optional: older libraries lack it
    reinterpret_cast<void (*)(std::vector<sdk::DecompositionDef>*)>(p)(&tables);
  if (lib->models.empty() && tables.empty())
    throw std::runtime_error(key +
                             ": the library registers no models or decomposition tables (use EXPORTLENS_MODEL or "
                             "EXPORTLENS_DECOMPOSITIONS)");
  install_capture_kernels();  // custom operators the library registered
  try {
    lib->tables = register_traced_tables(tables, key);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }
  return *loaded.emplace(key, std::move(lib)).first->second;
}

const sdk::ModelDef& find_model(const ModelLibrary& lib, const std::string& name) {
  if (lib.models.empty()) throw std::runtime_error(lib.path + " registers no models (only decomposition tables)");
  if (name.empty()) {
    if (lib.models.size() == 1) return lib.models[0];
    std::string names;
    for (const auto& m : lib.models) names += (names.empty() ? "" : ", ") + m.name;
    throw std::runtime_error(lib.path + " has several models (" + names + "); choose one with --model");
  }
  for (const auto& m : lib.models)
    if (m.name == name) return m;
  throw std::runtime_error(lib.path + " has no model '" + name + "'");
}

}  // namespace exportlens::trace
