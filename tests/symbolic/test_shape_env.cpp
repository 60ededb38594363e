// ShapeEnv, the dynamic_shapes spec reader/printer and the guard printer,
// against torch: symbol names and ranges from real exports (the oracle
// fixtures), torch's own printers run through the venv's Python, and the
// data-dependent error torch raises for the seed's `if a // 2 >= 5`.
#include <QProcess>
#include <QtTest>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/python_guard_parser.h"
#include "engine/symbolic/python_printer.h"
#include "engine/symbolic/shape_env.h"
#include "engine/symbolic/symbol_names.h"
#include "support/fixtures.h"

using namespace exportlens::symbolic;
using namespace exportlens::testing;

namespace {

Expr sym(const std::string& n) { return Expr::symbol(n); }

Provenance rule(const std::string& node) {
  Provenance p;
  p.node = node;
  p.op = "aten.add.Tensor";
  p.rule = "broadcast";
  return p;
}

QString range_text(const ShapeEnv& env, const Expr& e) {
  const ValueRange r = env.bound(env.replace(e));
  return QString::fromStdString(r.str());
}

QJsonArray range_of(const QJsonObject& ranges, const std::string& key) { return ranges[QString::fromStdString(key)].toArray(); }

QString bound_text(const QJsonValue& v) { return v.isString() ? v.toString() : QString::number(v.toInteger()); }

/// The seed's DynamicModel inputs w [6, 5], x [4], y [8, 4], z [32] as AUTO dims.
struct DynamicModelEnv {
  ShapeEnv env;
  Expr w0, w1, x0, y0, y1, z0;
  DynamicModelEnv() {
    w0 = env.create_backed("L['w'].size()[0]", 6, std::nullopt);
    w1 = env.create_backed("L['w'].size()[1]", 5, std::nullopt);
    x0 = env.create_backed("L['x'].size()[0]", 4, std::nullopt);
    y0 = env.create_backed("L['y'].size()[0]", 8, std::nullopt);
    y1 = env.create_backed("L['y'].size()[1]", 4, std::nullopt);
    z0 = env.create_backed("L['z'].size()[0]", 32, std::nullopt);
  }
};

QStringList python_lines(const QString& code) {
  QProcess p;
  p.start(EXPORTLENS_PYTHON, {"-c", code});
  if (!p.waitForFinished(120000) || p.exitCode() != 0)
    qFatal("python failed: %s", qPrintable(QString::fromUtf8(p.readAllStandardError())));
  return QString::fromUtf8(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
}

}  // namespace

class TestShapeEnv : public QObject {
  Q_OBJECT

