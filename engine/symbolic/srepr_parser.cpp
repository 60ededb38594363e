// sympy's srepr form read as an integer expression:
//   Mul(Integer(2), Symbol('s0', positive=True, integer=True)), int_oo, true, ...
// srepr_reader.h reads the syntax; every term is rebuilt here through the
// canonicalizing constructors, exactly as sympy re-evaluates srepr text when
// torch loads a .pt2.
#include <map>
#include <stdexcept>

#include "engine/symbolic/expr_node.h"
#include "engine/symbolic/parsers.h"
#include "engine/symbolic/srepr_reader.h"
#include "engine/symbolic/text_cursor.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;
using Term = SreprTerm;

class ExprOfSrepr {
 public:
  explicit ExprOfSrepr(std::string_view text) : text_(text) {}

  /// The tree is no deeper than read_srepr allows, so neither is this recursion.
  Expr build(const Term& t) {
    switch (t.kind) {
      case Term::Kind::Number: return ExprBuilder::number(Num::integer(integer(t)));
      case Term::Kind::String: fail_expected(text_, t.offset, "an expression");
      case Term::Kind::Negated: {
        const Expr operand = build(t.args[0]);
        return arithmetic_at(t.offset, [&] { return multiply_by(Num::integer(-1), operand); });
      }
      case Term::Kind::Name: break;
    }
    const std::string_view name = t.text;
    if (!t.called) {
      if (name == "int_oo" || name == "oo") return ExprBuilder::number(Num::infinite(1));
      if (name == "true" || name == "True") return ExprBuilder::boolean(true);
      if (name == "false" || name == "False") return ExprBuilder::boolean(false);
      fail_expected(text_, t.end, "'('");
    }
    if (name == "Symbol") return symbol(t);
    if (name == "Integer") {
      if (t.args.empty()) fail_expected(text_, t.end - 1, "an integer");
      require_arity(t, 1);
      return ExprBuilder::number(Num::integer(integer(t.args[0])));
    }
    if (name == "IntInfinity" || name == "Infinity" || name == "NegativeIntInfinity" || name == "NegativeInfinity") {
      require_arity(t, 0);
      return ExprBuilder::number(Num::infinite(name.starts_with("Negative") ? -1 : 1));
    }
    std::vector<Expr> args;
    args.reserve(t.args.size());
    for (const Term& a : t.args) args.push_back(build(a));
    if (!t.keywords.empty())
      throw TextFailure(t.keywords[0].offset, "expected no keyword arguments to " + std::string(name));
    return arithmetic_at(t.offset, [&] { return call(t, std::move(args)); });
  }

 private:
  int64_t integer(const Term& t) const {
    if (t.kind == Term::Kind::Number) {
      if (const auto value = decimal_integer(t.text)) return *value;
      const size_t digits = t.text.front() == '-' || t.text.front() == '+' ? 1 : 0;
      if (t.text.find_first_not_of("0123456789", digits) == std::string_view::npos)
        fail_expected(text_, t.offset, "an integer that fits in 64 bits");
    }
    fail_expected(text_, t.offset, "an integer");
  }

  Expr symbol(const Term& t) {
    if (t.args.size() != 1 || t.args[0].kind != Term::Kind::String)
      fail_expected(text_, t.args.empty() ? t.end - 1 : t.args[0].offset, "a quoted symbol name");
    Assumptions assumptions;
    for (const SreprKeyword& k : t.keywords) {
      const bool is_true = k.value.is_call("True") && !k.value.called;
      if (!is_true && !(k.value.is_call("False") && !k.value.called))
        fail_expected(text_, k.value.offset, "True or False");
      assumptions.emplace_back(std::string(k.key), is_true);
    }
    return ExprBuilder::symbol(string_value(t.args[0]), std::move(assumptions));
  }

  /// Arithmetic errors (division by zero, overflow) become failures at the
  /// term that caused them.
  template <class F>
  static Expr arithmetic_at(size_t offset, F&& f) {
    try {
      return f();
    } catch (const std::invalid_argument&) {
      throw;
    } catch (const std::exception& error) {
      throw TextFailure(offset, error.what());
    }
  }

  static void require_arity(const Term& t, size_t n) {
    if (t.args.size() != n)
      throw TextFailure(t.offset, "expected " + std::to_string(n) + " arguments to " + std::string(t.text) +
                                      ", found " + std::to_string(t.args.size()));
  }

  Expr call(const Term& t, std::vector<Expr> args) const {
    static const std::map<std::string_view, K> relations = {
        {"Equality", K::Eq}, {"Eq", K::Eq}, {"Unequality", K::Ne}, {"Ne", K::Ne},
        {"StrictLessThan", K::Lt}, {"Lt", K::Lt}, {"LessThan", K::Le}, {"Le", K::Le},
        {"StrictGreaterThan", K::Gt}, {"Gt", K::Gt}, {"GreaterThan", K::Ge}, {"Ge", K::Ge}};
    const std::string_view name = t.text;
    if (name == "Add") return ExprBuilder::add(std::move(args));
    if (name == "Mul") return ExprBuilder::mul(std::move(args));
    if (name == "Max" || name == "Min") {
      if (args.empty()) require_arity(t, 1);
      return ExprBuilder::min_max(name == "Max" ? K::Max : K::Min, std::move(args));
    }
    if (name == "And" || name == "Or")
      return ExprBuilder::logic(name == "And" ? K::And : K::Or, std::move(args));
    if (name == "Not") {
      require_arity(t, 1);
      return ExprBuilder::logical_not(args[0]);
    }
    if (auto it = relations.find(name); it != relations.end()) {
      require_arity(t, 2);
      return ExprBuilder::relation(it->second, args[0], args[1]);
    }
    if (name == "Pow") {
      require_arity(t, 2);
      if (!args[1].is_integer()) throw TextFailure(t.offset, "expected an integer exponent, found " + args[1].str());
      return ExprBuilder::pow(args[0], *args[1].as_integer());
    }
    if (name == "FloorDiv" || name == "CleanDiv") {
      require_arity(t, 2);
      return ExprBuilder::floordiv(args[0], args[1], name == "CleanDiv" ? Flavor::CleanDiv : Flavor::Plain);
    }
    if (name == "Mod" || name == "PythonMod") {
      require_arity(t, 2);
      return ExprBuilder::mod(args[0], args[1], name == "PythonMod" ? Flavor::PythonMod : Flavor::Plain);
    }
    fail_expected(text_, t.offset,
                  "a supported sympy class (Integer, Symbol, Add, Mul, Pow, FloorDiv, Mod, Max, Min, a "
                  "relation, And, Or, Not), not '" + std::string(name) + "'");
  }

  std::string_view text_;
};

}  // namespace

Expr parse_srepr_text(std::string_view text) {
  try {
    return ExprOfSrepr(text).build(read_srepr(text));
  } catch (const TextFailure& failure) {
    throw std::invalid_argument("parse_srepr: at offset " + std::to_string(failure.offset()) + ": " + failure.what());
  }
}

}  // namespace exportlens::symbolic
