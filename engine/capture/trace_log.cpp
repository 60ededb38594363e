#include "engine/capture/trace_log.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <optional>

#include "engine/base/error.h"
#include "engine/serde/json_cursor.h"
#include "engine/serde/json_document.h"

namespace exportlens::capture {
namespace {

constexpr size_t kMaxNotes = 40;

// glog's prefix: "V1203 10:33:32.713000 4233 torch/_logging/structured.py:28] ".
// Returns the offset of the JSON object, or npos when the line is not an event.
size_t event_start(std::string_view line) {
  if (!line.empty() && line[0] == '{') return 0;  // a log written without the prefix
  if (line.size() < 8 || !std::strchr("VIWEF", line[0]) || !std::isdigit(static_cast<unsigned char>(line[1])))
    return std::string_view::npos;
  const size_t close = line.find("] {");
  return close == std::string_view::npos ? close : close + 2;
}

std::string glog_time(std::string_view line) {
  if (line.empty() || line[0] == '{') return {};
  const size_t first_space = line.find(' ');
  if (first_space == std::string_view::npos) return {};
  const size_t second_space = line.find(' ', first_space + 1);
  if (second_space == std::string_view::npos) return {};
  return std::string(line.substr(1, second_space - 1));
}

std::string read_file(const std::filesystem::path& file, const serde::ReadLimits& limits, uint64_t& total) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(file, ec);
  if (ec) throw Error(ErrorKind::Input, {.file = file.string()}, "cannot read the trace log (" + ec.message() + ")");
  if (size > limits.max_entry_bytes)
    throw Error(ErrorKind::Limit, {.file = file.string()},
                "the trace log has " + std::to_string(size) + " bytes, over the limit of " +
                    std::to_string(limits.max_entry_bytes) + " (raise it with --limit entry-bytes=...)");
  total += size;
  if (total > limits.max_total_bytes)
    throw Error(ErrorKind::Limit, {.file = file.string()},
                "the trace logs read together reach " + std::to_string(total) + " bytes, over the limit of " +
                    std::to_string(limits.max_total_bytes) + " (raise it with --limit total-bytes=...)");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorKind::Input, {.file = file.string()}, "cannot open the trace log");
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

// "[frame/compile]" or "[frame/compile_attempt]", as torch prints a compile id.
std::string compile_id_of(const serde::JsonCursor& event) {
  auto integer = [&](const char* key) -> std::optional<int64_t> {
    if (!event.has(key) || event.at(key).type() != serde::JsonType::Integer) return std::nullopt;
    return event.at(key).integer();
  };
  const auto frame = integer("frame_id"), compile = integer("frame_compile_id");
  if (!frame || !compile) return {};
  std::string id = "[" + std::to_string(*frame) + "/" + std::to_string(*compile);
  if (const auto attempt = integer("attempt"); attempt && *attempt > 0) id += "_" + std::to_string(*attempt);
  return id + "]";
}

class LogReader {
 public:
  LogReader(TraceLog& log, const serde::ReadLimits& limits) : log_(log), limits_(limits) {}

  void read(const std::filesystem::path& file) { read_text(read_file(file, limits_, total_bytes_), file); }

  void read_text(std::string_view text, const std::filesystem::path& file) {
    const int file_index = static_cast<int>(log_.files.size());
    log_.files.push_back(file);
    const std::string label = file.filename().string();
    TraceEvent* open_event = nullptr;  // the event payload lines belong to
    size_t start = 0;
    int line_no = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      std::string_view line(text.data() + start, end - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      start = end + 1;
      ++line_no;
      if (line.empty()) continue;
      if (line[0] == '\t') {
        if (!open_event) {
          skip(label, line_no, "a payload line with no event before it");
          continue;
        }
        if (!open_event->payload.empty() || open_event_has_payload_line_) open_event->payload += '\n';
        open_event->payload.append(line.substr(1));
        open_event_has_payload_line_ = true;
        continue;
      }
      open_event = nullptr;
      open_event_has_payload_line_ = false;
      const size_t json_at = event_start(line);
      if (json_at == std::string_view::npos) {
        skip(label, line_no, "not an event line");
        continue;
      }
      open_event = read_event(line, json_at, label, file_index, line_no);
    }
  }

