#include "engine/serde/archive_layout.h"

namespace exportlens::serde {

std::string archive_folder(const ZipArchive& zip) {
  for (const auto& e : zip.entries()) {
    const auto slash = e.name.find('/');
    if (slash != std::string::npos && e.name.substr(slash + 1) == "archive_format") return e.name.substr(0, slash + 1);
  }
  return {};
}

std::vector<std::string> archive_programs(const ZipArchive& zip, const std::string& folder) {
  const std::string models = folder + "models/";
  constexpr size_t kSuffix = std::string_view(".json").size();
  std::vector<std::string> out;
  for (const auto& e : zip.entries())
    if (e.name.starts_with(models) && e.name.ends_with(".json") && e.name.size() > models.size() + kSuffix &&
        e.name.find('/', models.size()) == std::string::npos)
      out.push_back(e.name.substr(models.size(), e.name.size() - models.size() - kSuffix));
  return out;
}

}  // namespace exportlens::serde
