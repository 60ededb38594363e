#pragma once
// The expressions a program JSON spells, each made once. A 50,000-node
// program writes the same few sizes (2, 32, s27, 3*s27) hundreds of thousands
// of times; building an expression (its canonical form and sort key) costs
// far more than looking its text up, and expressions are immutable values, so
// every tensor that spells the same size shares one.
#include <string>
#include <string_view>
#include <unordered_map>

#include "engine/symbolic/expr.h"

namespace exportlens::serde {

class ExprCache {
 public:
  const symbolic::Expr& integer(int64_t value) {
    auto it = integers_.find(value);
    if (it == integers_.end()) it = integers_.emplace(value, symbolic::Expr(value)).first;
    return it->second;
  }

  struct Parsed {
    symbolic::Expr expr;
    bool noted = false;  // whether the reader has recorded its symbols (range constraints)
  };
  /// The expression an srepr text spells, or, failing that, sympy's str form
  /// (torch 2.5 wrote "s0 + 1"); throws std::invalid_argument as Expr::parse_srepr does.
  Parsed& srepr(std::string_view text) {
    auto it = sreprs_.find(text);
    if (it == sreprs_.end()) it = sreprs_.emplace(std::string(text), Parsed{parse(text)}).first;
    return it->second;
  }

 private:
  static symbolic::Expr parse(std::string_view text) {
    try {
      return symbolic::Expr::parse_srepr(text);
    } catch (const std::invalid_argument&) {
      try {
        return symbolic::Expr::parse(text);
      } catch (const std::exception&) {
      }
      throw;
    }
  }

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<int64_t, symbolic::Expr> integers_;
  std::unordered_map<std::string, Parsed, Hash, std::equal_to<>> sreprs_;
};

}  // namespace exportlens::serde
