#pragma once
// The engine suites' test harness: plain C++, no Qt, so that the headless
// build (servers, the GPU machine) builds and runs them too. It keeps
// QtTest's semantics, which the GUI suites still use: a failed check ends the
// test function (by throwing unit::Failure); a data-driven test runs each row
// on its own, so one failing row does not hide the others.
//
//   EL_TEST(reads_every_fixture) {
//     for_each_row(fixtures_with_status("ok"), [](const std::string& name) {
//       VERIFY_MSG(read(name).ok(), name + " does not open");
//       COMPARE(nodes(name), 12);
//     });
//   }
//
// The runner (unit_main.cpp) runs every test, or those named on the command
// line (-functions lists them), prints PASS / FAIL! lines and a total, and
// exits non-zero when one failed.
#include <cmath>
#include <algorithm>
#include <concepts>
#include <functional>
#include <memory>
#include <optional>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace exportlens::unit {

/// A failed check: where, and what.
struct Failure {
  std::string file;
  int line = 0;
  std::string message;
};

[[noreturn]] void fail(const char* file, int line, std::string message);

using TestFunction = void (*)();
/// Registers a test function (EL_TEST does, at static initialisation).
struct Registrar {
  Registrar(const char* name, TestFunction fn);
};

/// A note in the suite's output (QtTest's qInfo): "INFO   : message".
void info(const std::string& message);

/// Runs `fn` when the suite's tests are done, before the totals (a suite's
/// summary; QtTest's cleanupTestCase): `const AtSuiteEnd summary([] {...});`
struct AtSuiteEnd {
  explicit AtSuiteEnd(std::function<void()> fn);
};

/// Runs the registered tests (main() of every suite): all, or those named in argv.
int run_suite(int argc, char** argv);

/// Runs `fn` on one data row, named `row`; a failure is reported as
/// test(row) and the next row runs. Returns whether the row passed.
bool run_row(const std::string& row, const std::function<void()>& fn);

template <class T>
concept Streamable = requires(std::ostream& os, const T& v) { os << v; };
template <class T>
concept HasStr = requires(const T& v) {
  { v.str() } -> std::convertible_to<std::string>;
};

template <class T>
std::string show(const T& v);

template <class T>
struct is_pair : std::false_type {};
template <class A, class B>
struct is_pair<std::pair<A, B>> : std::true_type {};
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

/// A value as a failure message shows it.
template <class T>
std::string show(const T& v) {
  if constexpr (is_pair<T>::value) {
    return "(" + show(v.first) + ", " + show(v.second) + ")";
  } else if constexpr (is_optional<T>::value) {
    return v ? show(*v) : "nullopt";
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    return "\"" + std::string(std::string_view(v)) + "\"";
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (HasStr<T>) {
    return v.str();
  } else if constexpr (Streamable<T>) {
    std::ostringstream os;
    os << v;
    return os.str();
  } else if constexpr (requires { v.begin(); v.end(); }) {
    std::string out = "[";
    for (const auto& e : v) out += (out.size() > 1 ? ", " : "") + show(e);
    return out + "]";
  } else {
    return "<value>";
  }
}

/// QtTest's rule for floating point: equal infinities, both NaN, both
/// (nearly) zero, or equal to 12 significant digits (5 for float).
template <std::floating_point T>
bool fuzzy_equal(T actual, T expected) {
  const T scale = sizeof(T) == sizeof(float) ? T(1e5) : T(1e12);
  if (std::isinf(expected)) return std::isinf(actual) && (actual < 0) == (expected < 0);
  if (std::isnan(expected)) return std::isnan(actual);
  if (std::abs(expected) * scale <= 1) return std::abs(actual) * scale <= 1;
  return std::abs(actual - expected) * scale <= std::min(std::abs(actual), std::abs(expected));
}

template <class A, class B>
bool equal(const A& a, const B& b) {
  if constexpr (std::is_floating_point_v<A> || std::is_floating_point_v<B>) {
    using T = std::common_type_t<A, B>;
    return fuzzy_equal<T>(T(a), T(b));
  } else if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && !std::is_same_v<A, bool> &&
                       !std::is_same_v<B, bool>) {
    return std::cmp_equal(a, b);
  } else {
    return a == b;
  }
}

