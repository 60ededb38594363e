#pragma once
// The oracle fixtures (real torch.export outputs) for the engine suites:
// build/fixtures/<name>/ (oracle/generate_fixtures.py) and the folders of
// the other oracles (build/fixtures_browse, build/fixtures_structure, ...),
// each with a manifest.json.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace exportlens::unit {

/// build/fixtures, or $EXPORTLENS_FIXTURES.
std::string fixtures_dir();
/// `file` of fixture `name`.
std::string fixture_file(const std::string& name, const std::string& file);
/// The fixture's meta.json (range constraints, shapes, signature, ...).
nlohmann::json fixture_meta(const std::string& name);
/// Fixture names with the given status ("ok" or "error"), in manifest order;
/// none, or no manifest, fails the running test.
std::vector<std::string> fixtures_with_status(const std::string& status);

/// `file` of program `name` in the fixture folder `folder`.
std::string fixture_file(const char* folder, const std::string& name, const std::string& file);
/// The programs `folder`'s manifest lists, in order; a missing or empty
/// manifest fails the running test, naming the `target` that builds it.
std::vector<std::string> fixture_manifest(const char* folder, const char* target);
/// A JSON file of program `name` in `folder`.
nlohmann::json fixture_json(const char* folder, const std::string& name, const std::string& file);

}  // namespace exportlens::unit
