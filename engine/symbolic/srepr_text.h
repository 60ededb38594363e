#pragma once
// sympy's str of an expression given in srepr form, for the expressions the
// integer expressions here do not model: relations and arithmetic over floats
// (`StrictGreaterThan(Symbol('zuf0'), Float('0.0', precision=53))` is
// `zuf0 > 0.0`), which torch writes for `.item()` of a float tensor. Such
// values are kept as text (ir::SymBool / SymFloat): printed as torch prints
// them, written back as the file spelled them, never reasoned about.
#include <string>
#include <string_view>

namespace exportlens::symbolic {

/// Throws std::invalid_argument naming the offset when `srepr` is not srepr text.
std::string sympy_str_of_srepr(std::string_view srepr);

}  // namespace exportlens::symbolic
