// str(): sympy's StrPrinter (sympy/printing/str.py) with torch's _sympystr
// hooks for FloorDiv ("(a//b)") and int_oo. srepr(): sympy's ReprPrinter
// (sympy/printing/repr.py). Term and factor order is already canonical in
// the node, so the printers only decide signs and parentheses.
#include "engine/symbolic/printer.h"

#include <algorithm>

#include "engine/symbolic/expr_node.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

// sympy.printing.precedence.PRECEDENCE
constexpr double kOr = 20, kAnd = 30, kRelational = 35, kAdd = 40, kMul = 50, kPow = 60,
                 kNot = 100, kAtom = 1000, kBitwiseOr = 36, kBitwiseAnd = 38;
// torch's FloorDiv/Mod/PythonMod declare precedence 35 ("lower than add").
constexpr double kTorchFunction = 35;
// sympy's unary minus weight: between Mul and Pow.
constexpr double kUnaryMinus = 0.5 * (kPow + kMul);

bool has_negative_coefficient(const Expr& e) {
  return e.kind() == K::Mul && is_number(e.args().front()) && num(e.args().front()).is_negative();
}

/// sympy's precedence() of a node as the printers see it.
double precedence(const Expr& e) {
  switch (e.kind()) {
    case K::Integer: return num(e).value < 0 ? kAdd : kAtom;
    case K::Add: return kAdd;
    case K::Mul: return has_negative_coefficient(e) ? kAdd : kMul;
    case K::Pow: return kPow;
    case K::FloorDiv:
    case K::Mod: return kTorchFunction;
    case K::Eq:
    case K::Ne: return kMul;  // PRECEDENCE_VALUES["Equality"]
    case K::Lt:
    case K::Le:
    case K::Gt:
    case K::Ge: return kRelational;
    case K::And: return kAnd;
    case K::Or: return kOr;
    case K::Not: return kNot;
    default: return kAtom;  // Symbol, int_oo, Max/Min, True/False
  }
}

/// StrPrinter.parenthesize with strict=False.
std::string parenthesize(const Expr& e, double level) {
  std::string s = to_str(e);
  return precedence(e) <= level ? "(" + s + ")" : s;
}

std::string join(const std::vector<Expr>& args, const std::string& separator, double level) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) out += separator;
    out += level > 0 ? parenthesize(args[i], level) : to_str(args[i]);
  }
  return out;
}

std::string str_add(const Expr& e) {
  std::string out;
  for (size_t i = 0; i < e.args().size(); ++i) {
    const Expr& term = e.args()[i];
    std::string t = to_str(term);
    const bool minus = !t.empty() && t[0] == '-';
    if (minus) t.erase(0, 1);
    if (precedence(term) < kAdd) t = "(" + t + ")";
    if (i == 0) out = minus ? "-" + t : t;
    else out += (minus ? " - " : " + ") + t;
  }
  return out;
}

std::string str_mul(const Expr& e) {
  std::vector<Expr> items = e.args();
  std::string sign;
  if (is_number(items.front())) {
    Num c = num(items.front());
    if (c.is_negative()) {
      sign = "-";
      c = negate(c);
    }
    if (c.is_one()) items.erase(items.begin());
    else items.front() = ExprBuilder::number(c);
  }
  if (items.size() == 1 && !sign.empty()) return sign + parenthesize(items.front(), kUnaryMinus);
  return sign + join(items, "*", kMul);
}

std::string str_relation(const Expr& e) {
  const Expr& a = e.args()[0];
  const Expr& b = e.args()[1];
  switch (e.kind()) {
    case K::Eq: return "Eq(" + to_str(a) + ", " + to_str(b) + ")";
    case K::Ne: return "Ne(" + to_str(a) + ", " + to_str(b) + ")";
    default: break;
  }
  const char* op = e.kind() == K::Lt ? " < " : e.kind() == K::Le ? " <= " : e.kind() == K::Gt ? " > " : " >= ";
  return parenthesize(a, kRelational) + op + parenthesize(b, kRelational);
}

/// Python's repr() of a str, which srepr uses for symbol names.
std::string python_repr(const std::string& s) {
  const bool use_double = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  const char quote = use_double ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    if (c == '\\' || c == quote) out += '\\';
    out += c;
  }
  return out + quote;
}

