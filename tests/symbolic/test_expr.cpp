// Expr against its oracle, sympy itself (with torch's FloorDiv/Mod/Max/...):
// hand-picked seeds and a few hundred random expressions are sent to
// sympy_oracle.py as srepr; sympy's str(), srepr() and value must match ours,
// sympy's srepr must read back to the same expression, and pairs built by
// different routes must be equal exactly when sympy builds equal objects.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/symbolic/expr.h"
#include "engine/symbolic/srepr_text.h"
#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using exportlens::symbolic::Expr;
using exportlens::symbolic::sympy_str_of_srepr;
using namespace exportlens::unit;
using json = nlohmann::json;

using Values = std::map<std::string, int64_t>;

namespace {

Expr sym(const std::string& name) { return Expr::symbol(name); }

/// Expressions as torch prints them in the seeds (tutorial guards, shapes,
/// range constraints) and in real exports; the text is what torch shows.
struct Seed {
  Expr expr;
  std::string text;
};

std::vector<Seed> seeds() {
  const Expr s0 = sym("s0"), s1 = sym("s1"), s2 = sym("s2"), s3 = sym("s3"), s4 = sym("s4"),
             s5 = sym("s5"), s17 = sym("s17"), s32 = sym("s32"), s77 = sym("s77"),
             s53 = sym("s53"), s95 = sym("s95"), s100 = sym("s100"), u0 = sym("u0");
  const Expr conv_h = Expr::floordiv(s0 + 2 - 3, 2) + 1, conv_w = Expr::floordiv(s53 + 2 - 3, 2) + 1;
  return {
      {s2 * s3, "s2*s3"},
      {s0 + 2, "s0 + 2"},
      {Expr(5) - s0, "5 - s0"},
      {s0 * s1 + s0, "s0*s1 + s0"},
      {s100 + s17 + 1, "s100 + s17 + 1"},
      {3 * s0 * s1 - 2 * s1 + 7, "3*s0*s1 - 2*s1 + 7"},
      {s0 * s0 + s0, "s0**2 + s0"},
      {2 * s100 * s17, "2*s100*s17"},
      {s17 * s77, "s17*s77"},
      {Expr::floordiv(s0, 2), "(s0//2)"},
      {2 * Expr::floordiv(s0 + 1, 2), "2*(((s0 + 1)//2))"},
      {Expr::mod(s0, 4), "Mod(s0, 4)"},
      {Expr::max(s0, s1), "Max(s0, s1)"},
      {Expr::eq(s2, s4), "Eq(s2, s4)"},
      {Expr::ne(s0, s1), "Ne(s0, s1)"},
      {Expr::eq(s1, 5), "Eq(s1, 5)"},
      {Expr::eq(s2 * s3, s5), "Eq(s2*s3, s5)"},
      {Expr::le(s0, 16), "s0 <= 16"},
      {Expr::gt(-u0, 60), "-u0 > 60"},
      {Expr::ge(Expr::floordiv(u0, 2), 5), "((u0//2)) >= 5"},
      {Expr::logical_and({Expr::ge(s0, 2), Expr::le(s0, 10)}), "(s0 >= 2) & (s0 <= 10)"},
      {Expr::logical_not(Expr::eq(u0, 3)), "Ne(u0, 3)"},
      {Expr::infinity(), "int_oo"},
      {Expr::infinity(true), "-int_oo"},
      {2 * s95, "2*s95"},
      {Expr::floordiv(2 * s95, 3), "((2*s95)//3)"},
      {s17 + 2 * s95, "s17 + 2*s95"},
      {s32 - 1, "s32 - 1"},
      {2 * s95 + Expr::mod(2 * s95, 4), "2*s95 + (Mod(2*s95, 4))"},
      {Expr::max(s17, 2 * s95), "Max(s17, 2*s95)"},
      {2 * s32 * s95 + 5, "2*s32*s95 + 5"},
      {Expr::mod(u0, 3), "PythonMod(u0, 3)"},
      // Shapes of real exports: conv/pool output sizes, chunk, unbacked slices.
      {conv_h, "(((s0 - 1)//2)) + 1"},
      {conv_h * conv_w * 4, "4*((((s0 - 1)//2)) + 1)*((((s53 - 1)//2)) + 1)"},
      {4 * Expr::max(1, Expr::floordiv(s0 - 1, 4)) * Expr::max(1, Expr::floordiv(s53 - 1, 4)),
       "4*Max(1, ((s0 - 1)//4))*Max(1, ((s53 - 1)//4))"},
      {2 * s95 - 2 * Expr::floordiv(2 * s95 + 2, 3), "2*s95 - 2*(((2*s95 + 2)//3))"},
      {Expr::min(10, Expr::floordiv(u0, 3)), "Min(10, (u0//3))"},
      {s17 + Expr::mod(2 * s95, 5) + 1, "s17 + (Mod(2*s95, 5)) + 1"},
      {Expr::floordiv(s17 * s95, 2) + 1, "(((s17*s95)//2)) + 1"},
      // MaxViT's window count over its grid: the divisor 256*(h + 1) is the sum 256*h + 256 in sympy.
      {Expr::floordiv(256 * (Expr::floordiv(s100 - 1, 32) + 1) * (Expr::floordiv(s4 - 1, 32) + 1),
                      256 * Expr::floordiv(s100 - 1, 32) + 256),
       "(((s4 - 1)//32)) + 1"},
  };
}

/// Random expressions over torch-like symbols, from a fixed seed.
class RandomExprs {
 public:
  explicit RandomExprs(uint32_t seed) : rng_(seed) {}

