// Symbolic expressions from files: srepr (tensor sizes), sympy str (range
// constraint keys) and recorded guards (guards_code). The first byte picks
// the parser; a parsed expression is printed back.
#include <stdexcept>
#include <string_view>

#include "engine/symbolic/expr.h"
#include "engine/symbolic/python_guard_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  using exportlens::symbolic::Expr;
  try {
    const Expr e = data[0] % 3 == 0   ? Expr::parse_srepr(text)
                   : data[0] % 3 == 1 ? Expr::parse(text)
                                      : exportlens::symbolic::parse_python_guard(text);
    (void)e.str();
  } catch (const std::logic_error&) {    // parse errors (invalid_argument), Mod(x, 0) (domain_error)
  } catch (const std::runtime_error&) {  // GuardParseError, overflow
  }
  return 0;
}
