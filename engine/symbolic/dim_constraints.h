#pragma once
// torch's DimConstraints: collects the guards on input dimensions, solves the
// univariate ones (equalities first, then congruences and bounds), and turns
// the solution into torch's forced specializations and suggested fixes.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/symbolic/export_constraints.h"
#include "engine/symbolic/shape_env.h"

namespace exportlens::symbolic {

class DimConstraints {
 public:
  /// `symbol_to_source`: each symbol's input dimensions in trace order;
  /// `marked_dynamic`: the symbols the spec asked to be dynamic.
  DimConstraints(std::vector<std::pair<std::string, std::vector<std::string>>> symbol_to_source,
                 const ShapeEnv& env, std::set<std::string> marked_dynamic,
                 std::map<std::string, std::string> debug_names);
  ~DimConstraints();

  /// Records a guard; returns whether it is trivially true.
  bool add(const Expr& expr);
  /// An input dimension whose final value is `expr` (a constant or another symbol's expression).
  void add_equality(const std::string& source, const Expr& expr);
  void solve();
  /// "dx = L['x'].size()[0]" -> the value solving specialized it to.
  std::vector<std::pair<std::string, std::string>> forced_specializations() const;
  /// prettify_results: the message tail and the fix lines.
  std::string prettify(const DynamicShapesSpec& spec, std::vector<std::pair<std::string, std::string>> forced,
                       std::vector<SuggestedFix>& fixes) const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace exportlens::symbolic