std::string srepr_symbol(const Expr& e) {
  std::string out = "Symbol(" + python_repr(e.symbol_name());
  for (const auto& [key, value] : N(e).assumptions) out += ", " + key + "=" + (value ? "True" : "False");
  return out + ")";
}

/// Mul.as_ordered_factors() lists a negative coefficient as -1 and its magnitude.
std::string srepr_mul(const Expr& e) {
  std::vector<std::string> parts;
  for (const Expr& a : e.args()) {
    if (is_number(a) && num(a).is_negative() && !(num(a) == Num::integer(-1))) {
      parts.push_back("Integer(-1)");
      parts.push_back(to_srepr(ExprBuilder::number(negate(num(a)))));
    } else {
      parts.push_back(to_srepr(a));
    }
  }
  std::string out = "Mul(";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + ")";
}

}  // namespace

std::string to_str(const Expr& e) {
  switch (e.kind()) {
    case K::Integer:
    case K::Infinity: return num(e).str();
    case K::Symbol: return e.symbol_name();
    case K::True: return "True";
    case K::False: return "False";
    case K::Add: return str_add(e);
    case K::Mul: return str_mul(e);
    case K::Pow: return parenthesize(e.args()[0], kPow) + "**" + parenthesize(e.args()[1], kPow);
    case K::FloorDiv:
      return "(" + parenthesize(e.args()[0], kAtom - 0.5) + "//" +
             parenthesize(e.args()[1], kAtom - 0.5) + ")";
    case K::Mod: return std::string(sympy_class_name(e)) + "(" + join(e.args(), ", ", 0) + ")";
    case K::Max:
    case K::Min: {  // StrPrinter._print_LatticeOp re-sorts by sort key alone
      std::vector<Expr> args = e.args();
      std::sort(args.begin(), args.end(), sort_key_less);
      return std::string(sympy_class_name(e)) + "(" + join(args, ", ", 0) + ")";
    }
    case K::Eq:
    case K::Ne:
    case K::Lt:
    case K::Le:
    case K::Gt:
    case K::Ge: return str_relation(e);
    case K::And: return join(e.args(), " & ", kBitwiseAnd);
    case K::Or: return join(e.args(), " | ", kBitwiseOr);
    case K::Not: return "~" + parenthesize(e.args()[0], kNot);
  }
  return "";
}

std::string to_srepr(const Expr& e) {
  switch (e.kind()) {
    case K::Integer: return "Integer(" + std::to_string(num(e).value) + ")";
    case K::Infinity: return num(e).str();
    case K::Symbol: return srepr_symbol(e);
    case K::True: return "true";
    case K::False: return "false";
    case K::Mul: return srepr_mul(e);
    default: {
      std::string out = std::string(sympy_class_name(e)) + "(";
      for (size_t i = 0; i < e.args().size(); ++i) out += (i ? ", " : "") + to_srepr(e.args()[i]);
      return out + ")";
    }
  }
}

const char* sympy_class_name(const Expr& e) {
  switch (e.kind()) {
    case K::Integer: {
      const int64_t v = *e.as_integer();
      return v == 0 ? "Zero" : v == 1 ? "One" : v == -1 ? "NegativeOne" : "Integer";
    }
    case K::Infinity: return e == Expr::infinity(true) ? "NegativeIntInfinity" : "IntInfinity";
    default: return sympy_class_name(e.kind(), N(e).flavor);
  }
}

const char* sympy_class_name(K kind, Flavor flavor) {
  switch (kind) {
    case K::Integer: return "Integer";
    case K::Infinity: return "IntInfinity";
    case K::Symbol: return "Symbol";
    case K::FloorDiv: return flavor == Flavor::CleanDiv ? "CleanDiv" : "FloorDiv";
    case K::Mod: return flavor == Flavor::PythonMod ? "PythonMod" : "Mod";
    case K::Max: return "Max";
    case K::Min: return "Min";
    case K::Pow: return "Pow";
    case K::Add: return "Add";
    case K::Mul: return "Mul";
    case K::True: return "BooleanTrue";
    case K::False: return "BooleanFalse";
    case K::Eq: return "Equality";
    case K::Ne: return "Unequality";
    case K::Lt: return "StrictLessThan";
    case K::Le: return "LessThan";
    case K::Gt: return "StrictGreaterThan";
    case K::Ge: return "GreaterThan";
    case K::And: return "And";
    case K::Or: return "Or";
    case K::Not: return "Not";
  }
  return "Basic";
}

}  // namespace exportlens::symbolic