  Expr integer_expr(int depth) {
    if (depth <= 0 || pick(0, 9) < 2) return leaf();
    switch (pick(0, 11)) {
      case 0:
      case 1: return integer_expr(depth - 1) + integer_expr(depth - 1);
      case 2: return integer_expr(depth - 1) - integer_expr(depth - 1);
      case 3: return integer_expr(depth - 1) * integer_expr(depth - 2);
      case 4: return Expr(pick(-3, 4)) * integer_expr(depth - 1);
      case 5: return -integer_expr(depth - 1);
      case 6: return Expr::pow(integer_expr(depth - 2), pick(2, 3));
      case 7: return Expr::floordiv(integer_expr(depth - 1), divisor());
      case 8: return Expr::mod(integer_expr(depth - 1), divisor());
      case 9: return Expr::max(integer_expr(depth - 1), integer_expr(depth - 1));
      case 10: return Expr::min(integer_expr(depth - 1), integer_expr(depth - 1));
      default: return integer_expr(depth - 1) + pick(-3, 5);
    }
  }

  Expr boolean_expr(int depth) {
    if (depth <= 0 || pick(0, 9) < 5) return relation();
    switch (pick(0, 2)) {
      case 0: return Expr::logical_and({boolean_expr(depth - 1), boolean_expr(depth - 1)});
      case 1: return Expr::logical_or({boolean_expr(depth - 1), boolean_expr(depth - 1)});
      default: return Expr::logical_not(boolean_expr(depth - 1));
    }
  }

  /// Values for every symbol that respect its assumptions.
  Values point() {
    Values v;
    for (const auto& name : kSymbols) v[name] = name[0] == 's' ? pick(1, 9) : pick(-5, 5);
    return v;
  }

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

 private:
  inline static const std::vector<std::string> kSymbols = {"s0", "s1", "s2", "s17",
                                                           "s100", "u0", "u1"};
  std::mt19937 rng_;

  Expr symbol() { return sym(kSymbols[pick(0, kSymbols.size() - 1)]); }
  Expr size_symbol() { return sym(kSymbols[pick(0, 4)]); }
  Expr leaf() { return pick(0, 1) ? symbol() : Expr(pick(-4, 9)); }

  /// Always positive, so that no point divides by zero.
  Expr divisor() {
    switch (pick(0, 3)) {
      case 0: return Expr(pick(2, 6));
      case 1: return size_symbol();
      case 2: return size_symbol() + pick(1, 3);
      default: return pick(2, 4) * size_symbol();
    }
  }

