#pragma once
// The browsing oracle's programs (oracle/browse_models.py): deep module
// hierarchies exported by real torch, with torch's record of their module
// calls (hierarchy.json). Suites that include this call
// exportlens_uses_browse_fixtures() in their CMakeLists.txt.
#include "support/fixture_folder.h"

namespace exportlens::testing {

inline QString browse_fixture(const QString& name, const QString& file) {
  return fixture_file(EXPORTLENS_BROWSE_FIXTURES, name, file);
}

/// The programs, in manifest order; a missing manifest stops the suite.
inline QStringList browse_fixture_names() { return fixture_manifest(EXPORTLENS_BROWSE_FIXTURES, "browse_fixtures"); }

/// torch's record of one program's module calls (hierarchy.json).
inline QJsonObject browse_hierarchy(const QString& name) {
  return fixture_json(EXPORTLENS_BROWSE_FIXTURES, name, QStringLiteral("hierarchy.json"));
}

}  // namespace exportlens::testing
