#include "engine/ir/stack_trace.h"

#include <cctype>
#include <charconv>
#include <string>
#include <vector>

namespace exportlens::ir {
namespace {

std::string_view strip(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// `File "path", line N, in fn`; paths may hold quotes, so search from the right.
bool match_frame(std::string_view line, SourceLocation* out) {
  constexpr std::string_view head = "File \"", mid = "\", line ", tail = ", in ";
  if (line.substr(0, head.size()) != head) return false;
  for (auto pos = line.rfind(mid); pos != std::string_view::npos && pos > head.size();
       pos = line.rfind(mid, pos - 1)) {
    const auto digits_start = pos + mid.size();
    auto digits_end = digits_start;
    while (digits_end < line.size() && std::isdigit(static_cast<unsigned char>(line[digits_end]))) ++digits_end;
    if (digits_end == digits_start || line.substr(digits_end, tail.size()) != tail) continue;
    if (digits_end + tail.size() >= line.size()) continue;  // the function name is empty
    // A line number past int's range (a file can say anything) is no frame line.
    int number = 0;
    const auto [end, ec] = std::from_chars(line.data() + digits_start, line.data() + digits_end, number);
    if (ec != std::errc()) continue;
    out->file = std::string(line.substr(head.size(), pos - head.size()));
    out->line = number;
    out->function = std::string(line.substr(digits_end + tail.size()));
    return true;
  }
  return false;
}

}  // namespace

std::vector<SourceLocation> traceback_frames(std::string_view text) {
  std::vector<std::string_view> lines;
  std::string_view rest = strip(text);
  while (true) {
    const auto nl = rest.find('\n');
    lines.push_back(rest.substr(0, nl));
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  std::vector<SourceLocation> frames;
  for (size_t idx = 0; idx + 1 < lines.size(); ++idx) {
    SourceLocation loc;
    if (!match_frame(strip(lines[idx]), &loc)) continue;
    loc.code = std::string(strip(lines[idx + 1]));
    frames.push_back(std::move(loc));
  }
  return frames;
}

std::optional<SourceLocation> innermost_frame(std::string_view stack_trace) {
  std::vector<SourceLocation> frames = traceback_frames(stack_trace);
  if (frames.empty()) return std::nullopt;
  return std::move(frames.back());
}

}  // namespace exportlens::ir
