#pragma once
// The repeated-structure oracle's programs (oracle/structure_models.py):
// stacks of identical modules and planted odd instances, exported by real
// torch, with the model's expected stacks and torch's record of every module
// call (structure.json).
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/unit/fixtures.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

namespace exportlens::testing {

inline std::string structure_fixture(const std::string& name, const std::string& file) {
  return unit::fixture_file(EXPORTLENS_STRUCTURE_FIXTURES, name, file);
}

/// The programs, in manifest order; a missing manifest fails the test.
inline std::vector<std::string> structure_fixture_names() {
  return unit::fixture_manifest(EXPORTLENS_STRUCTURE_FIXTURES, "structure_fixtures");
}

inline nlohmann::json structure_record(const std::string& name) {
  return unit::fixture_json(EXPORTLENS_STRUCTURE_FIXTURES, name, "structure.json");
}

/// torch's ops of one module call at one level (size expressions left out), by op;
/// a call torch did not record fails the test.
inline std::map<std::string, int> torch_op_counts(const nlohmann::json& record, const std::string& level,
                                                  const std::string& path) {
  std::map<std::string, int> out;
  for (const auto& call : record.at("levels").at(level).at("calls")) {
    if (call.value("path", std::string()) != path) continue;
    for (const auto& op : call.at("ops"))
      if (!op.at(1).get<bool>()) ++out[op.at(0).get<std::string>()];
    return out;
  }
  FAIL("torch recorded no module call " + path);
}

/// torch's parameters and buffers below a module path: name below it -> "f32[64, 16]".
inline std::map<std::string, std::string> torch_weights(const nlohmann::json& record, const std::string& level,
                                                        const std::string& path) {
  static const std::map<std::string, std::string> short_dtype{{"float32", "f32"}, {"float64", "f64"},
                                                              {"int64", "i64"},   {"float16", "f16"},
                                                              {"bfloat16", "bf16"}, {"bool", "b8"}};
  std::map<std::string, std::string> out;
  for (const auto& w : record.at("levels").at(level).at("weights")) {  // an object: its values, by key
    const std::string target = w.value("target", std::string());
    if (!target.starts_with(path + ".")) continue;
    std::vector<std::string> dims;
    for (const auto& d : w.at("shape")) dims.push_back(d.get<std::string>());
    const std::string dtype = w.value("dtype", std::string());
    const auto s = short_dtype.find(dtype);
    out[target.substr(path.size() + 1)] = (s != short_dtype.end() ? s->second : dtype) + "[" + unit::join(dims, ", ") + "]";
  }
  return out;
}

}  // namespace exportlens::testing
