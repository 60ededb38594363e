// Expr against its oracle, sympy itself (with torch's FloorDiv/Mod/Max/...):
// hand-picked seeds and a few hundred random expressions are sent to
// sympy_oracle.py as srepr; sympy's str(), srepr() and value must match ours,
// sympy's srepr must read back to the same expression, and pairs built by
// different routes must be equal exactly when sympy builds equal objects.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <map>
#include <random>
#include <stdexcept>

#include "engine/symbolic/expr.h"

using exportlens::symbolic::Expr;

namespace exportlens::symbolic {
// QCOMPARE prints expressions the way torch does.
char* toString(const Expr& e) { return qstrdup(e.str().c_str()); }
}  // namespace exportlens::symbolic

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

QJsonObject to_json(const Values& values) {
  QJsonObject o;
  for (const auto& [name, v] : values) o.insert(QString::fromStdString(name), qint64(v));
  return o;
}

/// Our value at a point as the oracle writes it: an integer or "error".
QJsonValue our_value(const Expr& e, const Values& point) {
  try {
    auto v = e.evaluate(point);
    if (!v) return QStringLiteral("error");
    return qint64(*v);
  } catch (const std::exception&) {
    return QStringLiteral("error");
  }
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

}  // namespace

class TestExpr : public QObject {
  Q_OBJECT

 private:
  std::vector<Case> cases_;
  std::vector<Pair> pairs_;
  std::vector<QJsonObject> case_answers_;
  std::vector<QJsonObject> pair_answers_;

  /// A fixed seed; EXPORTLENS_EXPR_SEED / EXPORTLENS_EXPR_SCALE explore further.
  void build_cases() {
    RandomExprs random(qEnvironmentVariableIntValue("EXPORTLENS_EXPR_SEED") ?: 20240601);
    const int scale = qEnvironmentVariableIntValue("EXPORTLENS_EXPR_SCALE") ?: 1;
    int n = 0;
    for (const Seed& s : seeds()) cases_.push_back({"seed " + s.text, s.expr, random.point()});
    for (int i = 0; i < 300 * scale; ++i)
      cases_.push_back({"random integer " + std::to_string(n++), random.integer_expr(4),
                        random.point()});
    for (int i = 0; i < 120 * scale; ++i)
      cases_.push_back({"random boolean " + std::to_string(n++), random.boolean_expr(2),
                        random.point()});
    build_pairs(random);
  }

  /// Pairs built by different routes; whether they are equal is sympy's call.
  void build_pairs(RandomExprs& random) {
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
    const int scale = qEnvironmentVariableIntValue("EXPORTLENS_EXPR_SCALE") ?: 1;
    for (int i = 0; i < 240 * scale; ++i) {
      const auto& [name, route] = routes[i % routes.size()];
      auto [a, b] = route(random.integer_expr(2), random.integer_expr(2), random.integer_expr(1));
      pairs_.push_back({name + " #" + std::to_string(i), a, b,
                        {random.point(), random.point(), random.point()}});
    }
  }