  Expr relation() {
    const Expr a = integer_expr(2), b = integer_expr(1);
    switch (pick(0, 5)) {
      case 0: return Expr::eq(a, b);
      case 1: return Expr::ne(a, b);
      case 2: return Expr::lt(a, b);
      case 3: return Expr::le(a, b);
      case 4: return Expr::gt(a, b);
      default: return Expr::ge(a, b);
    }
  }
};

json to_json(const Values& values) {
  json o = json::object();
  for (const auto& [name, v] : values) o[name] = v;
  return o;
}

/// Our value at a point as the oracle writes it: an integer or "error".
json our_value(const Expr& e, const Values& point) {
  try {
    auto v = e.evaluate(point);
    if (!v) return "error";
    return *v;
  } catch (const std::exception&) {
    return "error";
  }
}

/// An environment variable as an int, 0 when unset or not a number.
int env_int(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : 0;
}

struct Case {
  std::string origin;  // "seed 3", "random 17", ...
  Expr expr;
  Values point;
};

struct Pair {
  std::string origin;
  Expr a, b;
  std::vector<Values> points;
};

/// The cases and pairs, from a fixed seed; EXPORTLENS_EXPR_SEED / EXPORTLENS_EXPR_SCALE explore further.
struct Inputs {
  std::vector<Case> cases;
  std::vector<Pair> pairs;
};

/// Pairs built by different routes; whether they are equal is sympy's call.
void build_pairs(RandomExprs& random, std::vector<Pair>& pairs) {
  using Route = std::function<std::pair<Expr, Expr>(Expr, Expr, Expr)>;
  const std::vector<std::pair<std::string, Route>> routes = {
      {"a+b / b+a", [](Expr a, Expr b, Expr) { return std::pair{a + b, b + a}; }},
      {"(a+b)+c / a+(b+c)", [](Expr a, Expr b, Expr c) { return std::pair{(a + b) + c, a + (b + c)}; }},
      {"a*b / b*a", [](Expr a, Expr b, Expr) { return std::pair{a * b, b * a}; }},
      {"(a*b)*c / a*(b*c)", [](Expr a, Expr b, Expr c) { return std::pair{(a * b) * c, a * (b * c)}; }},
      {"a+a / 2*a", [](Expr a, Expr, Expr) { return std::pair{a + a, 2 * a}; }},
      {"a*a / a**2", [](Expr a, Expr, Expr) { return std::pair{a * a, Expr::pow(a, 2)}; }},
      {"(a-b)+b / a", [](Expr a, Expr b, Expr) { return std::pair{(a - b) + b, a}; }},
      {"max(a,b) / max(b,a)", [](Expr a, Expr b, Expr) { return std::pair{Expr::max(a, b), Expr::max(b, a)}; }},
      {"min(min(a,b),c) / min(a,min(b,c))",
       [](Expr a, Expr b, Expr c) { return std::pair{Expr::min(Expr::min(a, b), c), Expr::min(a, Expr::min(b, c))}; }},
      {"a*(b+c) / a*b+a*c", [](Expr a, Expr b, Expr c) { return std::pair{a * (b + c), a * b + a * c}; }},
      {"a / b", [](Expr a, Expr b, Expr) { return std::pair{a, b}; }},
      {"str(a) / a", [](Expr a, Expr, Expr) { return std::pair{Expr::parse(a.str()), a}; }},
  };
  const int scale = env_int("EXPORTLENS_EXPR_SCALE") ?: 1;
  for (int i = 0; i < 240 * scale; ++i) {
    const auto& [name, route] = routes[i % routes.size()];
    auto [a, b] = route(random.integer_expr(2), random.integer_expr(2), random.integer_expr(1));
    pairs.push_back({name + " #" + std::to_string(i), a, b, {random.point(), random.point(), random.point()}});
  }
}

Inputs build_cases() {
  Inputs in;
  RandomExprs random(env_int("EXPORTLENS_EXPR_SEED") ?: 20240601);
  const int scale = env_int("EXPORTLENS_EXPR_SCALE") ?: 1;
  int n = 0;
  for (const Seed& s : seeds()) in.cases.push_back({"seed " + s.text, s.expr, random.point()});
  for (int i = 0; i < 300 * scale; ++i)
    in.cases.push_back({"random integer " + std::to_string(n++), random.integer_expr(4), random.point()});
  for (int i = 0; i < 120 * scale; ++i)
    in.cases.push_back({"random boolean " + std::to_string(n++), random.boolean_expr(2), random.point()});
  build_pairs(random, in.pairs);
  return in;
}

const Inputs& inputs() {
  static const Inputs in = build_cases();
  return in;
}

/// sympy's answers, one per case and one per pair.
struct Answers {
  std::vector<json> cases;
  std::vector<json> pairs;
};

/// One run of sympy_oracle.py over every case and pair.
Answers ask_oracle() {
  const Inputs& in = inputs();
  Answers out;
  TempDir dir;
  const std::string requests_path = dir.file("requests.jsonl");
  std::string requests;
  int id = 0;
  for (const Case& c : in.cases) {
    const json o{{"id", id++}, {"srepr", c.expr.srepr()}, {"values", to_json(c.point)}};
    requests += o.dump() + "\n";
  }
  for (const Pair& p : in.pairs) {
    json points = json::array();
    for (const Values& v : p.points) points.push_back(to_json(v));
    const json o{{"id", id++}, {"pair", json::array({p.a.srepr(), p.b.srepr()})}, {"values", points}};
    requests += o.dump() + "\n";
  }
  write_text(requests_path, requests);

  // A run past 300 s is killed and fails the test ("sympy oracle did not finish").
  const ProcessResult python =
      run_process(EXPORTLENS_PYTHON, {EXPORTLENS_SOURCE_DIR "/tests/symbolic/sympy_oracle.py", requests_path}, {}, 300);
  VERIFY_MSG(python.code == 0, "sympy oracle failed: " + python.err);
  std::map<int, json> answers;
  for (const std::string& line : split(python.out, '\n')) {
    if (trimmed(line).empty()) continue;
    json o = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!o.is_object()) o = json::object();  // an unreadable line is an empty answer
    answers[int(as_int(field(o, "id")))] = o;
  }
  COMPARE(int(answers.size()), id);
  for (int i = 0; i < id; ++i) {
    if (i < int(in.cases.size())) out.cases.push_back(answers[i]);
    else out.pairs.push_back(answers[i]);
  }
  return out;
}

