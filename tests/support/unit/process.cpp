#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "unit.h"

extern char** environ;

namespace exportlens::unit {
namespace {

std::string command_line(const std::string& program, const std::vector<std::string>& args) {
  std::string s = program;
  for (const auto& a : args) s += " " + (a.size() > 80 ? a.substr(0, 77) + "..." : a);
  return s;
}

}  // namespace

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::vector<std::string>& unset, int timeout_s) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0)
    fail(__FILE__, __LINE__, "cannot make a pipe for " + program);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);

  std::vector<std::string> storage{program};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (char** e = environ; *e; ++e) {
    bool drop = false;
    for (const auto& name : unset)
      drop = drop || (std::strncmp(*e, name.c_str(), name.size()) == 0 && (*e)[name.size()] == '=');
    if (!drop) envp.push_back(*e);
  }
  envp.push_back(nullptr);

  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    fail(__FILE__, __LINE__, "cannot start " + program + ": " + std::strerror(spawned));
  }

  ProcessResult r;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  int open_fds = 2;
  bool timed_out = false;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    if (poll(fds, 2, int(left.count())) < 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, size_t(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (timed_out)
    fail(__FILE__, __LINE__, command_line(program, args) + " did not finish in " + std::to_string(timeout_s) + " s");
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

ProcessResult run_headless(const std::string& program, const std::vector<std::string>& args, int timeout_s) {
  return run_process(program, args, {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}, timeout_s);
}

ProcessResult run_python_code(const std::string& python, const std::string& code,
                              const std::vector<std::string>& args, int timeout_s) {
  std::vector<std::string> all{"-c", code};
  all.insert(all.end(), args.begin(), args.end());
  return run_process(python, all, {}, timeout_s);
}

}  // namespace exportlens::unit
