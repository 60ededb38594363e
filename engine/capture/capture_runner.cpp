#include "engine/capture/capture_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

namespace exportlens::capture {
namespace {

namespace fs = std::filesystem;

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

bool holds_package(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / "exportlens_capture" / "__main__.py", ec);
}

}  // namespace

std::string find_python(const std::string& requested) {
  if (!requested.empty()) {
    if (requested.find('/') != std::string::npos) return is_executable(requested) ? requested : std::string();
    // A bare name ("python3.11") is looked up on PATH like the default.
  }
  const char* path = std::getenv("PATH");
  if (!path) return {};
  const std::vector<std::string> names = requested.empty() ? std::vector<std::string>{"python3", "python"}
                                                           : std::vector<std::string>{requested};
  for (const std::string& name : names) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) {
      if (dir.empty()) continue;
      const fs::path candidate = fs::path(dir) / name;
      if (is_executable(candidate)) return candidate.string();
    }
  }
  return {};
}

fs::path find_capture_package(const fs::path& executable) {
  if (const char* dir = std::getenv("EXPORTLENS_PYTHON_DIR"); dir && *dir) return dir;
  std::error_code ec;
  const fs::path exe = fs::weakly_canonical(executable, ec);
  const fs::path installed = exe.parent_path().parent_path() / "share" / "exportlens" / "python";
  if (holds_package(installed)) return installed;
#ifdef EXPORTLENS_SOURCE_PYTHON_DIR
  if (holds_package(EXPORTLENS_SOURCE_PYTHON_DIR)) return EXPORTLENS_SOURCE_PYTHON_DIR;
#endif
  return installed;  // what an installed ExportLens should have; capture_command() says it is missing
}

CaptureCommand capture_command(const CaptureRequest& request) {
  CaptureCommand c;
  c.program = find_python(request.python);
  if (c.program.empty())
    throw Error(ErrorKind::Usage, {},
                request.python.empty() ? "no python3 on PATH: name the interpreter that has torch with --python PY"
                                       : "'" + request.python + "' is not an executable Python interpreter");
  std::error_code ec;
  if (!fs::is_regular_file(request.script, ec))
    throw Error(ErrorKind::Usage, {.file = request.script.string()}, "no such script");
  if (!holds_package(request.package_dir))
    throw Error(ErrorKind::Usage, {.file = request.package_dir.string()},
                "the capture package (exportlens_capture) is not there; reinstall ExportLens or set "
                "EXPORTLENS_PYTHON_DIR to the folder that holds it");
  c.arguments = {"-m", "exportlens_capture", "-o", fs::absolute(request.output_dir).string()};
  if (request.draft) c.arguments.push_back("--draft");
  if (!request.trace.empty()) {
    if (request.trace != "dtrace" && request.trace != "plain" && request.trace != "none")
      throw Error(ErrorKind::Usage, {}, "--trace takes dtrace, plain or none (got '" + request.trace + "')");
    c.arguments.push_back("--trace");
    c.arguments.push_back(request.trace);
  }
  if (!request.spec_override.empty()) {
    c.arguments.push_back("--spec-override");
    c.arguments.push_back(fs::absolute(request.spec_override).string());
  }
  c.arguments.push_back("--");
  c.arguments.push_back(request.script.string());
  c.arguments.insert(c.arguments.end(), request.script_args.begin(), request.script_args.end());
  std::string pythonpath = fs::absolute(request.package_dir).string();
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pythonpath += std::string(":") + old;
  c.environment.emplace_back("PYTHONPATH", pythonpath);
  c.working_dir = fs::current_path(ec);
  return c;
}

int run_capture(const CaptureCommand& command, bool stdout_to_stderr, const CancelToken* cancel) {
  std::vector<std::string> argv_text = {command.program};
  argv_text.insert(argv_text.end(), command.arguments.begin(), command.arguments.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  // A cancellable run gets its own process group, so cancel stops the
  // script's children too; otherwise the script stays in ours and Ctrl+C
  // in a terminal reaches it as it would without ExportLens.
  const bool own_group = cancel != nullptr;
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(ErrorKind::Run, {}, std::string("cannot start the interpreter: ") + std::strerror(errno));
  if (pid == 0) {
    if (own_group) ::setpgid(0, 0);
    for (const auto& [key, value] : command.environment) ::setenv(key.c_str(), value.c_str(), 1);
    if (!command.working_dir.empty() && ::chdir(command.working_dir.c_str()) != 0) ::_exit(127);
    if (stdout_to_stderr) ::dup2(STDERR_FILENO, STDOUT_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  if (own_group) ::setpgid(pid, pid);
  int status = 0;
  auto deadline = std::chrono::steady_clock::time_point::max();
  bool terminated = false;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, cancel ? WNOHANG : 0);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw Error(ErrorKind::Run, {}, std::string("waiting for the script: ") + std::strerror(errno));
    if (cancel && cancel->is_cancelled()) {
      if (!terminated) {
        ::kill(-pid, SIGTERM);
        terminated = true;
        deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      } else if (std::chrono::steady_clock::now() > deadline) {
        ::kill(-pid, SIGKILL);
      }
    }
    if (cancel) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (terminated) throw Cancelled();
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

void write_spec_override(const fs::path& file, const std::vector<SpecOverride>& overrides) {
  nlohmann::json list = nlohmann::json::array();
  for (const SpecOverride& o : overrides)
    list.push_back({{"call_site", {{"file", o.call_site.file}, {"line", o.call_site.line}}},
                    {"occurrence", o.occurrence},
                    {"spec", o.spec_text}});
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << list.dump(2) << "\n";
  if (!out) throw Error(ErrorKind::Input, {.file = file.string()}, "cannot write the spec override file");
}

}  // namespace exportlens::capture
