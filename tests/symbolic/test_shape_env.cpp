// ShapeEnv, the dynamic_shapes spec reader/printer and the guard printer,
// against torch: symbol names and ranges from real exports (the oracle
// fixtures), torch's own printers run through the venv's Python, and the
// data-dependent error torch raises for the seed's `if a // 2 >= 5`.
#include <nlohmann/json.hpp>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/python_guard_parser.h"
#include "engine/symbolic/python_printer.h"
#include "engine/symbolic/shape_env.h"
#include "engine/symbolic/symbol_names.h"
#include "support/unit/fixtures.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens::symbolic;
using namespace exportlens::unit;
using json = nlohmann::json;

namespace {

Expr sym(const std::string& n) { return Expr::symbol(n); }

Provenance rule(const std::string& node) {
  Provenance p;
  p.node = node;
  p.op = "aten.add.Tensor";
  p.rule = "broadcast";
  return p;
}

std::string range_text(const ShapeEnv& env, const Expr& e) {
  const ValueRange r = env.bound(env.replace(e));
  return r.str();
}

const json& range_of(const json& ranges, const std::string& key) { return ranges.at(key); }

std::string bound_text(const json& v) {
  return v.is_string() ? v.get<std::string>() : std::to_string(v.is_number() ? v.get<int64_t>() : 0);
}

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

/// The non-empty lines `python -c code` prints; a failed run fails the test.
std::vector<std::string> python_lines(const std::string& code) {
  const ProcessResult p = run_python(code, {});
  if (p.code != 0) FAIL("python failed: " + p.err);
  return split(p.out, '\n', /*skip_empty=*/true);
}

/// A string of a fixture's JSON.
std::string text_of(const json& v) { return v.get<std::string>(); }

struct SpecRow {
  std::string name, text, printed;
};

struct SpecErrorRow {
  std::string name, text, message;
};

}  // namespace

