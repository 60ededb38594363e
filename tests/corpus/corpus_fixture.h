#pragma once
// The real-architecture corpus' folders (tests/oracle/corpus_cases.py):
// EXPORTLENS_CORPUS (or the environment's), one folder per architecture.
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/unit.h"

namespace exportlens::testing {

inline std::string corpus_dir() {
  const char* env = std::getenv("EXPORTLENS_CORPUS");
  return env && *env ? std::string(env) : std::string(EXPORTLENS_CORPUS);
}

inline std::string corpus_file(const std::string& arch, const std::string& file) {
  return corpus_dir() + "/" + arch + "/" + file;
}

/// The architectures torch exported, in corpus order; too few fails the test.
inline std::vector<std::string> corpus_architectures() {
  const std::string manifest = corpus_dir() + "/manifest.json";
  if (!unit::exists(manifest)) FAIL("no corpus at " + corpus_dir() + " (build the corpus_fixtures target)");
  std::vector<std::string> out;
  for (const auto& v : unit::read_json(manifest))
    if (unit::as_string(unit::field(v, "status")) == "ok") out.push_back(unit::as_string(unit::field(v, "name")));
  if (out.size() < 30)
    FAIL("the corpus lists " + std::to_string(out.size()) + " architectures; the issue asks for at least 30");
  return out;
}

}  // namespace exportlens::testing
