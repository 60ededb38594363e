#pragma once
// sympy's StrPrinter and ReprPrinter for our node kinds.
#include <string>

namespace exportlens::symbolic {

class Expr;

std::string to_str(const Expr& e);
std::string to_srepr(const Expr& e);
/// sympy's class name for a node, as srepr prints it and Basic.compare ranks
/// it: "Add", "StrictLessThan", torch's "FloorDiv" / "CleanDiv" and "Mod" /
/// "PythonMod" by the node's flavour, "Zero" / "One" / "NegativeOne" /
/// "Integer" for an integer.
const char* sympy_class_name(const Expr& e);

}  // namespace exportlens::symbolic