// ---- symbols -----------------------------------------------------------------
EL_TEST(symbols_are_named_like_torch) {
  // torch 2.13 names a dim's symbol s<sha256(source) % 100>: DynamicModel's AUTO export.
  const auto meta = fixture_meta("dynamic_model_auto");
  const auto& ph = meta.at("placeholders");
  DynamicModelEnv m;
  COMPARE(m.w0.str(), text_of(ph.at("w").at(0)));
  COMPARE(m.x0.str(), text_of(ph.at("x").at(0)));
  COMPARE(m.y0.str(), text_of(ph.at("y").at(0)));
  COMPARE(sha256_hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

EL_TEST(zero_one_specialization_and_ranges) {
  ShapeEnv env;
  COMPARE(env.create_backed("L['x'].size()[0]", 1, std::nullopt), Expr(1));
  COMPARE(env.create_backed("L['x'].size()[1]", 0, std::nullopt), Expr(0));
  const Expr s = env.create_backed("L['x'].size()[2]", 7, std::nullopt);
  COMPARE(env.range_of_symbol(s).str(), std::string("[2, int_oo]"));
  const Expr u = env.create_unbacked({});
  COMPARE(u.str(), std::string("u0"));
  COMPARE(env.range_of_symbol(u).str(), std::string("[-int_oo, int_oo]"));
  // A named Dim's range, and an example outside it (seed 000: "10 not in range [11, 18]").
  const Expr d = env.create_backed("L['y'].size()[0]", 10, ValueRange::between(Num::integer(4), Num::integer(18)));
  COMPARE(env.range_of_symbol(d).str(), std::string("[4, 18]"));
  const auto bad = split(text_of(fixture_meta("dynamic_shapes_example1_bad").at("error_message")), '\n').front();
  try {
    env.create_backed("L['y'].size()[1]", 10, ValueRange::between(Num::integer(11), Num::integer(18)));
    FAIL("expected a constraint violation");
  } catch (const ConstraintViolationError& e) {
    COMPARE(std::string(e.what()), bad);
  }
}

// ---- guards, replacements, ranges -------------------------------------------
EL_TEST(seed_dynamic_model_guards) {
  DynamicModelEnv m;
  auto& env = m.env;
  VERIFY(env.evaluate(Expr::eq(m.x0, m.y1), rule("add")));                // x + y
  VERIFY(env.evaluate(Expr::eq(m.w1, Expr(5)), rule("linear")));          // Linear(5, 3)
  VERIFY(env.evaluate(Expr::eq(env.replace(m.y0 * m.y1), m.z0), rule("add_1")));  // flatten + z
  COMPARE(int(env.guards().size()), 3);
  COMPARE(env.guards()[0].expr.str(), std::string("Eq(s77, s94)"));
  COMPARE(env.guards()[0].origin.node, std::string("add"));
  // Equalities eliminate symbols; the placeholders print as torch prints them.
  const auto meta = fixture_meta("dynamic_model_auto");
  const auto& ph = meta.at("placeholders");
  COMPARE(env.replace(m.y1).str(), text_of(ph.at("y").at(1)));
  COMPARE(env.replace(m.z0).str(), text_of(ph.at("z").at(0)));
  COMPARE(env.replace(m.w1).str(), text_of(ph.at("w").at(1)));
  // A guard the ranges already decide is not recorded.
  VERIFY(env.evaluate(Expr::ge(m.x0, Expr(2)), rule("x")));
  VERIFY(!env.evaluate(Expr::eq(m.x0, Expr(1)), rule("x")));
  COMPARE(int(env.guards().size()), 3);
  // A recorded guard is a fact: its negation is statically false.
  COMPARE(env.static_truth(Expr::ne(m.x0, m.y1)), std::optional<bool>(false));
}

EL_TEST(user_code_guards_refine_ranges) {
  // DynamicModelV2: assert w.shape[0] <= 512; _check(x.shape[0] >= 4); if w.shape[0] == x.shape[0] + 2.
  DynamicModelEnv m;
  auto& env = m.env;
  VERIFY(env.evaluate(Expr::le(m.w0, Expr(512)), rule("assert")));
  env.check(Expr::ge(m.x0, Expr(4)), rule("_check"));
  VERIFY(env.evaluate(Expr::eq(m.w0, m.x0 + 2), rule("if")));
  const auto meta = fixture_meta("dynamic_model_v2_auto");
  const auto& ranges = meta.at("range_constraints");
  const Expr w0 = env.replace(m.w0);
  COMPARE(w0.str(), std::string("s77 + 2"));
  const json &x_range = range_of(ranges, "s77"), &w_range = range_of(ranges, "s77 + 2");
  COMPARE(range_text(env, m.x0), "[" + bound_text(x_range.at(0)) + ", " + bound_text(x_range.at(1)) + "]");
  COMPARE(range_text(env, w0), "[" + bound_text(w_range.at(0)) + ", " + bound_text(w_range.at(1)) + "]");
  VERIFY(!env.replacement_log().empty());
  COMPARE(env.replacement_log().back().origin.node, std::string("if"));
}

// A strided conv and three ceil-mode pools (SqueezeNet): each pool checks its
// output size >= 1 for height and width in one conjunction, whose sizes nest
// one more `(x - c) // 2` each. torch's try_solve peels an added term, a
// factor and a floor division in one trial, so its five trials solve each
// check for the size: the lower bound doubles with each pool (torch's own
// ShapeEnv, refining from the same guards, is the oracle).
EL_TEST(nested_floordiv_checks_refine_like_torch) {
  const std::vector<std::string> torch_bounds = python_lines(R"(
import sympy
from torch.fx.experimental.symbolic_shapes import ShapeEnv, DimDynamic
from torch._dynamo.source import ConstantSource
from torch.utils._sympy.functions import FloorDiv
env = ShapeEnv()
h = env.create_symbol(64, ConstantSource("h"), dynamic_dim=DimDynamic.DYNAMIC)
w = env.create_symbol(97, ConstantSource("w"), dynamic_dim=DimDynamic.DYNAMIC)
a, b = FloorDiv(h - 3, 2), FloorDiv(w - 3, 2)
for _ in range(4):
    a, b = FloorDiv(a - 1, 2), FloorDiv(b - 1, 2)
    for conjunct in (sympy.Ge(b + 1, 1), sympy.Ge(a + 1, 1)):
        env._refine_ranges(conjunct)
    print(env.var_to_range[h].lower, env.var_to_range[w].lower)
)");
  ShapeEnv env;
  const Expr h = env.create_backed("L['x'].size()[2]", 64, std::nullopt);
  const Expr w = env.create_backed("L['x'].size()[3]", 97, std::nullopt);
  Expr a = Expr::floordiv(h - Expr(3), Expr(2)), b = Expr::floordiv(w - Expr(3), Expr(2));
  COMPARE(torch_bounds.size(), size_t(4));
  for (const std::string& want : torch_bounds) {
    a = Expr::floordiv(a - Expr(1), Expr(2));
    b = Expr::floordiv(b - Expr(1), Expr(2));
    env.check(Expr::logical_and({Expr::ge(b + Expr(1), Expr(1)), Expr::ge(a + Expr(1), Expr(1))}), rule("max_pool2d"));
    COMPARE(env.bound(h).lower.str() + " " + env.bound(w).lower.str(), want);
  }
}

// Whether a guard holding a Mod is decided without a hint, as torch's
// _maybe_evaluate_static decides it: over symbols moved to be exactly
// positive, where sympy's Mod rule sees p < q (Mod(5, 5*s) for s >= 2 is 5),
// with torch's Mod range otherwise (a divisor that may be 0 bounds nothing:
// the channels-last stride guards of ConvNeXt-V2 stay undecided).
EL_TEST(mod_guards_are_decided_as_torch_decides) {
  const std::vector<std::string> torch_answers = python_lines(R"(
import sympy
from torch.fx.experimental.symbolic_shapes import ShapeEnv, DimDynamic
from torch._dynamo.source import ConstantSource
from torch.utils._sympy.functions import FloorDiv, Mod
from torch.utils._sympy.value_ranges import ValueRanges
env = ShapeEnv()
b = env.create_symbol(2, ConstantSource("b"), dynamic_dim=DimDynamic.DYNAMIC)
w = env.create_symbol(64, ConstantSource("w"), dynamic_dim=DimDynamic.DYNAMIC)
env.var_to_range[b] = ValueRanges(2, 64)
env.var_to_range[w] = ValueRanges(4, sympy.oo)  # the 4x4 stride-4 stem's guard
for e in (sympy.Ne(Mod(5, 5*b), 0), sympy.Ne(Mod(1, 160*FloorDiv(w, 4)), 0), sympy.Eq(Mod(3, b + 2), 3),
          sympy.Eq(Mod(2*b, b), 0), sympy.Ne(Mod(b, 8), 0)):
    print(env._maybe_evaluate_static(e))
)");
  ShapeEnv env;
  const Expr b = env.create_backed("L['b']", 2, ValueRange::between(Num::integer(2), Num::integer(64)));
  const Expr w = env.create_backed("L['w']", 64, ValueRange::at_least(4));
  const std::vector<Expr> guards = {Expr::ne(Expr::mod(5, 5 * b), 0),
                                    Expr::ne(Expr::mod(1, 160 * Expr::floordiv(w, 4)), 0),
                                    Expr::eq(Expr::mod(3, b + 2), 3), Expr::eq(Expr::mod(2 * b, b), 0),
                                    Expr::ne(Expr::mod(b, 8), 0)};
  COMPARE(torch_answers.size(), guards.size());
  for (size_t i = 0; i < guards.size(); ++i) {
    const auto mine = env.static_truth(guards[i]);
    COMPARE(std::string(!mine ? "None" : *mine ? "True" : "False"), torch_answers[i]);
  }
}

// A window split's inner length h // (h // 2) is the window, 2, once guards
// proved h % 2 == 0 and h % (h // 2) == 0 (torch's simplify), not before.
EL_TEST(exact_nested_division_is_read_as_its_divisor) {
  const std::vector<std::string> torch_answers = python_lines(R"(
import sympy
from torch.fx.experimental.symbolic_shapes import ShapeEnv, DimDynamic
from torch._dynamo.source import ConstantSource
from torch.utils._sympy.functions import FloorDiv, Mod
env = ShapeEnv()
s = env.create_symbol(16, ConstantSource("s"), dynamic_dim=DimDynamic.DYNAMIC)
h = FloorDiv(s - 1, 4) + 1
q = sympy.Eq(FloorDiv(h, FloorDiv(h, 2)), 2)
print(env._maybe_evaluate_static(q))
env.evaluate_expr(sympy.Eq(Mod(h, 2), 0))
print(env._maybe_evaluate_static(q))
env.evaluate_expr(sympy.Eq(Mod(h, FloorDiv(h, 2)), 0))
print(env._maybe_evaluate_static(q))
)");
  COMPARE(torch_answers.size(), size_t(3));
  ShapeEnv env;
  const Expr s = env.create_backed("L['s']", 16, std::nullopt);
  const Expr h = Expr::floordiv(s - Expr(1), Expr(4)) + Expr(1);
  const Expr q = Expr::eq(Expr::floordiv(h, Expr::floordiv(h, Expr(2))), Expr(2));
  const auto answer = [&] {
    const auto mine = env.static_truth(q);
    return std::string(!mine ? "None" : *mine ? "True" : "False");
  };
  COMPARE(answer(), torch_answers[0]);
  VERIFY(env.evaluate(Expr::eq(Expr::mod(h, Expr(2)), Expr(0)), rule("assert")));
  COMPARE(answer(), torch_answers[1]);
  VERIFY(env.evaluate(Expr::eq(Expr::mod(h, Expr::floordiv(h, Expr(2))), Expr(0)), rule("view")));
  COMPARE(answer(), torch_answers[2]);
}

EL_TEST(repeated_disjunction_is_guarded_once) {
  // A repeated block asks the same disjunction in every instance; torch keeps
  // each guard among its axioms, so the copies are known, not guarded again.
  const std::vector<std::string> torch_guards = python_lines(
      "from torch.fx.experimental.symbolic_shapes import ShapeEnv, DimDynamic\n"
      "from torch._dynamo.source import ConstantSource\n"
      "env = ShapeEnv()\n"
      "a = env.create_unspecified_symint_and_symbol(6, ConstantSource('a'), DimDynamic.DYNAMIC)\n"
      "b = env.create_unspecified_symint_and_symbol(5, ConstantSource('b'), DimDynamic.DYNAMIC)\n"
      "for _ in range(3): bool((a == 6) | (b == 7))\n"
      "print(len(env.guards))\n");
  COMPARE(torch_guards.size(), 1);
  ShapeEnv env;
  const Expr a = env.create_backed("L['a']", 6, std::nullopt);
  const Expr b = env.create_backed("L['b']", 5, std::nullopt);
  for (int i = 0; i < 3; ++i)
    VERIFY(env.evaluate(Expr::logical_or({Expr::eq(a, Expr(6)), Expr::eq(b, Expr(7))}), rule("or")));
  COMPARE(std::to_string(env.guards().size()), torch_guards.front());
}

EL_TEST(divisibility_from_derived_dims) {
  ShapeEnv env;
  const Expr s = env.create_backed("L['x'].size()[0]", 32, std::nullopt);
  VERIFY(env.evaluate(Expr::eq(Expr::mod(s, Expr(4)), Expr(0)), rule("view")));
  COMPARE(env.static_truth(Expr::eq(Expr::mod(s, Expr(4)), Expr(0))), std::optional<bool>(true));
  // 4*dx against the input: the replacement carries the Dim's range to dx.
  const Expr dx = env.create_phantom("dx", 8, ValueRange::between(Num::integer(4), Num::integer(512)));
  VERIFY(env.evaluate(Expr::eq(s, 4 * dx), rule("spec")));
  COMPARE(env.replace(s).str(), std::string("4*s95"));
  const auto meta = fixture_meta("named_dims_4dx");
  const auto& ranges = meta.at("range_constraints");
  COMPARE(range_text(env, dx), "[" + bound_text(range_of(ranges, "s95").at(0)) + ", " +
                                   bound_text(range_of(ranges, "s95").at(1)) + "]");
}

EL_TEST(unbacked_symbols_and_checks) {
  // Seed: torch._check(a >= 10); torch._check(a <= 60); if a // 2 >= 5 (export succeeds, u0 in [10, 60]).
  ShapeEnv env;
  const Expr u = env.create_unbacked({});
  env.check(Expr::ge(u, Expr(10)), rule("_check"));
  env.check(Expr::le(u, Expr(60)), rule("_check"));
  COMPARE(int(env.runtime_asserts().size()), 2);
  VERIFY(env.evaluate(Expr::ge(Expr::floordiv(u, Expr(2)), Expr(5)), rule("if")));
  const json r = fixture_meta("data_dependent_branch_checked").at("range_constraints").at("u0");
  COMPARE(env.range_of_symbol(u).str(), "[" + bound_text(r.at(0)) + ", " + bound_text(r.at(1)) + "]");
}

EL_TEST(data_dependent_error_reads_like_torch) {
  // Without the checks torch refuses: "Could not guard on data-dependent expression ...".
  ShapeEnv env;
  const Expr u = env.create_unbacked({});
  Provenance where;
  where.node = "ge";
  where.location = "seed_models.py:217 in forward";
  const std::string first = split(text_of(fixture_meta("data_dependent_branch").at("error_message")), '\n').front();
  try {
    env.evaluate(Expr::ge(Expr::floordiv(u, Expr(2)), Expr(5)), where);
    FAIL("expected a data-dependent error");
  } catch (const DataDependentError& e) {
    COMPARE(split(e.what(), '\n').front(), first);
    VERIFY(contains(e.what(), "seed_models.py:217 in forward"));
  }
  // guard_or_false gives the fallback instead, without a guard.
  VERIFY(!env.guard_or_false(Expr::eq(u, Expr(1)), where));
  VERIFY(env.guards().empty());
}

// ---- the Python guard printer and reader, against torch's ----------------------
EL_TEST(python_printer_matches_torch) {
  const std::vector<std::string> srepr = {
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
  const std::string code =
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
      "    print(p.doprint(eval(line, dict(globals(), FloorDiv=FloorDiv, Mod=Mod, Max=Max, Min=Min))))\n";
  const ProcessResult p = run_python(code, srepr);  // one that does not finish in 120 s fails the test
  VERIFY_MSG(p.code == 0, p.err);
  const std::vector<std::string> torch_text = split(p.out, '\n', /*skip_empty=*/true);
  COMPARE(torch_text.size(), srepr.size());
  const std::map<std::string, std::string> sources = {{"s0", "L['x'].size()[0]"},
                                                      {"s1", "L['y'].size()[1]"},
                                                      {"s2", "L['z'].size()[0]"},
                                                      {"u0", "L['q'].size()[0]"}};
  for (size_t i = 0; i < srepr.size(); ++i) {
    const Expr e = Expr::parse_srepr(srepr[i]);
    const std::string mine = to_python(e, [&](const Expr& s) { return sources.at(s.symbol_name()); });
    COMPARE(mine, torch_text[i]);
    // And the recorded-guard reader reads torch's text back to the same relation.
    const Expr back = parse_python_guard(torch_text[i]);
    std::map<std::string, Expr> to_symbols;
    for (const auto& [s, src] : sources) to_symbols.emplace(src, sym(s));
    COMPARE(canonical_relation(back.substitute(to_symbols)).str(), canonical_relation(e).str());
  }
}

EL_TEST(recordedGuardErrorsNameTheColumn) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"(L['x'].size()[0] <= 16", "at column 24: expected ')'"},
      {"L['x'].size()[0] ** 2", "at column 20: '**' is not supported"},
      {"L['x'].size()[0] <= 99999999999999999999", "at column 21: an integer that does not fit in 64 bits"},
      {"L['x'].size()[0] <= 16 nothing", "at column 24: expected end of input, found 'nothing'"},
      {std::string(300, '(') + "L['x'].size()[0]" + std::string(300, ')'), "nested more than 200 levels deep"},
  };
  for (const auto& [text, message] : bad) {
    try {
      parse_python_guard(text);
      FAIL("accepted a malformed guard: " + text);
    } catch (const GuardParseError& e) {
      VERIFY_MSG(std::string(e.what()).find(message) != std::string::npos, text + " -> " + e.what());
    }
  }
}

