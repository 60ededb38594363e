#include "engine/capture/capture_folder.h"

#include <fstream>

#include "engine/base/error.h"
#include "engine/serde/json_cursor.h"
#include "engine/serde/json_document.h"

namespace exportlens::capture {
namespace {

namespace fs = std::filesystem;
using serde::JsonCursor;
using serde::JsonType;

constexpr char kFormat[] = "exportlens-capture";
constexpr int kNewestFormat = 1;
// A manifest or attempt.json is a few kilobytes; a script with thousands of
// exports makes a manifest of a few megabytes.
constexpr uint64_t kMaxJsonBytes = uint64_t(64) << 20;
constexpr size_t kMaxAttempts = 100'000;

std::string read_json_text(const fs::path& file, const std::string& shown, const serde::ReadLimits& limits) {
  std::error_code ec;
  const uint64_t size = fs::file_size(file, ec);
  if (ec) throw Error(ErrorKind::Input, {.file = shown}, "cannot read it (" + ec.message() + ")");
  if (size > std::min(kMaxJsonBytes, limits.max_entry_bytes))
    throw Error(ErrorKind::Limit, {.file = shown},
                std::to_string(size) + " bytes, more than a capture's JSON may hold (" +
                    std::to_string(std::min(kMaxJsonBytes, limits.max_entry_bytes)) + ")");
  std::ifstream in(file, std::ios::binary);
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<size_t>(in.gcount()));
  return text;
}

/// A capture's JSON file, read whole and parsed; the document points into the text it keeps.
struct JsonFile {
  JsonFile(const fs::path& file, const serde::ReadLimits& limits)
      : shown(file.string()),
        text(read_json_text(file, shown, limits)),
        doc(serde::JsonDocument::parse(text, shown, limits)) {}
  JsonFile(const JsonFile&) = delete;
  JsonFile& operator=(const JsonFile&) = delete;
  JsonCursor root() const { return JsonCursor(doc, shown); }

