#pragma once
// Files for the engine suites: whole-file reads and writes, JSON, and a
// temporary folder that goes away with its owner (QTemporaryDir's job).
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace exportlens::unit {

/// The file's bytes; a file that cannot be read fails the running test.
std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& text);
/// The JSON document in `path` (any kind of value); unreadable or invalid fails the test.
nlohmann::json read_json(const std::string& path);
bool exists(const std::string& path);
/// The names of the folders in `path` (links to folders too), sorted; a
/// folder that cannot be listed fails the running test.
std::vector<std::string> subfolders(const std::string& path);

/// A fresh folder under the system's temporary folder, removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  /// `name` inside the folder.
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace exportlens::unit
