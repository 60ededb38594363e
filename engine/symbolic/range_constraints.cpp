// torch 2.13's make_constraints: the range constraints of an exported program.
#include <algorithm>

#include "engine/symbolic/export_constraints.h"

namespace exportlens::symbolic {

RangeConstraintsResult compute_range_constraints(ShapeEnv& env, const SpecBinding& binding,
                                                 const std::vector<Expr>& unbacked) {
  RangeConstraintsResult out;
  auto entry = [&](const Expr& key) -> ValueRange& {
    for (auto& e : out.entries)
      if (e.expr == key) return e.range;
    out.entries.push_back({key, ValueRange::between(Num::integer(0), Num::infinite(1))});
    return out.entries.back().range;
  };
  for (const Expr& u : unbacked) {
    const Expr r = env.replace(u);
    if (!r.is_symbol()) continue;
    out.entries.push_back({r, env.range_of_symbol(r)});
  }
  std::vector<std::string> free;
  auto note_free = [&](const Expr& e) {
    for (const std::string& s : e.free_symbols())
      if (std::find(free.begin(), free.end(), s) == free.end()) free.push_back(s);
  };
  for (const BoundDim& d : binding.dims) {
    const Expr val = env.replace(d.expr);
    const bool hint_kind = d.spec.kind == DimSpec::Kind::Auto || d.spec.kind == DimSpec::Kind::Dynamic ||
                           d.spec.kind == DimSpec::Kind::Static;
    if (!val.is_integer()) {
      ValueRange& r = entry(val);
      if (d.constraint.kind == DimConstraint::Kind::Strict) r = r.intersect(d.constraint.range);
      else r = r.intersect(env.bound(val));
      note_free(val);
    }
    if (!hint_kind) continue;
    // _constrain_user_specified_dimhint_range
    const ValueRange trace = val.is_integer() ? ValueRange::exactly(*val.as_integer()) : entry(val);
    const ValueRange user = ValueRange::between(Num::integer(d.spec.min.value_or(0)),
                                                d.spec.max ? Num::integer(*d.spec.max) : Num::infinite(1));
    ValueRange result = trace.intersect(user);
    if (result.is_empty()) {
      out.conflicts.push_back("- Received user-specified min/max range of [" +
                              (d.spec.min ? std::to_string(*d.spec.min) : "None") + ", " +
                              (d.spec.max ? std::to_string(*d.spec.max) : "None") +
                              "], conflicting with the inferred min/max range of [" + trace.lower.str() + ", " +
                              trace.upper.str() + "], for " + d.path + ".");
      continue;
    }
    if (!val.is_integer()) entry(val) = result;
    if (d.spec.kind == DimSpec::Kind::Dynamic && result.is_singleton()) {
      const std::string hint_text = "Dim.DYNAMIC(min=" + (d.spec.min ? std::to_string(*d.spec.min) : "None") +
                                    ", max=" + (d.spec.max ? std::to_string(*d.spec.max) : "None") + ")";
      if (trace.is_singleton() && (d.hint == 0 || d.hint == 1))
        out.conflicts.push_back("- Received user-specified dim hint " + hint_text +
                                ", but export 0/1 specialized due to hint of " + std::to_string(d.hint) +
                                " for dimension " + d.path + ".");
      else
        out.conflicts.push_back("- Received user-specified dim hint " + hint_text +
                                ", but tracing inferred a static shape of " + result.lower.str() + " for dimension " +
                                d.path + ".");
    }
  }
  for (const std::string& s : free) {
    const Expr sym = Expr::symbol(s);
    if (std::none_of(out.entries.begin(), out.entries.end(), [&](const RangeConstraint& e) { return e.expr == sym; }))
      out.entries.push_back({sym, env.range_of_symbol(sym)});
  }
  return out;
}

}  // namespace exportlens::symbolic