/// The oracle's answers, asked once; a failed run fails every test that needs them.
const Answers& answers() {
  static SetUp<Answers> once;
  return once.get(ask_oracle);
}

/// sympy's own evaluation sometimes recurses without end (e.g. inside
/// PythonMod.eval); such a case says nothing about us.
bool sympy_gave_up(const json& answer) { return as_string(field(answer, "error")).starts_with("RecursionError"); }

std::string sympy_str(const json& a) { return as_string(field(a, "str")); }
std::string sympy_srepr(const json& a) { return as_string(field(a, "srepr")); }

/// Run `check` on every case; it returns a problem description or "".
void for_each_case(const std::function<std::string(const Case&, const json&)>& check, bool seeds_only = false) {
  const std::vector<Case>& cases = inputs().cases;
  const std::vector<json>& case_answers = answers().cases;
  COMPARE(case_answers.size(), cases.size());
  std::vector<std::string> problems;
  size_t skipped = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (seeds_only && cases[i].origin.rfind("seed", 0) != 0) continue;
    const json& answer = case_answers[i];
    if (sympy_gave_up(answer)) {
      ++skipped;
      continue;
    }
    std::string problem = answer.contains("error")
                              ? "sympy could not build it: " + as_string(field(answer, "error"))
                              : check(cases[i], answer);
    if (!problem.empty()) problems.push_back(cases[i].origin + " [" + cases[i].expr.srepr() + "]: " + problem);
  }
  for (size_t i = 0; i < problems.size() && i < 25; ++i) std::fprintf(stderr, "%s\n", problems[i].c_str());
  VERIFY_MSG(problems.empty(),
             std::to_string(problems.size()) + " of " + std::to_string(cases.size()) + " cases disagree");
  VERIFY_MSG(skipped * 50 <= cases.size(), "sympy gave up on too many cases");
}

}  // namespace

