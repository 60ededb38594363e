// The harness's registry and runner (unit.h): every registered test, or
// those named on the command line, in registration (source) order.
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>

#include "unit.h"

namespace exportlens::unit {
namespace {

struct Registry {
  std::vector<std::pair<std::string, TestFunction>> tests;
  std::vector<std::function<void()>> at_end;
  std::string current;     // the running test
  int failed_rows = 0;     // rows of the running test that failed
  int rows = 0;            // rows run, all tests
};

Registry& registry() {
  static Registry r;
  return r;
}

void report(const std::string& who, const Failure& f) {
  std::cout << "FAIL!  : " << who << " " << f.message << "\n";
  if (!f.file.empty()) std::cout << "   Loc: [" << f.file << "(" << f.line << ")]\n";
}

/// Runs `fn`, reporting a failure or an escaped exception as `who`'s.
bool run_reporting(const std::string& who, const std::function<void()>& fn) {
  try {
    fn();
    return true;
  } catch (const Failure& f) {
    report(who, f);
  } catch (const std::exception& e) {
    report(who, {"", 0, std::string("unexpected exception: ") + e.what()});
  } catch (...) {
    report(who, {"", 0, "unexpected exception of unknown type"});
  }
  return false;
}

}  // namespace

void info(const std::string& message) { std::cout << "INFO   : " << message << "\n"; }

void fail(const char* file, int line, std::string message) { throw Failure{file, line, std::move(message)}; }

Registrar::Registrar(const char* name, TestFunction fn) { registry().tests.emplace_back(name, fn); }

AtSuiteEnd::AtSuiteEnd(std::function<void()> fn) { registry().at_end.push_back(std::move(fn)); }

bool run_row(const std::string& row, const std::function<void()>& fn) {
  auto& r = registry();
  ++r.rows;
  const std::string who = r.current + "(" + row + ")";
  if (run_reporting(who, fn)) {
    std::cout << "PASS   : " << who << "\n";
    return true;
  }
  ++r.failed_rows;
  return false;
}

}  // namespace exportlens::unit

namespace exportlens::unit {

int run_suite(int argc, char** argv) {
  auto& r = registry();
  const std::string suite = std::filesystem::path(argv[0]).filename().string();
  std::vector<std::string> wanted;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-functions") {
      for (const auto& [name, fn] : r.tests) std::cout << name << "\n";
      return 0;
    }
    bool known = false;
    for (const auto& [name, fn] : r.tests) known = known || name == a;
    if (!known) {
      std::cerr << suite << ": no test function named '" << a << "' (-functions lists them)\n";
      return 1;
    }
    wanted.push_back(a);
  }
  std::cout << "********* Start testing of " << suite << " *********\n";
  int passed = 0, failed = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& [name, fn] : r.tests) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), name) == wanted.end()) continue;
    r.current = suite + "::" + name;
    r.failed_rows = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = run_reporting(r.current + "()", fn) && r.failed_rows == 0;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (ok) {
      std::printf("PASS   : %s() (%.2f s)\n", r.current.c_str(), s);
      ++passed;
    } else {
      ++failed;
    }
    std::fflush(stdout);
  }
  for (const auto& fn : r.at_end)
    if (!run_reporting(suite + "::at the end", fn)) ++failed;
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("Totals: %d passed, %d failed (test functions; %d data rows), %.1f s\n"
              "********* Finished testing of %s *********\n",
              passed, failed, r.rows, total, suite.c_str());
  return failed == 0 ? 0 : 1;
}

}  // namespace exportlens::unit
