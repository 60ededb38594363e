#pragma once
// torch's EqualityConstraint: which input dimensions the spec makes equal
// (a shared Dim) or derived from one another (dy = 2*dx + 1).
#include <map>
#include <set>
#include <string>

#include "engine/symbolic/spec_binding.h"

namespace exportlens::symbolic {

class EqualityConstraint {
 public:
  explicit EqualityConstraint(const SpecBinding& b) : relaxed_(b.relaxed_sources) {
    for (const auto& [a, c] : b.source_pairs) {
      const std::string ra = find(a), rc = find(c);
      if (ra != rc) parents_[ra] = rc;
    }
    for (const DerivedEquality& d : b.derived) {
      const Expr root = d.root_source.empty() ? d.phantom_root : rewrite(d.root_source);
      defs_[find(d.source)] = Expr(d.coeff) * root + Expr(d.offset);
    }
  }

  bool is_equal(const std::string& a, const std::string& b) const {
    const std::string ra = find(a), rb = find(b);
    return relaxed_.count(ra) || relaxed_.count(rb) || ra == rb || rewrite(a) == rewrite(b);
  }

  /// Whether src == fn(symbol_src) by the spec, fn(x) = expr[symbol := x].
  bool is_derived(const std::string& src, const std::string& symbol_src, const Expr& expr, const Expr& symbol) const {
    return rewrite(src) == expr.substitute({{symbol.symbol_name(), rewrite(symbol_src)}});
  }

 private:
  std::string find(const std::string& s) const {
    auto it = parents_.find(s);
    return it == parents_.end() ? s : find(it->second);
  }
  Expr rewrite(const std::string& src) const {
    const std::string r = find(src);
    auto it = defs_.find(r);
    return it != defs_.end() ? it->second : Expr::symbol(r);
  }
  std::set<std::string> relaxed_;
  std::map<std::string, std::string> parents_;
  std::map<std::string, Expr> defs_;
};

}  // namespace exportlens::symbolic