EL_TEST(seedsPrintAsTorchShowsThem) {
  for (const Seed& s : seeds()) COMPARE(s.expr.str(), s.text);
}

EL_TEST(seedsPrintAsSympy) {
  for_each_case([](const Case& c, const json& a) {
    return c.expr.str() == sympy_str(a) ? "" : "str " + c.expr.str() + " vs sympy " + sympy_str(a);
  }, /*seeds_only=*/true);
}

EL_TEST(strMatchesSympy) {
  for_each_case([](const Case& c, const json& a) {
    return c.expr.str() == sympy_str(a) ? "" : "str " + c.expr.str() + " vs sympy " + sympy_str(a);
  });
}

/// sympy re-evaluates our srepr into exactly our canonical form.
EL_TEST(canonicalFormMatchesSympy) {
  for_each_case([](const Case& c, const json& a) {
    return c.expr.srepr() == sympy_srepr(a) ? "" : "sympy made it " + sympy_srepr(a);
  });
}

EL_TEST(sympySreprRoundTrips) {
  for_each_case([](const Case&, const json& a) -> std::string {
    try {
      const Expr back = Expr::parse_srepr(sympy_srepr(a));
      if (back.str() != sympy_str(a)) return "parse_srepr(sympy).str() = " + back.str();
      if (back.srepr() != sympy_srepr(a)) return "parse_srepr(sympy).srepr() = " + back.srepr();
      return "";
    } catch (const std::exception& e) {
      return std::string("parse_srepr threw ") + e.what();
    }
  });
}

/// parse() reads a printout the way Python operators on sympy objects do
/// (which is not always the printed expression: -(-s0 - 2)*x rereads as
/// (s0 + 2)*x, in sympy as in ours).
EL_TEST(strParsesLikePython) {
  for_each_case([](const Case&, const json& a) -> std::string {
    try {
      const Expr from_str = Expr::parse(sympy_str(a));
      const std::string expected = as_string(field(a, "reread"));
      if (from_str.srepr() != expected)
        return "parse(" + sympy_str(a) + ") = " + from_str.srepr() + ", Python: " + expected;
      return "";
    } catch (const std::exception& e) {
      return std::string("parse threw ") + e.what();
    }
  });
}

/// Folding never changes a value: ours and sympy's canonical forms agree
/// with Python integer semantics at a random point.
EL_TEST(valuesMatchPython) {
  for_each_case([](const Case& c, const json& a) -> std::string {
    const json ours = our_value(c.expr, c.point);
    if (ours == field(a, "value")) return "";
    return "value " + json::array({ours, field(a, "value")}).dump();
  });
}

EL_TEST(canonicalPairsAgreeWithSympy) {
  const std::vector<Pair>& pairs = inputs().pairs;
  const std::vector<json>& pair_answers = answers().pairs;
  COMPARE(pair_answers.size(), pairs.size());
  int problems = 0, equal_pairs = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const Pair& p = pairs[i];
    const json& a = pair_answers[i];
    const bool ours = p.a == p.b;
    equal_pairs += ours;
    std::string problem;
    if (sympy_gave_up(a)) continue;
    if (a.contains("error")) problem = "sympy: " + as_string(field(a, "error"));
    else if (ours != as_bool(field(a, "equal")))
      problem = ours ? "we say equal, sympy not" : "sympy says equal, we not";
    else if (ours && !as_bool(field(a, "numeric_equal"))) problem = "equal but values differ";
    else if (ours && p.a.hash() != p.b.hash()) problem = "equal but hashes differ";
    if (!problem.empty() && ++problems <= 25)
      std::fprintf(stderr, "%s: %s | %s: %s\n", p.origin.c_str(), p.a.str().c_str(), p.b.str().c_str(),
                   problem.c_str());
  }
  VERIFY_MSG(problems == 0, std::to_string(problems) + " pairs disagree");
  VERIFY_MSG(equal_pairs > int(pairs.size()) / 3, "too few equal pairs to test anything");
}