template <class A, class B>
void compare(const A& actual, const B& expected, const char* actual_text, const char* expected_text, const char* file,
             int line) {
  if (equal(actual, expected)) return;
  fail(file, line,
       std::string("compared values are not the same: ") + actual_text + " vs " + expected_text +
           "\n   Actual   (" + actual_text + "): " + show(actual) + "\n   Expected (" + expected_text +
           "): " + show(expected));
}

/// The name of a data row: the row itself when it is a string, else its `name`.
template <class Row>
std::string row_name(const Row& row) {
  if constexpr (std::is_convertible_v<const Row&, std::string>) return std::string(row);
  else return std::string(row.name);
}

/// Runs `fn(row)` on each row on its own (QtTest's data-driven test).
template <class Rows, class Fn>
void for_each_row(const Rows& rows, Fn&& fn) {
  for (const auto& row : rows) run_row(row_name(row), [&] { fn(row); });
}

/// A suite's one-time set-up (QtTest's initTestCase): the first get() makes
/// the value; later ones return it, or fail again as the first one failed,
/// so every test that needs a broken set-up fails with its message. `make`
/// returns the value, or fills a default-made one (for a T that cannot move):
///   const Answers& answers() { static SetUp<Answers> s; return s.get(ask_oracle); }
///   const State& state() { static SetUp<State> s; return s.get([](State& st) { build(st); }); }
template <class T>
class SetUp {
 public:
  template <class Make>
  const T& get(Make&& make) {
    if (!tried_) {
      tried_ = true;
      try {
        if constexpr (std::is_invocable_v<Make, T&>) {
          auto made = std::make_unique<T>();
          make(*made);
          value_ = std::move(made);
        } else {
          value_ = std::make_unique<T>(make());
        }
      } catch (const Failure& f) {
        failure_ = f;
      } catch (const std::exception& e) {
        failure_ = Failure{"", 0, std::string("the set-up threw: ") + e.what()};
      }
    }
    if (failure_) throw *failure_;
    return *value_;
  }

 private:
  bool tried_ = false;
  std::unique_ptr<T> value_;
  std::optional<Failure> failure_;
};

}  // namespace exportlens::unit

#define EL_TEST(name)                                                          \
  static void name();                                                          \
  static const ::exportlens::unit::Registrar name##_registrar(#name, &name); \
  static void name()

#define VERIFY(cond) \
  ((cond) ? void() : ::exportlens::unit::fail(__FILE__, __LINE__, "'" #cond "' returned FALSE."))
#define VERIFY_MSG(cond, message)                                                                   \
  ((cond) ? void()                                                                                  \
          : ::exportlens::unit::fail(__FILE__, __LINE__,                                            \
                                     "'" #cond "' returned FALSE. (" + std::string(message) + ")"))
#define COMPARE(actual, expected) \
  ::exportlens::unit::compare((actual), (expected), #actual, #expected, __FILE__, __LINE__)
#define FAIL(message) ::exportlens::unit::fail(__FILE__, __LINE__, std::string(message))
/// `expression` throws an `Exception`; another exception, or none, fails the test.
#define VERIFY_THROWS(Exception, ...)                                                                  \
  do {                                                                                                 \
    bool thrown_ = false;                                                                              \
    try {                                                                                              \
      (void)(__VA_ARGS__);                                                                             \
    } catch (const Exception&) {                                                                       \
      thrown_ = true;                                                                                  \
    } catch (...) {                                                                                    \
      FAIL("expected an exception of type " #Exception " from " #__VA_ARGS__ ", but caught another"); \
    }                                                                                                  \
    VERIFY_MSG(thrown_, "expected an exception of type " #Exception " from " #__VA_ARGS__);           \
  } while (0)
