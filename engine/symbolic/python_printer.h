#pragma once
// torch's PythonPrinter / ShapeGuardPythonPrinter: expressions as Python code
// over their symbols' sources, e.g. "(L['x'].size()[0]*L['y'].size()[1]) ==
// L['z'].size()[0]" — the form of guards_code and of constraint-violation
// messages. Sums and products list their operands in sympy's internal order
// (Basic.compare), not in str()'s order; precedences follow sympy's table.
#include <functional>
#include <string>

#include "engine/symbolic/expr.h"

namespace exportlens::symbolic {

/// How a symbol prints (its source name, or the symbol's own name).
using SymbolName = std::function<std::string(const Expr& symbol)>;

std::string to_python(const Expr& e, const SymbolName& name_of);

/// sympy's Basic.compare on our node kinds: -1, 0, +1.
int basic_compare(const Expr& a, const Expr& b);

}  // namespace exportlens::symbolic