  /// One run of sympy_oracle.py over every case and pair.
  void ask_oracle() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile requests(dir.filePath("requests.jsonl"));
    QVERIFY(requests.open(QIODevice::WriteOnly));
    int id = 0;
    for (const Case& c : cases_) {
      QJsonObject o{{"id", id++},
                    {"srepr", QString::fromStdString(c.expr.srepr())},
                    {"values", to_json(c.point)}};
      requests.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n");
    }
    for (const Pair& p : pairs_) {
      QJsonArray points;
      for (const Values& v : p.points) points.append(to_json(v));
      QJsonObject o{{"id", id++},
                    {"pair", QJsonArray{QString::fromStdString(p.a.srepr()),
                                        QString::fromStdString(p.b.srepr())}},
                    {"values", points}};
      requests.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + "\n");
    }
    requests.close();

    QProcess python;
    python.start(EXPORTLENS_PYTHON, {QStringLiteral(EXPORTLENS_SOURCE_DIR "/tests/symbolic/sympy_oracle.py"),
                                     requests.fileName()});
    QVERIFY2(python.waitForFinished(300000), "sympy oracle did not finish");
    QVERIFY2(python.exitStatus() == QProcess::NormalExit && python.exitCode() == 0,
             qPrintable("sympy oracle failed: " + python.readAllStandardError()));
    std::map<int, QJsonObject> answers;
    for (const QByteArray& line : python.readAllStandardOutput().split('\n')) {
      if (line.trimmed().isEmpty()) continue;
      const QJsonObject o = QJsonDocument::fromJson(line).object();
      answers[o.value("id").toInt()] = o;
    }
    QCOMPARE(int(answers.size()), id);
    for (int i = 0; i < id; ++i) {
      if (i < int(cases_.size())) case_answers_.push_back(answers[i]);
      else pair_answers_.push_back(answers[i]);
    }
  }

  /// Run `check` on every case; it returns a problem description or "".
  void for_each_case(const std::function<std::string(const Case&, const QJsonObject&)>& check,
                     bool seeds_only = false) {
    QCOMPARE(case_answers_.size(), cases_.size());
    std::vector<std::string> problems;
    size_t skipped = 0;
    for (size_t i = 0; i < cases_.size(); ++i) {
      if (seeds_only && cases_[i].origin.rfind("seed", 0) != 0) continue;
      const QJsonObject& answer = case_answers_[i];
      if (sympy_gave_up(answer)) {
        ++skipped;
        continue;
      }
      std::string problem =
          answer.contains("error")
              ? "sympy could not build it: " + answer.value("error").toString().toStdString()
              : check(cases_[i], answer);
      if (!problem.empty())
        problems.push_back(cases_[i].origin + " [" + cases_[i].expr.srepr() + "]: " + problem);
    }
    for (size_t i = 0; i < problems.size() && i < 25; ++i) qWarning("%s", problems[i].c_str());
    QVERIFY2(problems.empty(), qPrintable(QString::number(problems.size()) + " of " +
                                          QString::number(cases_.size()) + " cases disagree"));
    QVERIFY2(skipped * 50 <= cases_.size(), "sympy gave up on too many cases");
  }

  /// sympy's own evaluation sometimes recurses without end (e.g. inside
  /// PythonMod.eval); such a case says nothing about us.
  static bool sympy_gave_up(const QJsonObject& answer) {
    return answer.value("error").toString().startsWith("RecursionError");
  }

  static std::string sympy_str(const QJsonObject& a) { return a.value("str").toString().toStdString(); }
  static std::string sympy_srepr(const QJsonObject& a) { return a.value("srepr").toString().toStdString(); }

 private slots:
  void initTestCase() {
    build_cases();
    ask_oracle();
  }

  void seedsPrintAsTorchShowsThem() {
    for (const Seed& s : seeds()) QCOMPARE(QString::fromStdString(s.expr.str()), QString::fromStdString(s.text));
  }

  void seedsPrintAsSympy() {
    for_each_case([](const Case& c, const QJsonObject& a) {
      return c.expr.str() == sympy_str(a) ? "" : "str " + c.expr.str() + " vs sympy " + sympy_str(a);
    }, /*seeds_only=*/true);
  }

  void strMatchesSympy() {
    for_each_case([](const Case& c, const QJsonObject& a) {
      return c.expr.str() == sympy_str(a) ? "" : "str " + c.expr.str() + " vs sympy " + sympy_str(a);
    });
  }

  /// sympy re-evaluates our srepr into exactly our canonical form.
  void canonicalFormMatchesSympy() {
    for_each_case([](const Case& c, const QJsonObject& a) {
      return c.expr.srepr() == sympy_srepr(a) ? "" : "sympy made it " + sympy_srepr(a);
    });
  }

  void sympySreprRoundTrips() {
    for_each_case([](const Case&, const QJsonObject& a) -> std::string {
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
  void strParsesLikePython() {
    for_each_case([](const Case&, const QJsonObject& a) -> std::string {
      try {
        const Expr from_str = Expr::parse(sympy_str(a));
        const std::string expected = a.value("reread").toString().toStdString();
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
  void valuesMatchPython() {
    for_each_case([](const Case& c, const QJsonObject& a) -> std::string {
      const QJsonValue ours = our_value(c.expr, c.point);
      if (ours == a.value("value")) return "";
      return "value " + QJsonDocument(QJsonArray{ours, a.value("value")}).toJson(QJsonDocument::Compact).toStdString();
    });
  }

  void canonicalPairsAgreeWithSympy() {
    QCOMPARE(pair_answers_.size(), pairs_.size());
    int problems = 0, equal_pairs = 0;
    for (size_t i = 0; i < pairs_.size(); ++i) {
      const Pair& p = pairs_[i];
      const QJsonObject& a = pair_answers_[i];
      const bool ours = p.a == p.b;
      equal_pairs += ours;
      std::string problem;
      if (sympy_gave_up(a)) continue;
      if (a.contains("error")) problem = "sympy: " + a.value("error").toString().toStdString();
      else if (ours != a.value("equal").toBool()) problem = ours ? "we say equal, sympy not" : "sympy says equal, we not";
      else if (ours && !a.value("numeric_equal").toBool()) problem = "equal but values differ";
      else if (ours && p.a.hash() != p.b.hash()) problem = "equal but hashes differ";
      if (!problem.empty() && ++problems <= 25)
        qWarning("%s: %s | %s: %s", p.origin.c_str(), p.a.str().c_str(), p.b.str().c_str(), problem.c_str());
    }
    QVERIFY2(problems == 0, qPrintable(QString::number(problems) + " pairs disagree"));
    QVERIFY2(equal_pairs > int(pairs_.size()) / 3, "too few equal pairs to test anything");
  }

  void integerFolding() {
    const Expr s0 = sym("s0"), u0 = sym("u0");
    QCOMPARE(Expr(2) + 3, Expr(5));
    QCOMPARE((s0 + 1) - s0, Expr(1));
    QCOMPARE(s0 * 0, Expr(0));
    QCOMPARE(2 * (s0 + 1), 2 * s0 + 2);
    QCOMPARE(s0 * s0 * s0, Expr::pow(s0, 3));
    QCOMPARE(Expr::pow(2 * s0, 2), 4 * Expr::pow(s0, 2));
    QCOMPARE(Expr::floordiv(-7, 2), Expr(-4));
    QCOMPARE(Expr::floordiv(7, -2), Expr(-4));
    QCOMPARE(Expr::mod(-7, 3), Expr(2));
    QCOMPARE(Expr::mod(7, -3), Expr(-2));
    QCOMPARE(Expr::floordiv(4 * s0 + 6, 4), s0 + 1);
    QCOMPARE(Expr::floordiv(Expr::floordiv(u0, 2), 3), Expr::floordiv(u0, 6));
    QCOMPARE(Expr::mod(4 * s0, 2), Expr(0));
    QCOMPARE(Expr::max(3, 5), Expr(5));
    QCOMPARE(Expr::min(3, -5), Expr(-5));
    QCOMPARE(Expr::max(s0, 1), s0);  // s0 is a positive integer
    QCOMPARE(Expr::max(2 * s0, 3 * s0), 3 * s0);
  }

  void infinityArithmetic() {
    const Expr oo = Expr::infinity(), s0 = sym("s0");
    QCOMPARE(oo + 1, oo);
    QCOMPARE(-oo, Expr::infinity(true));
    QCOMPARE(oo * 2, oo);
    QCOMPARE(oo * -3, Expr::infinity(true));
    QCOMPARE(Expr::floordiv(oo, 2), oo);
    QCOMPARE(Expr::floordiv(7, oo), Expr(0));
    QCOMPARE(Expr::max(oo, 5), oo);
    QCOMPARE(Expr::min(Expr::infinity(true), 5), Expr::infinity(true));
    QCOMPARE(Expr::lt(5, oo), Expr::boolean(true));
    QCOMPARE(Expr::le(Expr::infinity(true), -3), Expr::boolean(true));
    QCOMPARE(QString::fromStdString((s0 + oo).str()), QStringLiteral("s0 + int_oo"));
    QVERIFY_THROWS_EXCEPTION(std::domain_error, oo + Expr::infinity(true));
    QVERIFY_THROWS_EXCEPTION(std::domain_error, oo * 0);
  }

  void relationFolding() {
    const Expr s0 = sym("s0"), u0 = sym("u0");
    const Expr yes = Expr::boolean(true), no = Expr::boolean(false);
    QCOMPARE(Expr::eq(2, 2), yes);
    QCOMPARE(Expr::lt(3, 2), no);
    QCOMPARE(Expr::eq(s0 + 1, s0), no);
    QCOMPARE(Expr::gt(s0, 0), yes);
    QCOMPARE(Expr::eq(s0, -1), no);
    QCOMPARE(Expr::ge(s0, 1), yes);
    QCOMPARE(Expr::gt(s0, 1).kind(), Expr::Kind::Gt);  // sympy cannot tell either
    QCOMPARE(Expr::eq(u0, 3).kind(), Expr::Kind::Eq);
    QCOMPARE(Expr::logical_not(Expr::lt(u0, 3)), Expr::ge(u0, 3));
    QCOMPARE(Expr::logical_and({Expr::lt(u0, 3), yes}), Expr::lt(u0, 3));
    QCOMPARE(Expr::logical_or({Expr::lt(u0, 3), yes}), yes);
  }

  void evaluate() {
    const Expr s0 = sym("s0"), s1 = sym("s1"), u0 = sym("u0");
    const Expr e = 2 * s0 * s1 + Expr::floordiv(u0, 3) - Expr::mod(u0, 4) + Expr::max(s0, u0);
    const Values at{{"s0", 3}, {"s1", 5}, {"u0", -7}};
    // Python: 2*3*5 + (-7 // 3) - (-7 % 4) + max(3, -7) = 30 - 3 - 1 + 3
    QCOMPARE(e.evaluate(at), std::optional<int64_t>(29));
    QVERIFY(!e.evaluate({{"s0", 3}}).has_value());
    QCOMPARE(Expr::le(s0 * s1, 15).evaluate(at), std::optional<int64_t>(1));
    QCOMPARE(Expr::logical_and({Expr::gt(u0, 0), Expr::eq(s0, 3)}).evaluate(at), std::optional<int64_t>(0));
    QVERIFY_THROWS_EXCEPTION(std::domain_error, Expr::infinity().evaluate({}));
    QVERIFY_THROWS_EXCEPTION(std::domain_error, Expr::floordiv(s0, u0).evaluate({{"s0", 1}, {"u0", 0}}));
    QVERIFY_THROWS_EXCEPTION(std::overflow_error, Expr::pow(s0, 3).evaluate({{"s0", int64_t(1) << 40}}));
  }

  void substitute() {
    const Expr s0 = sym("s0"), s1 = sym("s1"), s2 = sym("s2"), s4 = sym("s4");
    QCOMPARE((s0 + s1).substitute({{"s1", s0}}), 2 * s0);
    QCOMPARE(Expr::eq(s2, s4).substitute({{"s4", s2}}), Expr::boolean(true));
    QCOMPARE(Expr::floordiv(s0, 2).substitute({{"s0", 2 * s1}}), s1);
    QCOMPARE((s0 * s1 + Expr::mod(s0, 3)).substitute({{"s0", Expr(7)}, {"s1", Expr(2)}}), Expr(15));
    const Expr untouched = s0 + Expr::max(s1, 4);
    QVERIFY(untouched.substitute({{"s9", Expr(1)}}).node() == untouched.node());
    QVERIFY(untouched.free_symbols() == (std::vector<std::string>{"s0", "s1"}));
  }

  void sreprErrorsNameTheOffset() {
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
        QFAIL(qPrintable("accepted malformed srepr: " + QString::fromStdString(text)));
      } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find(message) != std::string::npos,
                 qPrintable(QString::fromStdString(text + " -> " + e.what())));
      }
    }
  }

  void sreprKeepsAssumptions() {
    const std::string text = "Symbol('x', nonnegative=True, integer=True)";
    const Expr x = Expr::parse_srepr(text);
    QCOMPARE(QString::fromStdString(x.srepr()), QString::fromStdString(text));
    QCOMPARE(Expr::max(x, 0), x);  // known non-negative
    QCOMPARE(QString::fromStdString(sym("u3").srepr()), QStringLiteral("Symbol('u3', integer=True)"));
    QCOMPARE(QString::fromStdString(sym("s3").srepr()),
             QStringLiteral("Symbol('s3', positive=True, integer=True)"));
  }

  void parseStrForms() {
    const Expr s0 = sym("s0"), u0 = sym("u0");
    QCOMPARE(Expr::parse("s0 + 2"), s0 + 2);
    QCOMPARE(Expr::parse("2*(((s0 + 1)//2))"), 2 * Expr::floordiv(s0 + 1, 2));
    QCOMPARE(Expr::parse("u0 // 2 >= 5"), Expr::ge(Expr::floordiv(u0, 2), 5));
    QCOMPARE(Expr::parse("-u0 > 60"), Expr::gt(-u0, 60));
    QCOMPARE(Expr::parse("-s0**2"), -Expr::pow(s0, 2));
    QCOMPARE(Expr::parse("2**3**2"), Expr(512));
    QCOMPARE(Expr::parse("-int_oo"), Expr::infinity(true));
    QCOMPARE(Expr::parse("(s0 >= 2) & (s0 <= 10) | Eq(u0, 1)"),
             Expr::logical_or({Expr::logical_and({Expr::ge(s0, 2), Expr::le(s0, 10)}), Expr::eq(u0, 1)}));
    QCOMPARE(Expr::parse("~(u0 < 3)"), Expr::ge(u0, 3));
    QCOMPARE(Expr::parse("Mod(s0, 4) + Max(s0, u0) - Min(1, u0)"),
             Expr::mod(s0, 4) + Expr::max(s0, u0) - Expr::min(1, u0));
    for (const char* bad : {"s0 +", "Foo(1)", "s0 ** s0", "(s0", "s0 $ 1", "Eq(s0)"})
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Expr::parse(bad));
  }

  void hashEqualityAndOrderAgree() {
    std::vector<Expr> pool;
    for (const Case& c : cases_) pool.push_back(c.expr);
    for (const Case& c : cases_) pool.push_back(Expr::parse_srepr(c.expr.srepr()));
    for (const Expr& a : pool) {
      QVERIFY(!(a < a));
      for (const Expr& b : {pool[0], pool[7], pool[42], pool[pool.size() / 2 + 3]}) {
        const bool equal = a == b;
        if (equal) QCOMPARE(a.hash(), b.hash());
        QCOMPARE(!(a < b) && !(b < a), equal);
        QVERIFY(!((a < b) && (b < a)));
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestExpr)
#include "test_expr.moc"