 private slots:
  // ---- symbols -----------------------------------------------------------------
  void symbols_are_named_like_torch() {
    // torch 2.13 names a dim's symbol s<sha256(source) % 100>: DynamicModel's AUTO export.
    const auto meta = fixture_meta("dynamic_model_auto");
    const auto ph = meta["placeholders"].toObject();
    DynamicModelEnv m;
    QCOMPARE(QString::fromStdString(m.w0.str()), ph["w"].toArray()[0].toString());
    QCOMPARE(QString::fromStdString(m.x0.str()), ph["x"].toArray()[0].toString());
    QCOMPARE(QString::fromStdString(m.y0.str()), ph["y"].toArray()[0].toString());
    QCOMPARE(QString::fromStdString(sha256_hex("abc")),
             QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  }

  void zero_one_specialization_and_ranges() {
    ShapeEnv env;
    QCOMPARE(env.create_backed("L['x'].size()[0]", 1, std::nullopt), Expr(1));
    QCOMPARE(env.create_backed("L['x'].size()[1]", 0, std::nullopt), Expr(0));
    const Expr s = env.create_backed("L['x'].size()[2]", 7, std::nullopt);
    QCOMPARE(QString::fromStdString(env.range_of_symbol(s).str()), QStringLiteral("[2, int_oo]"));
    const Expr u = env.create_unbacked({});
    QCOMPARE(QString::fromStdString(u.str()), QStringLiteral("u0"));
    QCOMPARE(QString::fromStdString(env.range_of_symbol(u).str()), QStringLiteral("[-int_oo, int_oo]"));
    // A named Dim's range, and an example outside it (seed 000: "10 not in range [11, 18]").
    const Expr d = env.create_backed("L['y'].size()[0]", 10, ValueRange::between(Num::integer(4), Num::integer(18)));
    QCOMPARE(QString::fromStdString(env.range_of_symbol(d).str()), QStringLiteral("[4, 18]"));
    const auto bad = fixture_meta("dynamic_shapes_example1_bad")["error_message"].toString().split('\n').first();
    try {
      env.create_backed("L['y'].size()[1]", 10, ValueRange::between(Num::integer(11), Num::integer(18)));
      QFAIL("expected a constraint violation");
    } catch (const ConstraintViolationError& e) {
      QCOMPARE(QString::fromStdString(e.what()), bad);
    }
  }

  // ---- guards, replacements, ranges -------------------------------------------
  void seed_dynamic_model_guards() {
    DynamicModelEnv m;
    auto& env = m.env;
    QVERIFY(env.evaluate(Expr::eq(m.x0, m.y1), rule("add")));                // x + y
    QVERIFY(env.evaluate(Expr::eq(m.w1, Expr(5)), rule("linear")));          // Linear(5, 3)
    QVERIFY(env.evaluate(Expr::eq(env.replace(m.y0 * m.y1), m.z0), rule("add_1")));  // flatten + z
    QCOMPARE(int(env.guards().size()), 3);
    QCOMPARE(QString::fromStdString(env.guards()[0].expr.str()), QStringLiteral("Eq(s77, s94)"));
    QCOMPARE(QString::fromStdString(env.guards()[0].origin.node), QStringLiteral("add"));
    // Equalities eliminate symbols; the placeholders print as torch prints them.
    const auto ph = fixture_meta("dynamic_model_auto")["placeholders"].toObject();
    QCOMPARE(QString::fromStdString(env.replace(m.y1).str()), ph["y"].toArray()[1].toString());
    QCOMPARE(QString::fromStdString(env.replace(m.z0).str()), ph["z"].toArray()[0].toString());
    QCOMPARE(QString::fromStdString(env.replace(m.w1).str()), ph["w"].toArray()[1].toString());
    // A guard the ranges already decide is not recorded.
    QVERIFY(env.evaluate(Expr::ge(m.x0, Expr(2)), rule("x")));
    QVERIFY(!env.evaluate(Expr::eq(m.x0, Expr(1)), rule("x")));
    QCOMPARE(int(env.guards().size()), 3);
    // A recorded guard is a fact: its negation is statically false.
    QCOMPARE(env.static_truth(Expr::ne(m.x0, m.y1)), std::optional<bool>(false));
  }

  void user_code_guards_refine_ranges() {
    // DynamicModelV2: assert w.shape[0] <= 512; _check(x.shape[0] >= 4); if w.shape[0] == x.shape[0] + 2.
    DynamicModelEnv m;
    auto& env = m.env;
    QVERIFY(env.evaluate(Expr::le(m.w0, Expr(512)), rule("assert")));
    env.check(Expr::ge(m.x0, Expr(4)), rule("_check"));
    QVERIFY(env.evaluate(Expr::eq(m.w0, m.x0 + 2), rule("if")));
    const auto ranges = fixture_meta("dynamic_model_v2_auto")["range_constraints"].toObject();
    const Expr w0 = env.replace(m.w0);
    QCOMPARE(QString::fromStdString(w0.str()), QStringLiteral("s77 + 2"));
    const QJsonArray x_range = range_of(ranges, "s77"), w_range = range_of(ranges, "s77 + 2");
    QCOMPARE(range_text(env, m.x0), "[" + bound_text(x_range[0]) + ", " + bound_text(x_range[1]) + "]");
    QCOMPARE(range_text(env, w0), "[" + bound_text(w_range[0]) + ", " + bound_text(w_range[1]) + "]");
    QVERIFY(!env.replacement_log().empty());
    QCOMPARE(QString::fromStdString(env.replacement_log().back().origin.node), QStringLiteral("if"));
  }

  void repeated_disjunction_is_guarded_once() {
    // A repeated block asks the same disjunction in every instance; torch keeps
    // each guard among its axioms, so the copies are known, not guarded again.
    const QStringList torch_guards = python_lines(QStringLiteral(
        "from torch.fx.experimental.symbolic_shapes import ShapeEnv, DimDynamic\n"
        "from torch._dynamo.source import ConstantSource\n"
        "env = ShapeEnv()\n"
        "a = env.create_unspecified_symint_and_symbol(6, ConstantSource('a'), DimDynamic.DYNAMIC)\n"
        "b = env.create_unspecified_symint_and_symbol(5, ConstantSource('b'), DimDynamic.DYNAMIC)\n"
        "for _ in range(3): bool((a == 6) | (b == 7))\n"
        "print(len(env.guards))\n"));
    QCOMPARE(torch_guards.size(), 1);
    ShapeEnv env;
    const Expr a = env.create_backed("L['a']", 6, std::nullopt);
    const Expr b = env.create_backed("L['b']", 5, std::nullopt);
    for (int i = 0; i < 3; ++i)
      QVERIFY(env.evaluate(Expr::logical_or({Expr::eq(a, Expr(6)), Expr::eq(b, Expr(7))}), rule("or")));
    QCOMPARE(QString::number(env.guards().size()), torch_guards.front());
  }

  void divisibility_from_derived_dims() {
    ShapeEnv env;
    const Expr s = env.create_backed("L['x'].size()[0]", 32, std::nullopt);
    QVERIFY(env.evaluate(Expr::eq(Expr::mod(s, Expr(4)), Expr(0)), rule("view")));
    QCOMPARE(env.static_truth(Expr::eq(Expr::mod(s, Expr(4)), Expr(0))), std::optional<bool>(true));
    // 4*dx against the input: the replacement carries the Dim's range to dx.
    const Expr dx = env.create_phantom("dx", 8, ValueRange::between(Num::integer(4), Num::integer(512)));
    QVERIFY(env.evaluate(Expr::eq(s, 4 * dx), rule("spec")));
    QCOMPARE(QString::fromStdString(env.replace(s).str()), QStringLiteral("4*s95"));
    const auto ranges = fixture_meta("named_dims_4dx")["range_constraints"].toObject();
    QCOMPARE(range_text(env, dx), "[" + bound_text(range_of(ranges, "s95")[0]) + ", " +
                                      bound_text(range_of(ranges, "s95")[1]) + "]");
  }

  void unbacked_symbols_and_checks() {
    // Seed: torch._check(a >= 10); torch._check(a <= 60); if a // 2 >= 5 (export succeeds, u0 in [10, 60]).
    ShapeEnv env;
    const Expr u = env.create_unbacked({});
    env.check(Expr::ge(u, Expr(10)), rule("_check"));
    env.check(Expr::le(u, Expr(60)), rule("_check"));
    QCOMPARE(int(env.runtime_asserts().size()), 2);
    QVERIFY(env.evaluate(Expr::ge(Expr::floordiv(u, Expr(2)), Expr(5)), rule("if")));
    const auto r = fixture_meta("data_dependent_branch_checked")["range_constraints"].toObject()["u0"].toArray();
    QCOMPARE(QString::fromStdString(env.range_of_symbol(u).str()),
             "[" + bound_text(r[0]) + ", " + bound_text(r[1]) + "]");
  }

  void data_dependent_error_reads_like_torch() {
    // Without the checks torch refuses: "Could not guard on data-dependent expression ...".
    ShapeEnv env;
    const Expr u = env.create_unbacked({});
    Provenance where;
    where.node = "ge";
    where.location = "seed_models.py:217 in forward";
    const QString first = fixture_meta("data_dependent_branch")["error_message"].toString().split('\n').first();
    try {
      env.evaluate(Expr::ge(Expr::floordiv(u, Expr(2)), Expr(5)), where);
      QFAIL("expected a data-dependent error");
    } catch (const DataDependentError& e) {
      QCOMPARE(QString::fromStdString(e.what()).split('\n').first(), first);
      QVERIFY(QString::fromStdString(e.what()).contains("seed_models.py:217 in forward"));
    }
    // guard_or_false gives the fallback instead, without a guard.
    QVERIFY(!env.guard_or_false(Expr::eq(u, Expr(1)), where));
    QVERIFY(env.guards().empty());
  }

  // ---- the Python guard printer and reader, against torch's ----------------------
  void python_printer_matches_torch() {
    const QStringList srepr = {
        "Eq(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, integer=True))",
        "Eq(Mul(Symbol('s0', positive=True, integer=True), Symbol('s1', positive=True, integer=True)), Symbol('s2', positive=True, integer=True))",
        "Ne(Symbol('s1', positive=True, integer=True), Integer(16))",
        "LessThan(Symbol('s0', positive=True, integer=True), Integer(16))",
        "GreaterThan(Symbol('s0', positive=True, integer=True), Integer(4))",
        "Eq(Add(Symbol('s0', positive=True, integer=True), Integer(-1)), FloorDiv(Add(Symbol('s1', positive=True, integer=True), Integer(1)), Integer(3)))",
        "Eq(Symbol('s0', positive=True, integer=True), Add(Mul(Integer(2), Symbol('s1', positive=True, integer=True)), Integer(3)))",
        "Eq(Add(Mul(Integer(3), Symbol('s0', positive=True, integer=True)), Mul(Integer(2), Symbol('s1', positive=True, integer=True))), Integer(7))",
        "Eq(Symbol('s0', positive=True, integer=True), Add(Integer(8), Mul(Integer(-1), Symbol('s1', positive=True, integer=True))))",
        "Eq(Mod(Symbol('s0', positive=True, integer=True), Integer(4)), Integer(0))",
        "Eq(Max(Symbol('s0', positive=True, integer=True), Add(Symbol('s1', positive=True, integer=True), Integer(1))), Symbol('s2', positive=True, integer=True))",
        "Eq(Mul(Symbol('s0', positive=True, integer=True), Symbol('u0', integer=True)), Symbol('s1', positive=True, integer=True))",
        "GreaterThan(FloorDiv(Symbol('u0', integer=True), Integer(2)), Integer(5))",
    };
    const QString code = QStringLiteral(
        "import sys, sympy\n"
        "from sympy import *\n"
        "from torch.utils._sympy.functions import FloorDiv, Mod, Max, Min\n"
        "from torch.fx.experimental.symbolic_shapes import ShapeGuardPythonPrinter\n"
        "from torch._dynamo.source import LocalSource, TensorPropertySource, TensorProperty\n"
        "names = {'s0': ('x', 0), 's1': ('y', 1), 's2': ('z', 0), 'u0': ('q', 0)}\n"
        "class M(dict):\n"
        "    def get(self, k, d=None): return [TensorPropertySource(LocalSource(names[k.name][0]), TensorProperty.SIZE, names[k.name][1])]\n"
        "m = M()\n"
        "p = ShapeGuardPythonPrinter(m, lambda s: s.name, m)\n"
        "for line in sys.argv[1:]:\n"
        "    print(p.doprint(eval(line, dict(globals(), FloorDiv=FloorDiv, Mod=Mod, Max=Max, Min=Min))))\n");
    QProcess p;
    p.start(EXPORTLENS_PYTHON, QStringList{"-c", code} + srepr);
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    const QStringList torch_text = QString::fromUtf8(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(torch_text.size(), srepr.size());
    const std::map<std::string, std::string> sources = {{"s0", "L['x'].size()[0]"},
                                                        {"s1", "L['y'].size()[1]"},
                                                        {"s2", "L['z'].size()[0]"},
                                                        {"u0", "L['q'].size()[0]"}};
    for (int i = 0; i < srepr.size(); ++i) {
      const Expr e = Expr::parse_srepr(srepr[i].toStdString());
      const std::string mine = to_python(e, [&](const Expr& s) { return sources.at(s.symbol_name()); });
      QCOMPARE(QString::fromStdString(mine), torch_text[i]);
      // And the recorded-guard reader reads torch's text back to the same relation.
      const Expr back = parse_python_guard(torch_text[i].toStdString());
      std::map<std::string, Expr> to_symbols;
      for (const auto& [s, src] : sources) to_symbols.emplace(src, sym(s));
      QCOMPARE(QString::fromStdString(canonical_relation(back.substitute(to_symbols)).str()),
               QString::fromStdString(canonical_relation(e).str()));
    }
  }

  // ---- the dynamic_shapes spec ------------------------------------------------
  void spec_syntax_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("printed");
    QTest::newRow("named and None") << "dx = Dim(\"dx\", min=4, max=256)\ndh = Dim(\"dh\", max=512)\n"
                                       "dynamic_shapes = {\n    \"x\": (dx, None),\n    \"y\": (2 * dx, dh),\n}\n"
                                    << "dx = Dim(\"dx\", min=4, max=256)\ndh = Dim(\"dh\", max=512)\n"
                                       "dynamic_shapes = {\n    \"x\": (dx, None),\n    \"y\": (2*dx, dh),\n}\n";
    QTest::newRow("dims() and torch.export") << "from torch.export import Dim\ndx, dy, d1 = torch.export.dims(\"dx\", \"dy\", \"d1\")\n"
                                                "dynamic_shapes = {\"x\": (dx, d1), \"y\": (dy, d1)}"
                                             << "dx = Dim(\"dx\")\ndy = Dim(\"dy\")\nd1 = Dim(\"d1\")\n"
                                                "dynamic_shapes = {\n    \"x\": (dx, d1),\n    \"y\": (dy, d1),\n}\n";
    QTest::newRow("derived, tuple by position") << "dx = torch.export.Dim(\"dx\", min=3, max=6)\ndz = dx + 1\ndy = dx * 3 + 1\n"
                                                   "dynamic_shapes = ({0: dz}, {0: dy})"
                                                << "dx = Dim(\"dx\", min=3, max=6)\n"
                                                   "dynamic_shapes = (\n    {0: dx + 1},\n    {0: 3*dx + 1},\n)\n";
    QTest::newRow("hints, per-input None, item assignment")
        << "dynamic_shapes = {\"w\": (Dim.AUTO, Dim.AUTO), \"x\": None, \"y\": [Dim.DYNAMIC(min=3), 4]}\n"
           "dynamic_shapes[\"w\"] = (Dim.AUTO, Dim.STATIC)  # like the seed does\n"
        << "dynamic_shapes = {\n    \"w\": (Dim.AUTO, Dim.STATIC),\n    \"x\": None,\n    \"y\": [Dim.DYNAMIC(min=3), 4],\n}\n";
    QTest::newRow("variable and Dim names differ") << "inp4_dim1 = Dim('shared_dim')\ninp5_dim0 = inp4_dim1\n"
                                                      "{\"x\": {1: inp4_dim1}, \"y\": {0: inp5_dim0}}"
                                                   << "inp4_dim1 = Dim(\"shared_dim\")\n"
                                                      "dynamic_shapes = {\n    \"x\": {1: inp4_dim1},\n    \"y\": {0: inp4_dim1},\n}\n";
  }
  void spec_syntax() {
    QFETCH(QString, text);
    QFETCH(QString, printed);
    const DynamicShapesSpec spec = parse_dynamic_shapes(text.toStdString());
    QCOMPARE(QString::fromStdString(print_dynamic_shapes(spec)), printed);
    QVERIFY(parse_dynamic_shapes(print_dynamic_shapes(spec)) == spec);
  }

  void spec_errors_name_the_place_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("undefined") << "dynamic_shapes = {\"x\": (dx, None)}"
                               << "dynamic_shapes, line 1, column 25: name 'dx' is not defined (define Dims before using them, e.g. dx = "
                                  "Dim(\"dx\"))";
    QTest::newRow("inconsistent") << "d = Dim(\"d\", min=5, max=3)"
                                  << "dynamic_shapes, line 1, column 8: Cannot create Dim with inconsistent min=5, max=3";
    QTest::newRow("not a dim") << "dynamic_shapes = {\"x\": (\"big\", None)}"
                               << "dynamic_shapes, line 1, column 25: expected None, an int, a Dim, Dim.AUTO, "
                                  "Dim.STATIC, or Dim.DYNAMIC for dimension 0 of input 'x', got a string";
    QTest::newRow("negative coefficient") << "dx = Dim(\"dx\")\ndynamic_shapes = {\"x\": (dx * 0,)}"
                                          << "dynamic_shapes, line 2, column 28: Attempted to multiply 0 with dx, where a "
                                             "positive integer was expected. (Only increasing linear operations with "
                                             "integer coefficients are supported.)";
    QTest::newRow("comprehension") << "dynamic_shapes = {\"x\": {i: Dim.AUTO for i in range(2)}}"
                                   << "dynamic_shapes, line 1, column 37: comprehensions are not supported; list the "
                                      "dimensions explicitly";
    QTest::newRow("unclosed") << "dynamic_shapes = {\"x\": (Dim.AUTO,\n"
                              << "dynamic_shapes, line 2, column 1: expected a value (None, an int, a Dim, "
                                 "Dim.AUTO/STATIC/DYNAMIC, a tuple or a dict), got end of text";
  }
  void spec_errors_name_the_place() {
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
      parse_dynamic_shapes(text.toStdString());
      QFAIL("expected a spec error");
    } catch (const SpecError& e) {
      QCOMPARE(QString::fromStdString(e.what()), message);
    }
  }

