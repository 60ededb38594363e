#pragma once
// Readers for the two text forms of an expression.
#include <string_view>

namespace exportlens::symbolic {

class Expr;

/// sympy srepr, as torch.export.save writes it.
Expr parse_srepr_text(std::string_view text);
/// sympy str, as torch prints it (a small Pratt parser over Python syntax).
Expr parse_str_text(std::string_view text);

}  // namespace exportlens::symbolic
