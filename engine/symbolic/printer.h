#pragma once
// sympy's StrPrinter and ReprPrinter for our node kinds.
#include <string>

#include "engine/symbolic/expr.h"

namespace exportlens::symbolic {

enum class Flavor : uint8_t;  // expr_node.h

std::string to_str(const Expr& e);
std::string to_srepr(const Expr& e);
/// sympy's class name for a node, as srepr prints it and Basic.compare ranks
/// it: "Add", "StrictLessThan", torch's "FloorDiv" / "CleanDiv" and "Mod" /
/// "PythonMod" by the node's flavour, "Zero" / "One" / "NegativeOne" /
/// "Integer" for an integer.
const char* sympy_class_name(const Expr& e);
/// The class name of every node of `kind` and `flavor`: an integer's is
/// "Integer", infinity's "IntInfinity" (their values name the rest).
const char* sympy_class_name(Expr::Kind kind, Flavor flavor);

}  // namespace exportlens::symbolic