  void suggested_fixes_apply() {
    const auto spec = parse_dynamic_shapes(
        "dx, dy, d1 = torch.export.dims(\"dx\", \"dy\", \"d1\")\ndynamic_shapes = {\"x\": (dx, d1), \"y\": (dy, d1)}");
    const auto fixed = apply_suggested_fixes(spec, "Suggested fixes:\n  d1 = 4\n  dy = dx\n");
    QCOMPARE(QString::fromStdString(print_dynamic_shapes(fixed)),
             QStringLiteral("dx = Dim(\"dx\")\ndynamic_shapes = {\n    \"x\": (dx, 4),\n    \"y\": (dx, 4),\n}\n"));
    const auto refined = apply_suggested_fixes(
        parse_dynamic_shapes("dynamic_shapes = {\"x\": (Dim(\"dx\"),), \"y\": (Dim(\"dy\"),)}"),
        "dx = Dim('dx', max=16)\ndy = 2*_dx + 1\n");
    QCOMPARE(QString::fromStdString(print_dynamic_shapes(refined)),
             QStringLiteral("dx = Dim(\"dx\", max=16)\n_dx = Dim(\"_dx\")\n"
                            "dynamic_shapes = {\n    \"x\": (dx,),\n    \"y\": (2*_dx + 1,),\n}\n"));
  }
};

QTEST_GUILESS_MAIN(TestShapeEnv)
#include "test_shape_env.moc"
