#pragma once
// sympy's _monotonic_sign for the integer expressions we model.
#include <cstdint>
#include <optional>
#include <vector>

namespace exportlens::symbolic {

class Expr;

/// The value closest to zero `a` can take given its symbols' signs, or
/// nullopt: a single term is bounded by its sign (and parity), a sum only
/// when it is a polynomial in one symbol (sympy's multivariate branch needs
/// a constant, which the callers split off).
std::optional<int64_t> monotonic_sign(const Expr& a);
/// The univariate-polynomial branch for the sum of `terms`.
std::optional<int64_t> univariate_monotonic_sign(const std::vector<Expr>& terms);

}  // namespace exportlens::symbolic