// ---- the dynamic_shapes spec ------------------------------------------------
EL_TEST(spec_syntax) {
  const std::vector<SpecRow> rows = {
      {"named and None",
       "dx = Dim(\"dx\", min=4, max=256)\ndh = Dim(\"dh\", max=512)\n"
       "dynamic_shapes = {\n    \"x\": (dx, None),\n    \"y\": (2 * dx, dh),\n}\n",
       "dx = Dim(\"dx\", min=4, max=256)\ndh = Dim(\"dh\", max=512)\n"
       "dynamic_shapes = {\n    \"x\": (dx, None),\n    \"y\": (2*dx, dh),\n}\n"},
      {"dims() and torch.export",
       "from torch.export import Dim\ndx, dy, d1 = torch.export.dims(\"dx\", \"dy\", \"d1\")\n"
       "dynamic_shapes = {\"x\": (dx, d1), \"y\": (dy, d1)}",
       "dx = Dim(\"dx\")\ndy = Dim(\"dy\")\nd1 = Dim(\"d1\")\n"
       "dynamic_shapes = {\n    \"x\": (dx, d1),\n    \"y\": (dy, d1),\n}\n"},
      {"derived, tuple by position",
       "dx = torch.export.Dim(\"dx\", min=3, max=6)\ndz = dx + 1\ndy = dx * 3 + 1\n"
       "dynamic_shapes = ({0: dz}, {0: dy})",
       "dx = Dim(\"dx\", min=3, max=6)\n"
       "dynamic_shapes = (\n    {0: dx + 1},\n    {0: 3*dx + 1},\n)\n"},
      {"hints, per-input None, item assignment",
       "dynamic_shapes = {\"w\": (Dim.AUTO, Dim.AUTO), \"x\": None, \"y\": [Dim.DYNAMIC(min=3), 4]}\n"
       "dynamic_shapes[\"w\"] = (Dim.AUTO, Dim.STATIC)  # like the seed does\n",
       "dynamic_shapes = {\n    \"w\": (Dim.AUTO, Dim.STATIC),\n    \"x\": None,\n    \"y\": [Dim.DYNAMIC(min=3), 4],\n}\n"},
      {"variable and Dim names differ",
       "inp4_dim1 = Dim('shared_dim')\ninp5_dim0 = inp4_dim1\n"
       "{\"x\": {1: inp4_dim1}, \"y\": {0: inp5_dim0}}",
       "inp4_dim1 = Dim(\"shared_dim\")\n"
       "dynamic_shapes = {\n    \"x\": {1: inp4_dim1},\n    \"y\": {0: inp4_dim1},\n}\n"},
  };
  for_each_row(rows, [](const SpecRow& row) {
    const DynamicShapesSpec spec = parse_dynamic_shapes(row.text);
    COMPARE(print_dynamic_shapes(spec), row.printed);
    VERIFY(parse_dynamic_shapes(print_dynamic_shapes(spec)) == spec);
  });
}