  const std::string shown;
  const std::string text;
  const serde::JsonDocument doc;
};

// Lenient typed access: a missing or null field is its default; a field of
// the wrong type is an error that names its JSON path.
std::string str(const JsonCursor& o, const char* key) {
  if (!o.has(key)) return {};
  const JsonCursor v = o.at(key);
  if (v.type() == JsonType::Integer) return std::to_string(v.integer());
  return v.str();
}
int64_t integer(const JsonCursor& o, const char* key, int64_t fallback = 0) {
  return o.has(key) ? o.at(key).integer() : fallback;
}
double number(const JsonCursor& o, const char* key) { return o.has(key) ? o.at(key).number() : 0.0; }
bool boolean(const JsonCursor& o, const char* key, bool fallback = false) {
  return o.has(key) ? o.at(key).boolean() : fallback;
}
std::optional<bool> optional_boolean(const JsonCursor& o, const char* key) {
  if (!o.has(key)) return std::nullopt;
  return o.at(key).boolean();
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

PythonFrame frame(const JsonCursor& f) {
  f.expect_object();
  return {str(f, "file"), static_cast<int>(integer(f, "line")), str(f, "function"), str(f, "code")};
}
std::optional<PythonFrame> optional_frame(const JsonCursor& o, const char* key) {
  if (!o.has(key)) return std::nullopt;
  return frame(o.at(key));
}
PythonStack stack(const JsonCursor& o, const char* key) {
  PythonStack s;
  if (!o.has(key)) return s;
  for (const JsonCursor& f : o.at(key).elements()) s.push_back(frame(f));
  return s;
}
std::vector<std::string> strings(const JsonCursor& o, const char* key) {
  std::vector<std::string> out;
  if (!o.has(key)) return out;
  for (const JsonCursor& s : o.at(key).elements()) out.push_back(s.str());
  return out;
}

/// Resolves a path an attempt names; it must stay inside the capture folder
/// (a hostile capture must not make ExportLens read elsewhere).
class FolderPaths {
 public:
  explicit FolderPaths(const fs::path& dir) : dir_(fs::weakly_canonical(dir)) {}

  fs::path inside(const JsonCursor& o, const char* key, const fs::path& base) const {
    const std::string rel = str(o, key);
    if (rel.empty()) return {};
    const fs::path relative(rel);
    if (relative.is_absolute()) o.at(key).fail("an absolute path; a capture names its files relative to itself");
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(base / relative, ec);
    const auto [end, _] = std::mismatch(dir_.begin(), dir_.end(), resolved.begin(), resolved.end());
    if (ec || end != dir_.end()) o.at(key).fail("'" + rel + "' lies outside the capture folder");
    return resolved;
  }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

CapturedInput read_input(const JsonCursor& c) {
  c.expect_object();
  CapturedInput in;
  in.path = str(c, "path");
  in.name = str(c, "name");
  in.kind = str(c, "kind");
  if (c.has("shape"))
    for (const JsonCursor& s : c.at("shape").elements()) in.shape.push_back(s.integer());
  in.dtype = str(c, "dtype");
  in.device = str(c, "device");
  if (c.has("value")) {
    const JsonCursor v = c.at("value");
    in.value = v.is_string() ? v.str() : v.type() == JsonType::Integer ? std::to_string(v.integer())
             : v.type() == JsonType::True                              ? "True"
             : v.type() == JsonType::False                             ? "False"
             : v.type() == JsonType::Real                              ? std::to_string(v.number())
                                                                       : "";
  }
  return in;
}

CapturedError read_error(const JsonCursor& c) {
  c.expect_object();
  CapturedError e;
  e.type = str(c, "type");
  e.short_type = str(c, "short_type");
  if (e.short_type.empty()) e.short_type = e.type.substr(e.type.rfind('.') + 1);
  e.message = str(c, "message");
  e.traceback = stack(c, "traceback");
  e.traceback_text = str(c, "traceback_text");
  e.user_frame = optional_frame(c, "user_frame");
  e.suggested_fixes = strings(c, "suggested_fixes");
  e.failure_class = str(c, "failure_class");
  return e;
}

// What the manifest and attempt.json both say of an attempt; attempt.json, read last, has the last word.
void read_summary(Attempt& a, const JsonCursor& c) {
  a.index = static_cast<int>(integer(c, "index", a.index));
  a.function = str(c, "function");
  a.ok = boolean(c, "ok");
  a.model_class = str(c, "model_class");
  if (c.has("call_site")) a.call_site = frame(c.at("call_site"));
  a.seconds = number(c, "seconds");
}

void read_attempt_file(Attempt& a, const JsonCursor& c, const FolderPaths& paths) {
  c.expect_object();
  read_summary(a, c);
  a.strict = optional_boolean(c, "strict");
  a.torch_version = str(c, "torch_version");
  if (c.has("inputs"))
    for (const JsonCursor& in : c.at("inputs").elements()) a.inputs.push_back(read_input(in));
  if (c.has("dynamic_shapes")) {
    const JsonCursor spec = c.at("dynamic_shapes");
    spec.expect_object();
    a.spec_given = boolean(spec, "given");
    a.spec_text = str(spec, "text");
    a.spec_exact = boolean(spec, "exact", true);
  }
  a.spec_override = boolean(c, "spec_override");
  a.started = str(c, "started");
  a.program = paths.inside(c, "program", a.dir);
  a.program_text = paths.inside(c, "program_text", a.dir);
  a.save_error = str(c, "save_error");
  if (c.has("error")) a.error = read_error(c.at("error"));
  a.partial_graph = paths.inside(c, "partial_graph", a.dir);
  a.trace = paths.inside(c, "trace", a.dir);
  if (c.has("draft")) {
    const JsonCursor d = c.at("draft");
    d.expect_object();
    // A draft export that failed too: its error as a string, or as an error object.
    std::string error;
    if (d.has("error")) {
      const JsonCursor e = d.at("error");
      error = e.is_object() ? read_error(e).short_type + ": " + first_line(str(e, "message")) : e.str();
    }
    a.draft = DraftResult{paths.inside(d, "program", a.dir), paths.inside(d, "program_text", a.dir),
                          paths.inside(d, "report", a.dir), paths.inside(d, "trace", a.dir), error};
  }
}

// What the manifest says of an attempt; attempt.json says more when it was written.
Attempt read_attempt(const JsonCursor& entry, const FolderPaths& paths, const serde::ReadLimits& limits) {
  entry.expect_object();
  Attempt a;
  read_summary(a, entry);
  a.dir = paths.inside(entry, "dir", paths.dir());
  if (a.dir.empty()) entry.fail("an attempt without its folder ('dir')");
  const std::string failure_class = str(entry, "failure_class");
  const fs::path file = a.dir / "attempt.json";
  std::error_code ec;
  if (fs::exists(file, ec)) {
    const JsonFile json(file, limits);
    read_attempt_file(a, json.root(), paths);
  } else if (!a.ok) {
    // The script was stopped inside this call: the manifest is all there is.
    a.error = CapturedError{};
    a.error->failure_class = failure_class.empty() ? "interrupted" : failure_class;
    a.error->message = "the script stopped before this export call returned";
  }
  return a;
}

fs::path manifest_of(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec) ? path / "manifest.json" : path;
}

}  // namespace

const Attempt* Capture::attempt(int index) const {
  for (const Attempt& a : attempts)
    if (a.index == index) return &a;
  return nullptr;
}

bool is_capture(const fs::path& path) {
  const fs::path manifest = manifest_of(path);
  std::error_code ec;
  if (manifest.filename() != "manifest.json" || !fs::is_regular_file(manifest, ec)) return false;
  std::ifstream in(manifest, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head.find(std::string("\"") + kFormat + "\"") != std::string::npos;
}

Capture read_capture(const fs::path& path, const serde::ReadLimits& limits) {
  const fs::path manifest = manifest_of(path);
  Capture c;
  c.dir = manifest.parent_path().empty() ? fs::path(".") : manifest.parent_path();
  try {
    const JsonFile json(manifest, limits);
    const JsonCursor m = json.root();
    m.expect_object();
    if (str(m, "format") != kFormat) m.fail(std::string("not a capture manifest (its format is not '") + kFormat + "')");
    c.format_version = static_cast<int>(integer(m, "format_version"));
    if (c.format_version < 1 || c.format_version > kNewestFormat)
      m.at("format_version")
          .fail("capture format " + std::to_string(c.format_version) + "; this ExportLens reads format " +
                std::to_string(kNewestFormat) + " (capture again with this release)");
    c.capture_version = str(m, "capture_version");
    c.torch_version = str(m, "torch_version");
    c.torch_dir = str(m, "torch_dir");
    c.python_version = str(m, "python_version");
    c.python_executable = str(m, "python_executable");
    c.script = str(m, "script");
    c.argv = strings(m, "argv");
    c.cwd = str(m, "cwd");
    c.started = str(m, "started");
    c.seconds = number(m, "seconds");
    if (m.has("exit")) {
      const JsonCursor exit = m.at("exit");
      exit.expect_object();
      if (exit.has("code")) c.exit_code = static_cast<int>(exit.at("code").integer());
      if (exit.has("exception")) {
        const JsonCursor ex = exit.at("exception");
        c.exit_exception = str(ex, "type") + ": " + str(ex, "message");
      }
    }
    const FolderPaths paths(c.dir);
    if (m.has("attempts")) {
      const JsonCursor attempts = m.at("attempts");
      if (attempts.size() > kMaxAttempts) attempts.fail("more than " + std::to_string(kMaxAttempts) + " attempts");
      for (const JsonCursor& a : attempts.elements()) c.attempts.push_back(read_attempt(a, paths, limits));
    }
  } catch (const serde::SchemaError& e) {
    throw Error(ErrorKind::Input, {}, e.what());
  }
  return c;
}

}  // namespace exportlens::capture
