"""sympy (with torch's own sympy functions) as the oracle for test_expr.

Reads JSON lines from the file named by argv[1] and writes one JSON line per
request to stdout:
  {"id": n, "srepr": S, "values": {...}}
      -> {"id", "str", "srepr", "value", "reread"}: sympy's evaluation of S,
         printed both ways, its value at `values` (an int, or "error"), and
         the srepr of what Python operators make of that str again.
  {"id": n, "pair": [A, B], "values": [{...}, ...]}
      -> {"id", "equal", "numeric_equal"}: whether sympy builds the same
         expression from A and B, and whether they agree at every point.
A request sympy cannot build gets {"id", "error"}.
Exits non-zero on anything it cannot read.
"""
import ast
import json
import sys

import sympy
from sympy.core.relational import Relational
from torch.utils._sympy.functions import CleanDiv, FloorDiv, Max, Min, Mod, PythonMod
from torch.utils._sympy.numbers import IntInfinity, NegativeIntInfinity, int_oo

NAMESPACE = {name: getattr(sympy, name) for name in dir(sympy) if not name.startswith("_")}
NAMESPACE.update(
    FloorDiv=FloorDiv, CleanDiv=CleanDiv, Mod=Mod, PythonMod=PythonMod, Max=Max, Min=Min,
    int_oo=int_oo, IntInfinity=IntInfinity, NegativeIntInfinity=NegativeIntInfinity,
)

RELATIONS = {
    sympy.Eq: lambda a, b: a == b, sympy.Ne: lambda a, b: a != b,
    sympy.StrictLessThan: lambda a, b: a < b, sympy.LessThan: lambda a, b: a <= b,
    sympy.StrictGreaterThan: lambda a, b: a > b, sympy.GreaterThan: lambda a, b: a >= b,
}


def parse(text):
    return eval(text, dict(NAMESPACE))  # noqa: S307 - test input we wrote ourselves


class _AsPrinted(ast.NodeTransformer):
    """Read a printout as sympy objects: a // b is torch's FloorDiv (on sympy
    objects Python's // means floor(a/b)), and integer literals are sympy
    Integers (so 3 <= s0 stays LessThan(3, s0) rather than Python reflecting
    it into s0 >= 3)."""

    def visit_Constant(self, node):
        if type(node.value) is int:
            call = ast.Call(func=ast.Name("Integer", ast.Load()), args=[node], keywords=[])
            return ast.copy_location(call, node)
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.FloorDiv):
            call = ast.Call(func=ast.Name("FloorDiv", ast.Load()), args=[node.left, node.right], keywords=[])
            return ast.copy_location(call, node)
        return node


def reread(text, symbols):
    """Evaluate a str() printout with Python operator semantics, as a reader of it would."""
    tree = ast.fix_missing_locations(_AsPrinted().visit(ast.parse(text, mode="eval")))
    namespace = dict(NAMESPACE)
    namespace.update({s.name: s for s in symbols})
    return sympy.sympify(eval(compile(tree, "<str>", "eval"), namespace))  # noqa: S307


def value(e, env):
    """Python integer semantics: // floors, % takes the divisor's sign."""
    if e is sympy.true:
        return 1
    if e is sympy.false:
        return 0
    if isinstance(e, sympy.Integer):
        return int(e)
    if isinstance(e, sympy.Symbol):
        return env[e.name]
    args = [value(a, env) for a in e.args]
    if isinstance(e, sympy.Add):
        return sum(args)
    if isinstance(e, sympy.Mul):
        out = 1
        for a in args:
            out *= a
        return out
    if isinstance(e, sympy.Pow):
        return args[0] ** args[1]
    if isinstance(e, FloorDiv):  # CleanDiv too
        return args[0] // args[1]
    if isinstance(e, (Mod, PythonMod)):
        return args[0] % args[1]
    if isinstance(e, Max):
        return max(args)
    if isinstance(e, Min):
        return min(args)
    if isinstance(e, Relational):
        return int(RELATIONS[type(e)](*args))
    if isinstance(e, sympy.And):
        return int(all(args))
    if isinstance(e, sympy.Or):
        return int(any(args))
    if isinstance(e, sympy.Not):
        return int(not args[0])
    raise TypeError(f"cannot evaluate {sympy.srepr(e)}")


def safe_value(e, env):
    try:
        return value(e, env)
    except (ZeroDivisionError, TypeError, KeyError):
        return "error"


def answer(request):
    if "pair" in request:
        a, b = (parse(t) for t in request["pair"])
        points = request.get("values", [])
        return {
            "id": request["id"],
            "equal": bool(a == b),
            "numeric_equal": all(safe_value(a, p) == safe_value(b, p) for p in points),
        }
    e = parse(request["srepr"])
    return {
        "id": request["id"],
        "str": str(e),
        "srepr": sympy.srepr(e),
        "value": safe_value(e, request.get("values", {})),
        "reread": sympy.srepr(reread(str(e), e.free_symbols)),
    }


def main():
    with open(sys.argv[1], encoding="utf-8") as requests:
        for line in requests:
            if not line.strip():
                continue
            request = json.loads(line)
            try:
                response = answer(request)
            except Exception as error:  # sympy refused to build it: report, go on
                response = {"id": request["id"], "error": f"{type(error).__name__}: {error}"}
            print(json.dumps(response))


if __name__ == "__main__":
    main()