 private:
  TraceEvent* read_event(std::string_view line, size_t json_at, const std::string& label, int file_index,
                         int line_no) {
    std::string body(line.substr(json_at));
    const std::string where = label + ":" + std::to_string(line_no);
    try {
      const auto doc = serde::JsonDocument::parse(body, where, limits_);
      const serde::JsonCursor root(doc, where);
      if (!root.is_object() || root.size() == 0) {
        skip(label, line_no, "the event is not a JSON object with a name");
        return nullptr;
      }
      const std::string name(doc.string(1));  // the first key
      if (name == "str") {
        intern(root.at("str"));
        return nullptr;
      }
      TraceEvent event;
      event.name = name;
      event.time = glog_time(line);
      event.compile_id = compile_id_of(root);
      event.file = file_index;
      event.line = line_no;
      event.body = std::move(body);
      log_.events.push_back(std::move(event));
      return &log_.events.back();
    } catch (const serde::SchemaError& e) {
      skip(label, line_no, e.what());
    } catch (const std::runtime_error& e) {  // the JSON parser's errors (invalid text, nesting)
      skip(label, line_no, e.what());
    }
    return nullptr;
  }

  void intern(const serde::JsonCursor& entry) {
    if (!entry.is_array() || entry.size() != 2) return;
    const auto path = entry.at(0), id = entry.at(1);
    if (!path.is_string() || id.type() != serde::JsonType::Integer) return;
    log_.filenames[id.integer()] = path.str();
  }

  void skip(const std::string& label, int line_no, const std::string& why) {
    ++log_.skipped_lines;
    if (log_.notes.size() >= kMaxNotes) return;
    const std::string place = label + ":" + std::to_string(line_no) + ": ";
    log_.notes.push_back(place + (why.rfind(place, 0) == 0 ? why.substr(place.size()) : why));  // the JSON reader names the place too
  }

  TraceLog& log_;
  const serde::ReadLimits& limits_;
  uint64_t total_bytes_ = 0;
  bool open_event_has_payload_line_ = false;
};

std::vector<std::filesystem::path> log_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec) && it->path().extension() == ".log") files.push_back(it->path());
    if (files.size() > 10'000) break;
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool starts_like_log(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  const std::string_view first(head.data(), std::min(head.find('\n'), head.size()));
  const size_t at = event_start(first);
  return at != std::string_view::npos && first.size() > at + 2 && first[at + 1] == '"';
}

}  // namespace

std::string TraceLog::filename(int64_t id) const {
  const auto it = filenames.find(id);
  return it != filenames.end() ? it->second : "<file #" + std::to_string(id) + ">";
}

bool is_trace_log(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    const auto files = log_files(path);
    return std::any_of(files.begin(), files.begin() + std::min<size_t>(files.size(), 16), starts_like_log);
  }
  return std::filesystem::is_regular_file(path, ec) && starts_like_log(path);
}

TraceLog read_trace_log(const std::filesystem::path& path, const serde::ReadLimits& limits) {
  TraceLog log;
  LogReader reader(log, limits);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    const auto files = log_files(path);
    if (files.empty()) throw Error(ErrorKind::Input, {.file = path.string()}, "the folder holds no trace log (*.log)");
    for (const auto& f : files) reader.read(f);
  } else {
    reader.read(path);
  }
  return log;
}

TraceLog read_trace_log_text(std::string_view text, const std::string& name, const serde::ReadLimits& limits) {
  if (text.size() > limits.max_entry_bytes)
    throw Error(ErrorKind::Limit, {.file = name},
                "the trace log has " + std::to_string(text.size()) + " bytes, over the limit of " +
                    std::to_string(limits.max_entry_bytes));
  TraceLog log;
  LogReader(log, limits).read_text(text, name);
  return log;
}

}  // namespace exportlens::capture
