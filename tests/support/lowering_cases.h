#pragma once
// The oracle's lowering-only cases (decomp_cases.py's LOWERING_CASES): models
// only the lowering is compared on, in the fixtures' lowering_cases folder.
#include <string>
#include <vector>

#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/unit.h"

namespace exportlens::testing {

/// "lowering_cases/NAME" for every case, in the oracle's order (usable as a fixture name);
/// a missing or empty index fails the running test.
inline std::vector<std::string> lowering_cases() {
  const std::string index = unit::fixtures_dir() + "/lowering_cases/index.json";
  if (!unit::exists(index)) FAIL("cannot read " + index + " (build the oracle_fixtures target)");
  std::vector<std::string> out;
  for (const auto& v : unit::read_json(index)) out.push_back("lowering_cases/" + v.at("name").get<std::string>());
  if (out.empty()) FAIL("the oracle wrote no lowering cases");
  return out;
}

}  // namespace exportlens::testing
