#include "engine/capture/python_frames.h"

#include <map>

namespace exportlens::capture {
namespace {

bool is_standard_library(std::string_view file) {
  const size_t lib = file.find("/lib/python3");
  return lib != std::string_view::npos && file.find("-packages/", lib) == std::string_view::npos;
}

}  // namespace

std::string PythonFrame::location() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  if (!function.empty()) out += " in " + function;
  return out;
}

bool FrameFilter::is_framework(std::string_view file) const {
  if (file.empty() || file.front() == '<') return true;
  if (!torch_dir_.empty() && file.size() > torch_dir_.size() && file.starts_with(torch_dir_) &&
      file[torch_dir_.size()] == '/')
    return true;
  if (file.find("/exportlens_capture/") != std::string_view::npos) return true;
  return is_standard_library(file);
}

std::optional<PythonFrame> FrameFilter::user_frame(const PythonStack& stack) const {
  for (auto it = stack.rbegin(); it != stack.rend(); ++it)
    if (!is_framework(it->file)) return *it;
  return std::nullopt;
}

std::string torch_dir_from(const std::vector<std::string>& files) {
  // Folders of torch's own package that every export passes through.
  static constexpr std::string_view kMarkers[] = {"/torch/export/", "/torch/_logging/", "/torch/_dynamo/",
                                                   "/torch/fx/", "/torch/_subclasses/", "/torch/_export/"};
  std::map<std::string, int> votes;
  for (const std::string& f : files)
    for (std::string_view marker : kMarkers)
      if (const size_t at = f.rfind(marker); at != std::string::npos) {
        ++votes[f.substr(0, at + 6)];  // up to and including "/torch"
        break;
      }
  std::string best;
  int most = 0;
  for (const auto& [dir, n] : votes)
    if (n > most) best = dir, most = n;
  return best;
}

}  // namespace exportlens::capture
