#pragma once
// Comparing a solve (exportlens check) with torch.export's outcome for the
// same spec, as the oracle scripts record it (status; ok: input shapes and
// range constraints with symbols renamed to torch's; violation: the fix lines
// and torch's whole message). Shared by the check and corpus suites.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/ops/solve_result.h"
#include "engine/symbolic/expr.h"
#include "support/unit/json.h"
#include "support/unit/strings.h"

namespace exportlens::testing {

using symbolic::Expr;

/// The non-empty lines of `text`, trimmed.
inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& l : unit::split(text, '\n'))
    if (std::string t = unit::trimmed(l); !t.empty()) out.push_back(std::move(t));
  return out;
}

/// A range bound: torch's string ("int_oo") or its integer (anything else reads as 0).
inline std::string bound(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) {
    const double d = v.get<double>();
    return std::to_string(std::trunc(d) == d ? int64_t(d) : int64_t(0));
  }
  return "0";
}

/// Symbol renaming mine -> torch's, read off the input shapes position by
/// position; when it is not a bijection, *why says so (and the case fails).
inline std::map<std::string, Expr> renaming(const ops::SolveResult& r, const nlohmann::json& torch_shapes,
                                            std::string* why) {
  std::map<std::string, Expr> to_torch;
  std::map<std::string, std::string> back;
  for (const auto& in : r.input_shapes) {
    if (!in.is_tensor) continue;
    const std::vector<std::string> theirs = unit::as_strings(unit::field(torch_shapes, in.name));
    for (size_t i = 0; i < in.dims.size() && i < theirs.size(); ++i) {
      const Expr mine = Expr::parse(in.dims[i]), torch = Expr::parse(theirs[i]);
      if (!mine.is_symbol() || !torch.is_symbol()) continue;
      auto [it, fresh] = to_torch.emplace(mine.symbol_name(), torch);
      auto [jt, fresh_back] = back.emplace(torch.symbol_name(), mine.symbol_name());
      if (!(it->second == torch) || jt->second != mine.symbol_name()) {
        *why = "ExportLens' symbols are not a renaming of torch's: " + in.name + " dim " + std::to_string(i) +
               " is " + in.dims[i] + ", torch's " + torch.str();
        return {};
      }
    }
  }
  return to_torch;
}

inline std::string renamed(const std::string& text, const std::map<std::string, Expr>& to_torch) {
  const Expr e = Expr::parse(text);
  std::map<std::string, Expr> subs;
  for (const std::string& s : e.free_symbols())
    if (auto it = to_torch.find(s); it != to_torch.end()) subs.emplace(s, it->second);
  return subs.empty() ? e.str() : e.substitute(subs).str();
}

/// "" when ExportLens' outcome is torch's: the status; for ok the input
/// shapes and range constraints (symbols renamed to torch's); for a
/// violation torch's whole message (the violated items, each guard in
/// torch's Python form, forced specializations and the suggested fixes,
/// character for character) and the fix lines.
inline std::string solve_difference(const ops::SolveResult& r, const nlohmann::json& meta) {
  const std::string status(ops::status_name(r.status));
  const std::string torch_status = unit::as_string(unit::field(meta, "status"));
  if (status != torch_status)
    return "ExportLens: " + status + ": " + r.message + "\ntorch: " + torch_status + ": " +
           unit::as_string(unit::field(meta, "message"));
  auto differ = [](const std::string& what, const std::vector<std::string>& mine,
                   const std::vector<std::string>& theirs) {
    return mine == theirs ? std::string()
                          : what + "\n  ExportLens: " + unit::join(mine, "; ") + "\n  torch:      " +
                                unit::join(theirs, "; ");
  };
  if (status == "ok") {
    std::string why;
    const nlohmann::json ts = unit::as_object(unit::field(meta, "input_shapes"));
    const auto to_torch = renaming(r, ts, &why);
    if (!why.empty()) return why;
    std::vector<std::string> my_shapes, torch_shapes;
    for (const auto& in : r.input_shapes) {
      std::vector<std::string> dims;
      for (const auto& d : in.dims) dims.push_back(renamed(d, to_torch));
      my_shapes.push_back(in.name + ": " + (in.is_tensor ? "[" + unit::join(dims, ", ") + "]" : "None"));
    }
    for (const auto& [key, value] : ts.items())
      torch_shapes.push_back(key + ": " + (value.is_null() ? std::string("None")
                                                           : "[" + unit::join(unit::as_strings(value), ", ") + "]"));
    std::sort(my_shapes.begin(), my_shapes.end());
    std::sort(torch_shapes.begin(), torch_shapes.end());
    if (std::string d = differ("input shapes", my_shapes, torch_shapes); !d.empty()) return d;
    std::vector<std::string> my_ranges, torch_ranges;
    for (const auto& rc : r.range_constraints)
      my_ranges.push_back(renamed(rc.expr, to_torch) + ": [" + rc.lower + ", " + rc.upper + "]");
    const nlohmann::json tr = unit::as_object(unit::field(meta, "range_constraints"));
    for (const auto& [key, value] : tr.items()) {
      const nlohmann::json b = unit::as_array(value);
      torch_ranges.push_back(Expr::parse(key).str() + ": [" + bound(b.size() > 0 ? b[0] : nlohmann::json()) +
                             ", " + bound(b.size() > 1 ? b[1] : nlohmann::json()) + "]");
    }
    std::sort(my_ranges.begin(), my_ranges.end());
    std::sort(torch_ranges.begin(), torch_ranges.end());
    return differ("range constraints", my_ranges, torch_ranges);
  }
  if (status == "violation") {
    if (std::string d = differ("suggested fixes", lines(r.suggested_fixes_text),
                               unit::as_strings(unit::field(meta, "suggested_fixes")));
        !d.empty())
      return d;
    const std::string mine = unit::trimmed(r.message);
    const std::string theirs = unit::trimmed(unit::as_string(unit::field(meta, "message")));
    if (mine != theirs) return "message\n  ExportLens:\n" + mine + "\n  torch:\n" + theirs;
  }
  return {};
}

}  // namespace exportlens::testing
