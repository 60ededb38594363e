#include "fixtures.h"

#include <cstdlib>

#include "files.h"
#include "unit.h"

namespace exportlens::unit {

std::string fixtures_dir() {
  const char* env = std::getenv("EXPORTLENS_FIXTURES");
  return env && *env ? env : EXPORTLENS_FIXTURES;
}

std::string fixture_file(const std::string& name, const std::string& file) {
  return fixtures_dir() + "/" + name + "/" + file;
}

nlohmann::json fixture_meta(const std::string& name) { return read_json(fixture_file(name, "meta.json")); }

std::vector<std::string> fixtures_with_status(const std::string& status) {
  const std::string manifest = fixtures_dir() + "/manifest.json";
  if (!exists(manifest)) fail(__FILE__, __LINE__, "no oracle fixtures at " + fixtures_dir() + " (build the oracle_fixtures target)");
  std::vector<std::string> out;
  for (const auto& entry : read_json(manifest))
    if (entry.value("status", "") == status) out.push_back(entry.at("name").get<std::string>());
  if (out.empty()) fail(__FILE__, __LINE__, "the fixture manifest lists no '" + status + "' fixtures");
  return out;
}

std::string fixture_file(const char* folder, const std::string& name, const std::string& file) {
  return std::string(folder) + "/" + name + "/" + file;
}

std::vector<std::string> fixture_manifest(const char* folder, const char* target) {
  const std::string manifest = std::string(folder) + "/manifest.json";
  if (!exists(manifest))
    fail(__FILE__, __LINE__, std::string("no fixtures at ") + folder + " (build the " + target + " target)");
  std::vector<std::string> out;
  for (const auto& entry : read_json(manifest)) out.push_back(entry.get<std::string>());
  if (out.empty()) fail(__FILE__, __LINE__, std::string("the manifest of ") + folder + " lists no programs");
  return out;
}

nlohmann::json fixture_json(const char* folder, const std::string& name, const std::string& file) {
  return read_json(fixture_file(folder, name, file));
}

}  // namespace exportlens::unit