EL_TEST(integerFolding) {
  const Expr s0 = sym("s0"), u0 = sym("u0");
  COMPARE(Expr(2) + 3, Expr(5));
  COMPARE((s0 + 1) - s0, Expr(1));
  COMPARE(s0 * 0, Expr(0));
  COMPARE(2 * (s0 + 1), 2 * s0 + 2);
  COMPARE(s0 * s0 * s0, Expr::pow(s0, 3));
  COMPARE(Expr::pow(2 * s0, 2), 4 * Expr::pow(s0, 2));
  COMPARE(Expr::floordiv(-7, 2), Expr(-4));
  COMPARE(Expr::floordiv(7, -2), Expr(-4));
  COMPARE(Expr::mod(-7, 3), Expr(2));
  COMPARE(Expr::mod(7, -3), Expr(-2));
  COMPARE(Expr::floordiv(4 * s0 + 6, 4), s0 + 1);
  COMPARE(Expr::floordiv(Expr::floordiv(u0, 2), 3), Expr::floordiv(u0, 6));
  COMPARE(Expr::mod(4 * s0, 2), Expr(0));
  COMPARE(Expr::max(3, 5), Expr(5));
  COMPARE(Expr::min(3, -5), Expr(-5));
  COMPARE(Expr::max(s0, 1), s0);  // s0 is a positive integer
  COMPARE(Expr::max(2 * s0, 3 * s0), 3 * s0);
}

EL_TEST(infinityArithmetic) {
  const Expr oo = Expr::infinity(), s0 = sym("s0");
  COMPARE(oo + 1, oo);
  COMPARE(-oo, Expr::infinity(true));
  COMPARE(oo * 2, oo);
  COMPARE(oo * -3, Expr::infinity(true));
  COMPARE(Expr::floordiv(oo, 2), oo);
  COMPARE(Expr::floordiv(7, oo), Expr(0));
  COMPARE(Expr::max(oo, 5), oo);
  COMPARE(Expr::min(Expr::infinity(true), 5), Expr::infinity(true));
  COMPARE(Expr::lt(5, oo), Expr::boolean(true));
  COMPARE(Expr::le(Expr::infinity(true), -3), Expr::boolean(true));
  COMPARE((s0 + oo).str(), std::string("s0 + int_oo"));
  VERIFY_THROWS(std::domain_error, oo + Expr::infinity(true));
  VERIFY_THROWS(std::domain_error, oo * 0);
}

EL_TEST(relationFolding) {
  const Expr s0 = sym("s0"), u0 = sym("u0");
  const Expr yes = Expr::boolean(true), no = Expr::boolean(false);
  COMPARE(Expr::eq(2, 2), yes);
  COMPARE(Expr::lt(3, 2), no);
  COMPARE(Expr::eq(s0 + 1, s0), no);
  COMPARE(Expr::gt(s0, 0), yes);
  COMPARE(Expr::eq(s0, -1), no);
  COMPARE(Expr::ge(s0, 1), yes);
  COMPARE(Expr::gt(s0, 1).kind(), Expr::Kind::Gt);  // sympy cannot tell either
  COMPARE(Expr::eq(u0, 3).kind(), Expr::Kind::Eq);
  COMPARE(Expr::logical_not(Expr::lt(u0, 3)), Expr::ge(u0, 3));
  COMPARE(Expr::logical_and({Expr::lt(u0, 3), yes}), Expr::lt(u0, 3));
  COMPARE(Expr::logical_or({Expr::lt(u0, 3), yes}), yes);
}

