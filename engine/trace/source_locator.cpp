#include "engine/trace/source_locator.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <link.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#if EXPORTLENS_HAVE_BACKTRACE
// GCC's libbacktrace (libbacktrace.a beside libgcc); its header is not on the
// default include path, so the few entry points are declared here.
extern "C" {
struct backtrace_state;
typedef void (*backtrace_error_callback)(void* data, const char* msg, int errnum);
typedef int (*backtrace_simple_callback)(void* data, uintptr_t pc);
typedef int (*backtrace_full_callback)(void* data, uintptr_t pc, const char* filename, int lineno,
                                       const char* function);
backtrace_state* backtrace_create_state(const char* filename, int threaded, backtrace_error_callback error_callback,
                                        void* data);
int backtrace_simple(backtrace_state* state, int skip, backtrace_simple_callback callback,
                     backtrace_error_callback error_callback, void* data);
int backtrace_pcinfo(backtrace_state* state, uintptr_t pc, backtrace_full_callback callback,
                     backtrace_error_callback error_callback, void* data);
}
#endif

namespace exportlens::trace {

namespace {

/// Debug info may hold paths relative to the build directory ("../engine/x.cpp"
/// when the build tree is inside the sources): make them absolute.
std::string absolute_path(std::string_view file) {
  std::filesystem::path p{std::string(file)};
  if (p.is_relative()) p = std::filesystem::path(EXPORTLENS_BUILD_DIR) / p;
  return p.lexically_normal().string();
}

/// Model code: not LibTorch, not the C++ library, not the tracer (engine/trace,
/// except its gallery of models), not the SDK headers.
bool is_model_file(const std::string& file) {
  if (file.empty()) return false;
  for (std::string_view skip : {"/torch/include/", "/torch/csrc/", "/c10/", "/ATen/", "/usr/include/", "/usr/lib/"})
    if (file.find(skip) != std::string::npos) return false;
  if (file.find("/engine/trace/") != std::string::npos && file.find("/engine/trace/gallery/") == std::string::npos)
    return false;
  return file.find("exportlens_sdk") == std::string::npos;
}

/// "Net::forward(at::Tensor)" -> "forward"; "main" -> "main".
std::string short_function(const char* raw) {
  if (!raw) return "";
  std::string name = raw;
  int status = 0;
  if (char* d = abi::__cxa_demangle(raw, nullptr, nullptr, &status); status == 0 && d) {
    name = d;
    std::free(d);
  }
  // Cut the parameter list (the last top-level parenthesis group).
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '(' && depth == 0 && name.compare(i, 12, "(anonymous n") != 0) {
      name.resize(i);
      break;
    }
  }
  if (auto p = name.rfind("::"); p != std::string::npos) name = name.substr(p + 2);
  if (auto p = name.rfind(' '); p != std::string::npos) name = name.substr(p + 1);
  return name;
}

#if EXPORTLENS_HAVE_BACKTRACE
struct Range {
  uintptr_t begin, end;
};

/// Address ranges of the shared objects whose frames are never model code.
std::vector<Range> ignored_ranges() {
  std::vector<Range> out;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        const std::string_view name = info->dlpi_name ? info->dlpi_name : "";
        bool skip = false;
        for (std::string_view lib : {"libtorch", "libc10", "libc.so", "libstdc++", "libgomp", "libm.so", "libgcc_s",
                                     "libQt6", "ld-linux"})
          skip = skip || name.find(lib) != std::string_view::npos;
        if (!skip) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          const uintptr_t b = info->dlpi_addr + ph.p_vaddr;
          static_cast<std::vector<Range>*>(data)->push_back({b, b + ph.p_memsz});
        }
        return 0;
      },
      &out);
  return out;
}

/// How many shared objects the process has loaded so far (glibc's dlpi_adds).
unsigned long long objects_loaded() {
  unsigned long long adds = 0;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t size, void* data) {
        if (size >= offsetof(dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds))
          *static_cast<unsigned long long*>(data) = info->dlpi_adds;
        return 1;  // the counter is the same on every entry
      },
      &adds);
  return adds;
}

