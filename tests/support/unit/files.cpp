#include "files.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "unit.h"

namespace exportlens::unit {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(__FILE__, __LINE__, "cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) fail(__FILE__, __LINE__, "cannot write " + path);
}

nlohmann::json read_json(const std::string& path) {
  auto j = nlohmann::json::parse(read_text(path), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) fail(__FILE__, __LINE__, path + " is not valid JSON");
  return j;
}

bool exists(const std::string& path) { return std::filesystem::exists(path); }

std::vector<std::string> subfolders(const std::string& path) {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory()) names.push_back(it->path().filename().string());
  if (ec) fail(__FILE__, __LINE__, "cannot list the folders in " + path + ": " + ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "exportlens-test-XXXXXX").string();
  if (!mkdtemp(pattern.data())) fail(__FILE__, __LINE__, "cannot make a temporary folder");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace exportlens::unit
