// Recursive-descent reader for sympy's srepr form:
//   Mul(Integer(2), Symbol('s0', positive=True, integer=True)), int_oo, true, ...
// Every node is rebuilt through the canonicalizing constructors, exactly as
// sympy re-evaluates srepr text when torch loads a .pt2.
#include <cctype>
#include <functional>
#include <map>
#include <stdexcept>

#include "engine/symbolic/expr_node.h"
#include "engine/symbolic/nesting_guard.h"
#include "engine/symbolic/parsers.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

class SreprParser {
 public:
  explicit SreprParser(std::string_view text) : text_(text) {}

  Expr parse_all() {
    Expr e = expression();
    skip_space();
    if (pos_ != text_.size()) fail("end of input");
    return e;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;

  [[noreturn]] void fail(const std::string& expected, size_t at) const {
    std::string found = at < text_.size() ? "'" + std::string(text_.substr(at, 12)) + "'" : "end of input";
    throw std::invalid_argument("parse_srepr: at offset " + std::to_string(at) + ": expected " +
                                expected + ", found " + found);
  }
  [[noreturn]] void fail(const std::string& expected) const { fail(expected, pos_); }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("'") + c + "'");
  }

  std::string identifier() {
    skip_space();
    const size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    if (start == pos_ || std::isdigit(static_cast<unsigned char>(text_[start]))) {
      pos_ = start;
      fail("an expression");
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  int64_t integer_literal() {
    skip_space();
    const size_t start = pos_;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
    const size_t digits = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (digits == pos_) fail("an integer", start);
    try {
      return std::stoll(std::string(text_.substr(start, pos_ - start)));
    } catch (const std::out_of_range&) {
      fail("an integer that fits in 64 bits", start);
    }
  }

  std::string string_literal() {
    skip_space();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      fail("a quoted symbol name");
    const char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      out += text_[pos_++];
    }
    if (pos_ >= text_.size()) fail(std::string("closing ") + quote);
    ++pos_;
    return out;
  }

  Expr symbol() {
    std::string name = string_literal();
    Assumptions assumptions;
    while (accept(',')) {
      std::string key = identifier();
      expect('=');
      const size_t at = pos_;
      const std::string value = identifier();
      if (value != "True" && value != "False") fail("True or False", at);
      assumptions.emplace_back(std::move(key), value == "True");
    }
    expect(')');
    return ExprBuilder::symbol(std::move(name), std::move(assumptions));
  }

  std::vector<Expr> argument_list() {
    std::vector<Expr> args;
    if (accept(')')) return args;
    do {
      args.push_back(expression());
    } while (accept(','));
    expect(')');
    return args;
  }

  Expr expression() {
    const NestingGuard nesting(depth_);
    if (nesting.too_deep())
      throw std::invalid_argument("parse_srepr: at offset " + std::to_string(pos_) + ": nested more than " +
                                  std::to_string(kMaxParseNesting) + " levels deep");
    skip_space();
    const size_t start = pos_;
    if (accept('-')) {
      const Expr operand = expression();
      return wrap_errors(start, [&] { return multiply_by(Num::integer(-1), operand); });
    }
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
      return ExprBuilder::number(Num::integer(integer_literal()));
    const std::string name = identifier();
    if (name == "int_oo" || name == "oo") return ExprBuilder::number(Num::infinite(1));
    if (name == "true" || name == "True") return ExprBuilder::boolean(true);
    if (name == "false" || name == "False") return ExprBuilder::boolean(false);
    expect('(');
    if (name == "Integer") {
      const int64_t v = integer_literal();
      expect(')');
      return ExprBuilder::number(Num::integer(v));
    }
    if (name == "Symbol") return symbol();
    if (name == "IntInfinity" || name == "Infinity" || name == "NegativeIntInfinity" ||
        name == "NegativeInfinity") {
      expect(')');
      return ExprBuilder::number(Num::infinite(name.rfind("Negative", 0) == 0 ? -1 : 1));
    }
    std::vector<Expr> args = argument_list();
    return wrap_errors(start, [&] { return build(name, std::move(args), start); });
  }

  /// Arithmetic errors (division by zero, overflow) become parse errors at
  /// the node that caused them.
  template <class F>
  Expr wrap_errors(size_t at, F&& f) {
    try {
      return f();
    } catch (const std::invalid_argument&) {
      throw;
    } catch (const std::exception& error) {
      throw std::invalid_argument("parse_srepr: at offset " + std::to_string(at) + ": " +
                                  error.what());
    }
  }

  void require_arity(const std::string& name, const std::vector<Expr>& args, size_t n,
                     size_t at) const {
    if (args.size() != n)
      throw std::invalid_argument("parse_srepr: at offset " + std::to_string(at) + ": expected " +
                                  std::to_string(n) + " arguments to " + name + ", found " +
                                  std::to_string(args.size()));
  }

  Expr build(const std::string& name, std::vector<Expr> args, size_t at) {
    static const std::map<std::string, K> relations = {
        {"Equality", K::Eq}, {"Eq", K::Eq}, {"Unequality", K::Ne}, {"Ne", K::Ne},
        {"StrictLessThan", K::Lt}, {"Lt", K::Lt}, {"LessThan", K::Le}, {"Le", K::Le},
        {"StrictGreaterThan", K::Gt}, {"Gt", K::Gt}, {"GreaterThan", K::Ge}, {"Ge", K::Ge}};
    if (name == "Add") return ExprBuilder::add(std::move(args));
    if (name == "Mul") return ExprBuilder::mul(std::move(args));
    if (name == "Max" || name == "Min") {
      if (args.empty()) require_arity(name, args, 1, at);
      return ExprBuilder::min_max(name == "Max" ? K::Max : K::Min, std::move(args));
    }
    if (name == "And" || name == "Or")
      return ExprBuilder::logic(name == "And" ? K::And : K::Or, std::move(args));
    if (name == "Not") {
      require_arity(name, args, 1, at);
      return ExprBuilder::logical_not(args[0]);
    }
    if (auto it = relations.find(name); it != relations.end()) {
      require_arity(name, args, 2, at);
      return ExprBuilder::relation(it->second, args[0], args[1]);
    }
    if (name == "Pow") {
      require_arity(name, args, 2, at);
      if (!args[1].is_integer())
        throw std::invalid_argument("parse_srepr: at offset " + std::to_string(at) +
                                    ": expected an integer exponent, found " + args[1].str());
      return ExprBuilder::pow(args[0], *args[1].as_integer());
    }
    if (name == "FloorDiv" || name == "CleanDiv") {
      require_arity(name, args, 2, at);
      return ExprBuilder::floordiv(args[0], args[1],
                                   name == "CleanDiv" ? Flavor::CleanDiv : Flavor::Plain);
    }
    if (name == "Mod" || name == "PythonMod") {
      require_arity(name, args, 2, at);
      return ExprBuilder::mod(args[0], args[1],
                              name == "PythonMod" ? Flavor::PythonMod : Flavor::Plain);
    }
    fail("a supported sympy class (Integer, Symbol, Add, Mul, Pow, FloorDiv, Mod, Max, Min, a "
         "relation, And, Or, Not), not '" + name + "'",
         at);
  }
};

}  // namespace

Expr parse_srepr_text(std::string_view text) { return SreprParser(text).parse_all(); }

}  // namespace exportlens::symbolic