struct Resolver {
  backtrace_state* state = nullptr;
  std::vector<Range> ignored;
  unsigned long long objects_seen = 0;
  std::mutex mutex;
  std::unordered_map<uintptr_t, std::optional<ir::SourceLocation>> cache;

  Resolver() { refresh(); }

  /// libbacktrace reads the list of shared objects once per state: a model
  /// library dlopen'ed later needs a fresh state (states cannot be freed; one
  /// per load is a few KiB).
  void refresh() {
    const unsigned long long now = objects_loaded();
    if (state && now == objects_seen) return;
    objects_seen = now;
    state = backtrace_create_state(nullptr, /*threaded=*/1, [](void*, const char*, int) {}, nullptr);
    ignored = ignored_ranges();
    cache.clear();
  }

  bool in_ignored(uintptr_t pc) const {
    for (const Range& r : ignored)
      if (pc >= r.begin && pc < r.end) return true;
    return false;
  }

  /// The first model frame of `pc`, innermost inlined frame first.
  std::optional<ir::SourceLocation> resolve(uintptr_t pc) {
    struct Found {
      std::optional<ir::SourceLocation> loc;
    } found;
    backtrace_pcinfo(
        state, pc,
        [](void* data, uintptr_t, const char* file, int line, const char* fn) -> int {
          auto* f = static_cast<Found*>(data);
          if (!file) return 0;
          std::string path = absolute_path(file);
          if (!is_model_file(path)) return 0;
          f->loc = ir::SourceLocation{std::move(path), line, short_function(fn), ""};
          return 1;  // stop: innermost model frame found
        },
        [](void*, const char*, int) {}, &found);
    return found.loc;
  }
};

Resolver& resolver() {
  static Resolver r;
  return r;
}
#endif

}  // namespace

std::optional<ir::SourceLocation> SourceLocator::model_frame() {
#if !EXPORTLENS_HAVE_BACKTRACE
  return std::nullopt;
#else
  Resolver& r = resolver();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.refresh();
  std::vector<uintptr_t> pcs;
  pcs.reserve(64);
  backtrace_simple(
      r.state, 1,
      [](void* data, uintptr_t pc) -> int {
        auto* v = static_cast<std::vector<uintptr_t>*>(data);
        v->push_back(pc);
        return v->size() >= 64 ? 1 : 0;
      },
      [](void*, const char*, int) {}, &pcs);
  for (uintptr_t pc : pcs) {
    if (r.in_ignored(pc)) continue;
    auto it = r.cache.find(pc);
    if (it == r.cache.end()) it = r.cache.emplace(pc, r.resolve(pc)).first;
    if (it->second) {
      ir::SourceLocation l = *it->second;
      l.code = source_line(l.file, l.line);
      return l;
    }
  }
  return std::nullopt;
#endif
}

ir::SourceLocation SourceLocator::at(const char* file, int line, const char* function) {
  ir::SourceLocation l{file ? absolute_path(file) : "", line, short_function(function), ""};
  l.code = source_line(l.file, l.line);
  return l;
}

std::string SourceLocator::stack_trace_text(const ir::SourceLocation& l) {
  std::string s = "File \"" + l.file + "\", line " + std::to_string(l.line) + ", in " + l.function;
  if (!l.code.empty()) s += "\n    " + l.code;
  return s;
}

std::string SourceLocator::describe(const ir::SourceLocation& l) {
  return std::filesystem::path(l.file).filename().string() + ":" + std::to_string(l.line) +
         (l.function.empty() ? "" : " in " + l.function);
}

std::string SourceLocator::source_line(const std::string& file, int line) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::vector<std::string>> files;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = files.find(file);
  if (it == files.end()) {
    std::vector<std::string> lines;
    std::ifstream in(file);
    for (std::string s; std::getline(in, s);) lines.push_back(s);
    it = files.emplace(file, std::move(lines)).first;
  }
  if (line < 1 || size_t(line) > it->second.size()) return "";
  const std::string& s = it->second[size_t(line) - 1];
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace exportlens::trace
