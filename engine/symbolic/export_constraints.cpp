// torch 2.13's produce_guards_verbose (the constraint parts), on structured
// data instead of message strings; the solving is DimConstraints'.
#include "engine/symbolic/export_constraints.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "engine/symbolic/dim_constraints.h"
#include "engine/symbolic/equality_constraint.h"
#include "engine/symbolic/python_printer.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

const ValueRange kDefaultRange = ValueRange::at_least(2);

// ---- produce_guards ----------------------------------------------------------------

struct Tracker {
  std::vector<std::pair<std::string, std::vector<std::string>>> symbol_to_source;
  std::map<std::string, std::vector<ValueRange>> strict;  // symbol -> distinct Strict ranges

  std::vector<std::string>& sources(const std::string& s) {
    for (auto& [name, v] : symbol_to_source)
      if (name == s) return v;
    symbol_to_source.emplace_back(s, std::vector<std::string>{});
    return symbol_to_source.back().second;
  }
  const std::vector<std::string>* find(const std::string& s) const {
    for (const auto& [name, v] : symbol_to_source)
      if (name == s) return &v;
    return nullptr;
  }
};

std::string render_range(const SpecBinding& b, const std::string& source, const DimConstraint& c) {
  if (c.kind == DimConstraint::Kind::Relaxed) return "RelaxedUnspecConstraint(" + source + ")";
  const std::string dn = b.debug_name(source);
  std::string s = dn + " = " + source + " in the specified range";
  const bool has_lo = compare(c.range.lower, kDefaultRange.lower) > 0;
  const bool has_hi = !c.range.upper.is_infinite();
  if (has_lo && has_hi) s += " " + c.range.lower.str() + " <= " + dn + " <= " + c.range.upper.str();
  else if (has_hi) s += " " + dn + " <= " + c.range.upper.str();
  else if (has_lo) s += " " + c.range.lower.str() + " <= " + dn;
  return s;
}

std::string specialized_message(const std::string& debug_name, const std::string& value) {
  return "You marked " + debug_name + " as dynamic but your code specialized it to be a constant (" + value +
         "). If you're using mark_dynamic, either remove it or use maybe_mark_dynamic. If you're using "
         "Dim.DYNAMIC, replace it with either Dim.STATIC or Dim.AUTO.";
}

/// The replacement (and the guard behind it) that rewrote `symbol`.
std::optional<ReplacementRecord> replacement_of(const ShapeEnv& env, const Expr& symbol) {
  if (!symbol.is_symbol()) return std::nullopt;
  std::optional<ReplacementRecord> last;
  for (const ReplacementRecord& r : env.replacement_log())
    if (r.symbol == symbol) last = r;
  return last;
}

}  // namespace

std::string ConstraintReport::fixes_text() const {
  std::string s;
  for (const auto& f : fixes) s += f.text + "\n";
  return s;
}

