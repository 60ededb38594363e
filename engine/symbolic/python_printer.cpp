#include "engine/symbolic/python_printer.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "engine/symbolic/printer.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

int class_rank(const std::string& name) {
  static const std::vector<std::string> order = {
      "Zero", "One", "Half", "Infinity", "NaN", "NegativeOne", "NegativeInfinity", "Integer", "Rational",
      "Float", "Exp1", "Pi", "ImaginaryUnit", "Symbol", "Wild", "Pow", "Mul", "Add"};
  static const std::vector<std::string> relations = {"Equality", "Unequality", "StrictGreaterThan",
                                                     "StrictLessThan", "GreaterThan", "LessThan"};
  auto it = std::find(order.begin(), order.end(), name);
  if (it != order.end()) return int(it - order.begin());
  auto rt = std::find(relations.begin(), relations.end(), name);
  if (rt != relations.end()) return 100 + int(rt - relations.begin());
  return -1;  // unknown: compared by name
}

int compare_names(const std::string& a, const std::string& b) {
  if (a == b) return 0;
  const int ra = class_rank(a), rb = class_rank(b);
  if (ra < 0 && rb < 0) return a < b ? -1 : 1;
  const int ia = ra < 0 ? 1000 : ra, ib = rb < 0 ? 1000 : rb;
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/// Symbols' hashable content is (name, *assumptions): unbacked (integer only)
/// symbols carry fewer assumptions than size symbols, so they sort first.
int assumption_weight(const Expr& symbol) {
  const std::string& n = symbol.symbol_name();
  return n.size() > 1 && n[0] == 's' && std::isdigit(static_cast<unsigned char>(n[1])) ? 1 : 0;
}

int precedence(const Expr& e) {
  switch (e.kind()) {
    case K::Integer: return *e.as_integer() < 0 ? 40 : 1000;
    case K::Add: return 40;
    case K::Mul: {
      // sympy's precedence_Mul: a factor with its own lower precedence (FloorDiv,
      // Mod) keeps Mul's; otherwise a negative coefficient makes it an Add's.
      for (const Expr& a : e.args())
        if (a.kind() == K::FloorDiv || a.kind() == K::Mod) return 50;
      const auto c = e.args().front().as_integer();
      return c && *c < 0 ? 40 : 50;
    }
    case K::Pow: return 60;
    case K::FloorDiv:
    case K::Mod: return 35;
    case K::Eq:
    case K::Ne: return 50;
    case K::Lt:
    case K::Le:
    case K::Gt:
    case K::Ge: return 35;
    case K::And: return 30;
    case K::Or: return 20;
    case K::Not: return 100;
    default: return 1000;
  }
}

std::vector<Expr> sympy_args(const Expr& e) {
  std::vector<Expr> args = e.args();
  if (e.kind() == K::Add || e.kind() == K::Mul)
    std::stable_sort(args.begin(), args.end(), [](const Expr& a, const Expr& b) { return basic_compare(a, b) < 0; });
  return args;
}

class Printer {
 public:
  explicit Printer(const SymbolName& name_of) : name_of_(name_of) {}

  std::string print(const Expr& e) const {
    switch (e.kind()) {
      case K::Integer: return std::to_string(*e.as_integer());
      case K::Infinity: return e == Expr::infinity(true) ? "-IntInfinity()" : "IntInfinity()";
      case K::Symbol: return name_of_(e);
      case K::True: return "True";
      case K::False: return "False";
      case K::Add: return join(sympy_args(e), " + ", 40);
      case K::Mul: return join(sympy_args(e), "*", precedence(e));
      case K::Pow: {
        std::vector<Expr> repeated(size_t(*e.args()[1].as_integer()), e.args()[0]);
        return join(repeated, "*", 50);
      }
      case K::FloorDiv: return join(e.args(), " // ", 999);
      case K::Mod: return join(e.args(), " % ", 999);
      case K::Max:
      case K::Min: {
        std::string s = e.kind() == K::Max ? "max(" : "min(";
        for (size_t i = 0; i < e.args().size(); ++i) s += (i ? ", " : "") + print(e.args()[i]);
        return s + ")";
      }
      case K::Eq: return join(e.args(), " == ", 50);
      case K::Ne: return join(e.args(), " != ", 50);
      case K::Lt: return join(e.args(), " < ", 35);
      case K::Le: return join(e.args(), " <= ", 35);
      case K::Gt: return join(e.args(), " > ", 35);
      case K::Ge: return join(e.args(), " >= ", 35);
      case K::And: return join(e.args(), " and ", 30);
      case K::Or: return join(e.args(), " or ", 20);
      case K::Not: return "not (" + print(e.args()[0]) + ")";
    }
    return e.str();
  }

 private:
  /// sympy's stringify with non-strict parenthesize: an operand whose
  /// precedence is at most `level` gets parentheses.
  std::string join(const std::vector<Expr>& items, const char* sep, int level) const {
    std::string s;
    for (size_t i = 0; i < items.size(); ++i) {
      std::string item = print(items[i]);
      if (precedence(items[i]) <= level) item = "(" + item + ")";
      s += (i ? sep : "") + item;
    }
    return s;
  }
  const SymbolName& name_of_;
};

}  // namespace

int basic_compare(const Expr& a, const Expr& b) {
  if (a == b) return 0;
  const int c = compare_names(sympy_class_name(a), sympy_class_name(b));
  if (c) return c;
  switch (a.kind()) {
    case K::Integer: {
      const int64_t x = *a.as_integer(), y = *b.as_integer();
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case K::Symbol: {
      const int wa = assumption_weight(a), wb = assumption_weight(b);
      if (wa != wb) return wa < wb ? -1 : 1;
      return a.symbol_name() < b.symbol_name() ? -1 : a.symbol_name() > b.symbol_name() ? 1 : 0;
    }
    default: break;
  }
  const std::vector<Expr> x = sympy_args(a), y = sympy_args(b);
  if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
  for (size_t i = 0; i < x.size(); ++i)
    if (const int r = basic_compare(x[i], y[i])) return r;
  return 0;
}

std::string to_python(const Expr& e, const SymbolName& name_of) { return Printer(name_of).print(e); }

}  // namespace exportlens::symbolic
