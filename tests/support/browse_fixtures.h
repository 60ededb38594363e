#pragma once
// The browsing oracle's programs (oracle/browse_models.py): deep module
// hierarchies exported by real torch, with torch's record of their module
// calls (hierarchy.json). Suites that include this call
// exportlens_uses_browse_fixtures() in their CMakeLists.txt.
#include "support/unit/fixtures.h"

namespace exportlens::testing {

inline std::string browse_fixture(const std::string& name, const std::string& file) {
  return unit::fixture_file(EXPORTLENS_BROWSE_FIXTURES, name, file);
}

/// The programs, in manifest order; a missing manifest fails the test.
inline std::vector<std::string> browse_fixture_names() {
  return unit::fixture_manifest(EXPORTLENS_BROWSE_FIXTURES, "browse_fixtures");
}

/// torch's record of one program's module calls (hierarchy.json).
inline nlohmann::json browse_hierarchy(const std::string& name) {
  return unit::fixture_json(EXPORTLENS_BROWSE_FIXTURES, name, "hierarchy.json");
}

}  // namespace exportlens::testing