ConstraintReport check_constraints(ShapeEnv& env, const SpecBinding& binding, const DynamicShapesSpec& spec) {
  ConstraintReport report;
  auto current = [&](const std::string& source) -> Expr {
    const BoundDim* d = binding.find(source);
    return d ? env.replace(d->expr) : Expr(0);
  };
  auto hinted = [&](const Expr& e) { return env.hint(e) ? std::to_string(*env.hint(e)) : e.str(); };
  // 1. The spec's own relations.
  for (const auto& [a, b] : binding.source_pairs) {
    Provenance origin;
    origin.kind = Provenance::Kind::SpecRelation;
    origin.detail = a + " and " + b + " share " + binding.debug_name(a);
    const Expr ea = current(a), eb = current(b);
    if (!env.evaluate(Expr::eq(ea, eb), origin)) {
      report.early_error = a + " = " + hinted(ea) + " is not equal to " + b + " = " + hinted(eb);
      report.message = report.early_error;
      return report;
    }
  }
  for (const DerivedEquality& d : binding.derived) {
    Provenance origin;
    origin.kind = Provenance::Kind::SpecRelation;
    const std::string root_debug = d.root_source.empty() ? d.root_name : binding.debug_name(d.root_source);
    const Expr root = d.root_source.empty() ? d.phantom_root : current(d.root_source);
    const Expr derived = Expr(d.coeff) * root + Expr(d.offset);
    origin.detail = d.source + " = " + (Expr(d.coeff) * Expr::symbol(root_debug) + Expr(d.offset)).str();
    const Expr e = current(d.source);
    if (!env.evaluate(Expr::eq(e, derived), origin)) {
      report.early_error = "Expected input " + d.source + " to be equal to " +
                           (Expr(d.coeff) * Expr::symbol(root_debug) + Expr(d.offset)).str() + ", where " + root_debug +
                           " = " + hinted(root) + ", but got " + hinted(e);
      report.message = report.early_error;
      return report;
    }
  }
  // 2. Track every input dimension's final value.
  Tracker t;
  for (const Expr& p : binding.phantom_symbols)
    if (p.is_symbol()) {
      const SymbolRecord* r = env.find_symbol(p.symbol_name());
      t.sources(p.symbol_name()).push_back(r && !r->sources.empty() ? r->sources.front() : p.symbol_name());
    }
  std::vector<std::pair<std::string, Expr>> input_guards;
  auto violate = [&](ConstraintViolation v) { report.violations.push_back(std::move(v)); };
  for (const BoundDim& d : binding.dims) {
    const Expr val = env.replace(d.expr);
    input_guards.emplace_back(d.source, val);
    const auto repl = replacement_of(env, d.expr);
    if (auto c = val.as_integer()) {
      const bool violated = d.constraint.kind == DimConstraint::Kind::Strict
                                ? !(d.constraint.range.is_singleton() && d.constraint.range.lower.value == *c)
                                : d.constraint.kind == DimConstraint::Kind::Relaxed && *c != 0 && *c != 1;
      if (violated) {
        ConstraintViolation v;
        v.kind = ConstraintViolation::Kind::Specialized;
        v.debug_name = binding.debug_name(d.source);
        v.source = d.source;
        v.message = specialized_message(v.debug_name, std::to_string(*c));
        if (repl) {
          v.guard = Expr::eq(repl->symbol, repl->target);
          v.origin = repl->origin;
        }
        violate(std::move(v));
      }
    } else if (val.is_symbol()) {
      t.sources(val.symbol_name()).push_back(d.source);
      if (d.constraint.kind == DimConstraint::Kind::Strict) {
        auto& list = t.strict[val.symbol_name()];
        if (std::find(list.begin(), list.end(), d.constraint.range) == list.end()) list.push_back(d.constraint.range);
      }
    }
  }
  std::set<std::string> marked;
  for (const auto& [s, list] : t.strict) marked.insert(s);
  DimConstraints dc(t.symbol_to_source, env, marked, binding.debug_names);
  const EqualityConstraint equalities(binding);
  auto is_dim_source = [&](const std::string& src) { return binding.find(src) != nullptr; };
  auto first_source = [&](const std::string& s) -> std::string {
    const auto* v = t.find(s);
    return v && !v->empty() ? v->front() : s;
  };
  for (const auto& [source, expr] : input_guards) {
    if (expr.is_symbol() && first_source(expr.symbol_name()) == source) continue;
    dc.add_equality(source, expr);
    const BoundDim* bd = binding.find(source);
    const auto repl = replacement_of(env, bd->expr);
    if (expr.is_symbol() && t.strict.count(expr.symbol_name())) {
      const std::string other = first_source(expr.symbol_name());
      if (!equalities.is_equal(source, other)) {
        ConstraintViolation v;
        v.kind = ConstraintViolation::Kind::MustBeEqual;
        v.debug_name = binding.debug_name(source);
        v.source = source;
        v.message = "The values of " + v.debug_name + " = " + source + " and " + binding.debug_name(other) + " = " +
                    other + " must always be equal.";
        if (repl) {
          v.guard = Expr::eq(repl->symbol, repl->target);
          v.origin = repl->origin;
        }
        violate(std::move(v));
      }
    }
    const auto free = expr.free_symbols();
    if (!expr.is_symbol() && free.size() == 1 && t.strict.count(free[0])) {
      const Expr symbol = Expr::symbol(free[0]);
      const std::string src = first_source(free[0]);
      if (!equalities.is_derived(source, src, expr, symbol)) {
        ConstraintViolation v;
        v.kind = ConstraintViolation::Kind::MustBeRelated;
        v.debug_name = binding.debug_name(source);
        v.source = source;
        const std::string src_name = binding.debug_name(src);
        v.message = "The values of " + v.debug_name + " = " + source + " must always be related to the values of " +
                    src_name + " = " + src + " by " + v.debug_name + " = " +
                    expr.substitute({{free[0], Expr::symbol(src_name)}}).str() + ".";
        if (repl) {
          v.guard = Expr::eq(repl->symbol, repl->target);
          v.origin = repl->origin;
        }
        violate(std::move(v));
      }
    }
  }
  // 3. Every guard; then every runtime assert and symbol range.
  const SymbolName py_name = [&](const Expr& s) { return first_source(s.symbol_name()); };
  auto static_without_facts = [&](const Expr& e) {
    const Expr r = env.simplified_condition(e);
    return r.kind() == K::True || r.kind() == K::False || env.bound(r).is_singleton();
  };
  std::vector<Expr> issued;
  for (const Guard& g : env.guards()) {
    if (static_without_facts(g.expr)) continue;
    const Expr e = env.simplified_condition(g.expr);
    if (std::find(issued.begin(), issued.end(), e) != issued.end()) continue;
    issued.push_back(e);
    const auto free = e.free_symbols();
    bool trivial = false;
    bool on_dims = false;
    for (const std::string& s : free)
      if (const auto* srcs = t.find(s))
        for (const std::string& src : *srcs) on_dims = on_dims || is_dim_source(src);
    if (on_dims) trivial = dc.add(e);
    if (trivial || free.size() != 1) continue;
    auto strict = t.strict.find(free[0]);
    if (strict == t.strict.end()) continue;
    const std::string source = first_source(free[0]);
    for (const ValueRange& r : strict->second) {
      ConstraintViolation v;
      v.kind = ConstraintViolation::Kind::GuardNotSatisfied;
      v.debug_name = binding.debug_name(source);
      v.source = source;
      v.message = "Not all values of " + render_range(binding, source, {DimConstraint::Kind::Strict, r}) +
                  " satisfy the generated guard " + to_python(e, py_name) + ".";
      v.guard = g.expr;
      v.origin = g.origin;
      violate(std::move(v));
    }
  }
  for (const RuntimeAssertRecord& ra : env.runtime_asserts())
    if (!static_without_facts(ra.expr)) dc.add(env.simplified_condition(ra.expr));
  for (const auto& [s, sources] : t.symbol_to_source) {
    const SymbolRecord* rec = env.find_symbol(s);
    if (!rec || sources.empty()) continue;
    const ValueRange r = rec->range;
    const Expr sym = Expr::symbol(s);
    const bool on_dims = std::any_of(sources.begin(), sources.end(), is_dim_source);
    if (!r.lower.is_infinite() && on_dims) dc.add(Expr::ge(sym, Expr(r.lower.value)));
    if (!r.upper.is_infinite() && on_dims) dc.add(Expr::le(sym, Expr(r.upper.value)));
    if (r.lower.is_infinite() && r.upper.is_infinite()) continue;
    auto strict = t.strict.find(s);
    if (strict == t.strict.end()) continue;
    for (const ValueRange& c : strict->second) {
      if (c.intersect(kDefaultRange).is_subset_of(r)) continue;
      const std::string src = sources.front();
      ConstraintViolation v;
      v.kind = ConstraintViolation::Kind::RangeNotSatisfied;
      v.debug_name = binding.debug_name(src);
      v.source = src;
      const std::string upper = r.upper.is_infinite() ? "IntInfinity()" : r.upper.str();
      v.message = "Not all values of " + render_range(binding, src, {DimConstraint::Kind::Strict, c}) +
                  " satisfy the generated guard " + r.lower.str() + " <= " + src + " and " + src + " <= " + upper;
      v.guard = Expr::logical_and({Expr::le(Expr(r.lower.is_infinite() ? 0 : r.lower.value), sym),
                                   r.upper.is_infinite() ? Expr::boolean(true) : Expr::le(sym, Expr(r.upper.value))});
      v.origin = rec->upper_origin && !r.upper.is_infinite() ? rec->upper_origin : rec->lower_origin;
      violate(std::move(v));
    }
  }
  // 4. Solve and suggest.
  dc.solve();
  report.forced_specializations = dc.forced_specializations();
  const std::string tail = dc.prettify(spec, report.forced_specializations, report.fixes);
  if (!report.violations.empty()) {
    std::set<std::string> names;
    for (const auto& v : report.violations) names.insert(v.debug_name);
    std::string joined;
    for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
    report.message = "Constraints violated (" + joined + ")! For more information, run with TORCH_LOGS=\"+dynamic\".\n";
    for (size_t i = 0; i < report.violations.size(); ++i)
      report.message += (i ? "\n" : "") + std::string("  - ") + report.violations[i].message;
    report.message += tail;
  } else if (!report.forced_specializations.empty()) {
    report.message = tail;
  } else {
    report.forced_specializations.clear();
  }
  return report;
}

}  // namespace exportlens::symbolic