EL_TEST(evaluate) {
  const Expr s0 = sym("s0"), s1 = sym("s1"), u0 = sym("u0");
  const Expr e = 2 * s0 * s1 + Expr::floordiv(u0, 3) - Expr::mod(u0, 4) + Expr::max(s0, u0);
  const Values at{{"s0", 3}, {"s1", 5}, {"u0", -7}};
  // Python: 2*3*5 + (-7 // 3) - (-7 % 4) + max(3, -7) = 30 - 3 - 1 + 3
  COMPARE(e.evaluate(at), std::optional<int64_t>(29));
  VERIFY(!e.evaluate({{"s0", 3}}).has_value());
  COMPARE(Expr::le(s0 * s1, 15).evaluate(at), std::optional<int64_t>(1));
  COMPARE(Expr::logical_and({Expr::gt(u0, 0), Expr::eq(s0, 3)}).evaluate(at), std::optional<int64_t>(0));
  VERIFY_THROWS(std::domain_error, Expr::infinity().evaluate({}));
  VERIFY_THROWS(std::domain_error, Expr::floordiv(s0, u0).evaluate({{"s0", 1}, {"u0", 0}}));
  VERIFY_THROWS(std::overflow_error, Expr::pow(s0, 3).evaluate({{"s0", int64_t(1) << 40}}));
}

EL_TEST(substitute) {
  const Expr s0 = sym("s0"), s1 = sym("s1"), s2 = sym("s2"), s4 = sym("s4");
  COMPARE((s0 + s1).substitute({{"s1", s0}}), 2 * s0);
  COMPARE(Expr::eq(s2, s4).substitute({{"s4", s2}}), Expr::boolean(true));
  COMPARE(Expr::floordiv(s0, 2).substitute({{"s0", 2 * s1}}), s1);
  COMPARE((s0 * s1 + Expr::mod(s0, 3)).substitute({{"s0", Expr(7)}, {"s1", Expr(2)}}), Expr(15));
  const Expr untouched = s0 + Expr::max(s1, 4);
  VERIFY(untouched.substitute({{"s9", Expr(1)}}).node() == untouched.node());
  VERIFY(untouched.free_symbols() == (std::vector<std::string>{"s0", "s1"}));
}

EL_TEST(sreprErrorsNameTheOffset) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "offset 0: expected an expression"},
      {"Add(Integer(1), )", "offset 16: expected an expression"},
      {"Integer(x)", "offset 8: expected an integer"},
      {"Symbol('s0'", "offset 11: expected ')'"},
      {"Symbol('s0', positive=Maybe)", "offset 22: expected True or False"},
      {"Foo(Integer(1))", "offset 0: expected a supported sympy class"},
      {"Mul(Integer(2), Integer(3)) x", "offset 28: expected end of input"},
      {"Pow(Symbol('x'), Integer(-1))", "offset 0: negative exponent"},
      {"Pow(Symbol('x'), Symbol('y'))", "offset 0: expected an integer exponent"},
      {"FloorDiv(Symbol('x'), Integer(0))", "offset 0: division by zero"},
      {"Mod(Integer(1))", "offset 0: expected 2 arguments to Mod"},
  };
  for (const auto& [text, message] : bad) {
    try {
      Expr::parse_srepr(text);
      FAIL("accepted malformed srepr: " + text);
    } catch (const std::invalid_argument& e) {
      VERIFY_MSG(std::string(e.what()).find(message) != std::string::npos, text + " -> " + e.what());
    }
  }
}