EL_TEST(spec_errors_name_the_place) {
  const std::vector<SpecErrorRow> rows = {
      {"undefined", "dynamic_shapes = {\"x\": (dx, None)}",
       "dynamic_shapes, line 1, column 25: name 'dx' is not defined (define Dims before using them, e.g. dx = "
       "Dim(\"dx\"))"},
      {"inconsistent", "d = Dim(\"d\", min=5, max=3)",
       "dynamic_shapes, line 1, column 8: Cannot create Dim with inconsistent min=5, max=3"},
      {"not a dim", "dynamic_shapes = {\"x\": (\"big\", None)}",
       "dynamic_shapes, line 1, column 25: expected None, an int, a Dim, Dim.AUTO, "
       "Dim.STATIC, or Dim.DYNAMIC for dimension 0 of input 'x', got a string"},
      {"negative coefficient", "dx = Dim(\"dx\")\ndynamic_shapes = {\"x\": (dx * 0,)}",
       "dynamic_shapes, line 2, column 28: Attempted to multiply 0 with dx, where a "
       "positive integer was expected. (Only increasing linear operations with "
       "integer coefficients are supported.)"},
      {"comprehension", "dynamic_shapes = {\"x\": {i: Dim.AUTO for i in range(2)}}",
       "dynamic_shapes, line 1, column 37: comprehensions are not supported; list the "
       "dimensions explicitly"},
      {"unclosed", "dynamic_shapes = {\"x\": (Dim.AUTO,\n",
       "dynamic_shapes, line 2, column 1: expected a value (None, an int, a Dim, "
       "Dim.AUTO/STATIC/DYNAMIC, a tuple or a dict), got end of text"},
  };
  for_each_row(rows, [](const SpecErrorRow& row) {
    try {
      parse_dynamic_shapes(row.text);
      FAIL("expected a spec error");
    } catch (const SpecError& e) {
      COMPARE(std::string(e.what()), row.message);
    }
  });
}

EL_TEST(suggested_fixes_apply) {
  const auto spec = parse_dynamic_shapes(
      "dx, dy, d1 = torch.export.dims(\"dx\", \"dy\", \"d1\")\ndynamic_shapes = {\"x\": (dx, d1), \"y\": (dy, d1)}");
  const auto fixed = apply_suggested_fixes(spec, "Suggested fixes:\n  d1 = 4\n  dy = dx\n");
  COMPARE(print_dynamic_shapes(fixed),
          std::string("dx = Dim(\"dx\")\ndynamic_shapes = {\n    \"x\": (dx, 4),\n    \"y\": (dx, 4),\n}\n"));
  const auto refined = apply_suggested_fixes(
      parse_dynamic_shapes("dynamic_shapes = {\"x\": (Dim(\"dx\"),), \"y\": (Dim(\"dy\"),)}"),
      "dx = Dim('dx', max=16)\ndy = 2*_dx + 1\n");
  COMPARE(print_dynamic_shapes(refined),
          std::string("dx = Dim(\"dx\", max=16)\n_dx = Dim(\"_dx\")\n"
                      "dynamic_shapes = {\n    \"x\": (dx,),\n    \"y\": (2*_dx + 1,),\n}\n"));
}
