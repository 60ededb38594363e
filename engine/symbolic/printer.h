#pragma once
// sympy's StrPrinter and ReprPrinter for our node kinds.
#include <string>

namespace exportlens::symbolic {

class Expr;

std::string to_str(const Expr& e);
std::string to_srepr(const Expr& e);

}  // namespace exportlens::symbolic