// The srepr of float-valued expressions (.item() of a float tensor) is kept as
// sympy's str; it is read by the same srepr reader as the integer expressions.
EL_TEST(sreprTextPrintsSympyStr) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"StrictGreaterThan(Symbol('zuf0'), Float('0.0', precision=53))", "zuf0 > 0.0"},
      {"Unequality(Symbol('zuf0'), Float('3.0', precision=53))", "Ne(zuf0, 3.0)"},
      {"Add(Mul(Symbol('zuf0'), Symbol('zuf1')), Float('-2.0', precision=53))", "zuf0*zuf1 - 2.0"},
      {"Add(Mul(Integer(-1), Symbol('zuf0')), Symbol('zuf1'))", "-zuf0 + zuf1"},
      {"Mul(Integer(2), Symbol('zuf0'), Add(Symbol('zuf1'), Integer(1)))", "2*zuf0*(zuf1 + 1)"},
      {"Pow(Add(Symbol('zuf0'), Integer(1)), Integer(2))", "(zuf0 + 1)**2"},
      {"Mul(Rational(1, 2), Symbol('zuf0'))", "1/2*zuf0"},
      {"And(Equality(Symbol('zuf0'), Float('1.0', precision=53)), LessThan(Symbol('zuf0'), Integer(0)))",
       "(Eq(zuf0, 1.0)) & (zuf0 <= 0)"},
      {"Or(StrictGreaterThan(Symbol('zuf0'), Integer(0)), StrictLessThan(Symbol('zuf1'), Integer(1)))",
       "(zuf0 > 0) | (zuf1 < 1)"},
      {"-oo", "-oo"},
      {"true", "True"},
      {"Min(Float('1.0', precision=53), Symbol('zuf0'))", "Min(1.0, zuf0)"},
  };
  for (const auto& [srepr, str] : cases) COMPARE(sympy_str_of_srepr(srepr), str);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"Symbol('x'", "srepr text: at offset 10: expected ')'"},
      {"Float('1.0') x", "srepr text: at offset 13: expected end of input"},
      {std::string(300, '-') + "oo", "nested more than 200 levels deep"},
  };
  for (const auto& [text, message] : bad) {
    try {
      sympy_str_of_srepr(text);
      FAIL("accepted malformed srepr: " + text);
    } catch (const std::invalid_argument& e) {
      VERIFY_MSG(std::string(e.what()).find(message) != std::string::npos, text + " -> " + e.what());
    }
  }
}

EL_TEST(sreprKeepsAssumptions) {
  const std::string text = "Symbol('x', nonnegative=True, integer=True)";
  const Expr x = Expr::parse_srepr(text);
  COMPARE(x.srepr(), text);
  COMPARE(Expr::max(x, 0), x);  // known non-negative
  COMPARE(sym("u3").srepr(), std::string("Symbol('u3', integer=True)"));
  COMPARE(sym("s3").srepr(), std::string("Symbol('s3', positive=True, integer=True)"));
}

EL_TEST(parseStrForms) {
  const Expr s0 = sym("s0"), u0 = sym("u0");
  COMPARE(Expr::parse("s0 + 2"), s0 + 2);
  COMPARE(Expr::parse("2*(((s0 + 1)//2))"), 2 * Expr::floordiv(s0 + 1, 2));
  COMPARE(Expr::parse("u0 // 2 >= 5"), Expr::ge(Expr::floordiv(u0, 2), 5));
  COMPARE(Expr::parse("-u0 > 60"), Expr::gt(-u0, 60));
  COMPARE(Expr::parse("-s0**2"), -Expr::pow(s0, 2));
  COMPARE(Expr::parse("2**3**2"), Expr(512));
  COMPARE(Expr::parse("-int_oo"), Expr::infinity(true));
  COMPARE(Expr::parse("(s0 >= 2) & (s0 <= 10) | Eq(u0, 1)"),
          Expr::logical_or({Expr::logical_and({Expr::ge(s0, 2), Expr::le(s0, 10)}), Expr::eq(u0, 1)}));
  COMPARE(Expr::parse("~(u0 < 3)"), Expr::ge(u0, 3));
  COMPARE(Expr::parse("Mod(s0, 4) + Max(s0, u0) - Min(1, u0)"),
          Expr::mod(s0, 4) + Expr::max(s0, u0) - Expr::min(1, u0));
  for (const char* bad : {"s0 +", "Foo(1)", "s0 ** s0", "(s0", "s0 $ 1", "Eq(s0)"})
    VERIFY_THROWS(std::invalid_argument, Expr::parse(bad));
}

EL_TEST(hashEqualityAndOrderAgree) {
  const std::vector<Case>& cases = inputs().cases;
  std::vector<Expr> pool;
  for (const Case& c : cases) pool.push_back(c.expr);
  for (const Case& c : cases) pool.push_back(Expr::parse_srepr(c.expr.srepr()));
  for (const Expr& a : pool) {
    VERIFY(!(a < a));
    for (const Expr& b : {pool[0], pool[7], pool[42], pool[pool.size() / 2 + 3]}) {
      const bool equal = a == b;
      if (equal) COMPARE(a.hash(), b.hash());
      COMPARE(!(a < b) && !(b < a), equal);
      VERIFY(!((a < b) && (b < a)));
    }
  }
}
