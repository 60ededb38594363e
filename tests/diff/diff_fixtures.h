#pragma once
// The diff oracle's cases (diff/diff_cases.py): two programs real torch
// exported, A and B, with a planted edit between them, and the truth of
// which node is which (truth.json), from how the case was built.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/diff/program_diff.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "support/unit/fixtures.h"

namespace exportlens::testing {

inline std::string diff_case_file(const std::string& name, const std::string& file) {
  return unit::fixture_file(EXPORTLENS_DIFF_FIXTURES, name, file);
}

/// The cases, in manifest order; a missing manifest fails the test.
inline std::vector<std::string> diff_case_names() {
  return unit::fixture_manifest(EXPORTLENS_DIFF_FIXTURES, "diff_fixtures");
}

inline nlohmann::json diff_truth(const std::string& name) {
  return unit::fixture_json(EXPORTLENS_DIFF_FIXTURES, name, "truth.json");
}

/// Two programs and everything the diff reads of them, kept together.
struct ProgramPair {
  ir::ExportedProgram a, b;
  std::unique_ptr<matching::IndexedProgram> ia, ib;
  ProgramPair(ir::ExportedProgram pa, ir::ExportedProgram pb) : a(std::move(pa)), b(std::move(pb)) {
    ia = std::make_unique<matching::IndexedProgram>(a);
    ib = std::make_unique<matching::IndexedProgram>(b);
  }
  std::string name_a(int node) const { return ia->nodes()[static_cast<size_t>(node)]->name; }
  std::string name_b(int node) const { return ib->nodes()[static_cast<size_t>(node)]->name; }
};

inline ir::ExportedProgram read_program(const std::string& path) {
  return serde::read_pt2(path, "", runtime::pt2_read_options());
}

inline std::unique_ptr<ProgramPair> read_diff_case(const std::string& name) {
  return std::make_unique<ProgramPair>(read_program(diff_case_file(name, "a.pt2")),
                                       read_program(diff_case_file(name, "b.pt2")));
}

/// "a -> b" for each pair of a JSON list of [a, b].
inline std::set<std::string> pair_set(const nlohmann::json& pairs) {
  std::set<std::string> out;
  for (const auto& p : pairs) out.insert(p.at(0).get<std::string>() + " -> " + p.at(1).get<std::string>());
  return out;
}

inline std::set<std::string> name_set(const nlohmann::json& names) {
  std::set<std::string> out;
  for (const auto& n : names) out.insert(n.get<std::string>());
  return out;
}

}  // namespace exportlens::testing
