#include "engine/runtime/op_safety.h"

#include <ATen/core/jit_type.h>

#include <array>
#include <string_view>

namespace exportlens::runtime {
namespace {

// LibTorch's own namespaces whose ops are not tensor compute: TorchScript
// interpreter primitives, collectives (network), symmetric and pooled memory,
// profiling and test hooks.
constexpr std::array<std::string_view, 14> kSideEffectNamespaces = {
    "prim",     "c10d",           "_c10d_functional", "_c10d_functional_autograd", "c10d_functional",
    "symm_mem", "profiler",       "inductor",         "inductor_prims",            "static_runtime",
    "_test",    "debugprims",     "debug_mode_ops",   "_dtensor"};

struct NamedRisk {
  std::string_view name;  // op name without overload, in the aten namespace
  std::string_view reason;
};
constexpr std::array<NamedRisk, 9> kRiskyAtenOps = {{
    {"from_file", "reads or writes a file"},
    {"save", "writes a file"},
    {"_print", "writes to the terminal"},
    {"warn", "writes to the terminal"},
    {"manual_seed", "changes the process-wide random state"},
    {"seed", "changes the process-wide random state"},
    {"set_", "swaps a tensor's storage in place"},
    {"record_stream", "changes a tensor's memory lifetime"},
    {"_cufft_set_plan_cache_max_size", "changes process-wide state"},
}};

// Types no compute op passes: storages (raw memory), streams, generators
// (random state), futures, objects, dicts.
std::optional<std::string> risky_type(const c10::TypePtr& type, bool optional_context) {
  switch (type->kind()) {
    case c10::TypeKind::StorageType: return "passes a raw storage";
    case c10::TypeKind::StreamObjType: return "passes a device stream";
    case c10::TypeKind::FutureType:
    case c10::TypeKind::AwaitType: return "starts asynchronous work";
    case c10::TypeKind::CapsuleType:
    case c10::TypeKind::ClassType:
    case c10::TypeKind::AnyClassType: return "passes an opaque object";
    case c10::TypeKind::DictType: return "passes a dictionary";
    case c10::TypeKind::GeneratorType:
      // `Generator? generator=None` of the random ops is fine; a required one is not.
      if (!optional_context) return "uses a random generator object";
      return std::nullopt;
    default: break;
  }
  const bool optional = type->kind() == c10::TypeKind::OptionalType;
  for (const auto& inner : type->containedTypes())
    if (auto why = risky_type(inner, optional)) return why;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> unsafe_reason(const c10::FunctionSchema& schema) {
  const std::string& full = schema.name();  // "aten::add"
  const auto sep = full.find("::");
  const std::string_view ns = sep == std::string::npos ? std::string_view() : std::string_view(full).substr(0, sep);
  const std::string_view name = sep == std::string::npos ? std::string_view(full) : std::string_view(full).substr(sep + 2);
  for (auto bad : kSideEffectNamespaces)
    if (ns == bad) return "belongs to LibTorch's '" + std::string(ns) + "' namespace, which is not tensor compute";
  if (ns == "aten") {
    for (const auto& risk : kRiskyAtenOps)
      if (name == risk.name) return std::string(risk.reason);
    if (name.rfind("_cufft_", 0) == 0) return "changes process-wide state";
  }
  if (schema.is_vararg() || schema.is_varret()) return "takes arbitrary arguments";
  for (const auto& a : schema.arguments()) {
    if (auto why = risky_type(a.type(), false)) return *why;
    if (a.type()->kind() == c10::TypeKind::StringType &&
        (a.name() == "filename" || a.name() == "path" || a.name() == "file" || a.name() == "f"))
      return "takes a file name";
  }
  for (const auto& r : schema.returns())
    if (auto why = risky_type(r.type(), false)) return *why;
  return std::nullopt;
}

bool user_allows(const std::set<std::string>& allowed, const ir::Target& target) {
  const std::string ns = target.op_namespace(), name = target.op_name(), overload = target.overload();
  for (const std::string& sep : {"::", "."})
    if (allowed.count(ns + sep + name) || allowed.count(ns + sep + name + "." + overload)) return true;
  return false;
}

}  // namespace exportlens::runtime
