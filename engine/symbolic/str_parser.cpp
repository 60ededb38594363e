// A Pratt parser for the str form torch prints: Python operator syntax
// (+ - * // % ** < <= > >= == != & | ~, unary minus), parentheses, the
// functions sympy prints (Eq, Ne, Max, Min, Mod, PythonMod, FloorDiv, ...),
// int_oo, True/False and symbol names.
#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

#include "engine/symbolic/expr_node.h"
#include "engine/symbolic/parsers.h"
#include "engine/symbolic/text_cursor.h"

namespace exportlens::symbolic {

namespace {

using K = Expr::Kind;

struct Token {
  enum class Type { Number, Name, Operator, End } type = Type::End;
  std::string text;
  size_t offset = 0;
};

std::vector<Token> tokenize(std::string_view text) {
  static const std::string_view kOperators[] = {"**", "//", "<=", ">=", "==", "!=", "+", "-", "*",
                                                "%",  "<",  ">",  "&",  "|",  "~",  "(", ")", ","};
  std::vector<Token> tokens;
  TextCursor in(text);
  for (in.skip_space(); !in.at_end(); in.skip_space()) {
    const size_t start = in.offset();
    const char c = in.peek();
    if (is_digit(c)) {
      tokens.push_back({Token::Type::Number, std::string(in.take_while(is_digit)), start});
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      tokens.push_back({Token::Type::Name, std::string(in.take_while(is_name_char)), start});
    } else {
      const auto op = std::find_if(std::begin(kOperators), std::end(kOperators),
                                   [&](std::string_view o) { return in.looking_at(o); });
      if (op == std::end(kOperators)) in.fail("unexpected character '" + std::string(1, c) + "'");
      in.advance(op->size());
      tokens.push_back({Token::Type::Operator, std::string(*op), start});
    }
  }
  tokens.push_back({Token::Type::End, "", text.size()});
  return tokens;
}

/// Left binding power of an infix operator (0: not infix).
int infix_power(const Token& t) {
  if (t.type != Token::Type::Operator) return 0;
  static const std::map<std::string, int> powers = {
      {"|", 10}, {"&", 20}, {"<", 30}, {"<=", 30}, {">", 30}, {">=", 30}, {"==", 30},
      {"!=", 30}, {"+", 40}, {"-", 40}, {"*", 50}, {"//", 50}, {"%", 50}, {"**", 60}};
  auto it = powers.find(t.text);
  return it == powers.end() ? 0 : it->second;
}
constexpr int kPrefixPower = 55;  // unary minus / ~: below **, above * (Python)

class StrParser {
 public:
  explicit StrParser(std::string_view text) : tokens_(tokenize(text)) {}

  Expr parse_all() {
    Expr e = expression(0);
    if (peek().type != Token::Type::End) fail("an operator or end of input");
    return e;
  }

 private:
  std::vector<Token> tokens_;
  size_t at_ = 0;
  int depth_ = 0;

  const Token& peek() const { return tokens_[at_]; }
  const Token& next() { return tokens_[at_++]; }
  bool accept(const char* op) {
    if (peek().type == Token::Type::Operator && peek().text == op) {
      ++at_;
      return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& expected) const {
    const Token& t = peek();
    throw TextFailure(t.offset, "expected " + expected + ", found " +
                                    (t.type == Token::Type::End ? "end of input" : "'" + t.text + "'"));
  }
  void expect(const char* op) {
    if (!accept(op)) fail(std::string("'") + op + "'");
  }

  Expr expression(int min_power) {
    const NestingGuard nesting(depth_);
    if (nesting.too_deep()) fail("at most " + std::to_string(kMaxParseNesting) + " levels of nesting");
    Expr left = prefix();
    while (true) {
      const Token& op = peek();
      const int power = infix_power(op);
      if (power == 0 || power <= min_power) break;
      next();
      // ** is right associative; everything else left.
      const Expr right = expression(op.text == "**" ? power - 1 : power);
      left = apply(op, left, right);
    }
    return left;
  }

  Expr prefix() {
    const Token t = next();
    if (t.type == Token::Type::Number) {
      if (const auto value = decimal_integer(t.text)) return ExprBuilder::number(Num::integer(*value));
      --at_;
      fail("an integer that fits in 64 bits");
    }
    if (t.type == Token::Type::Name) return name(t);
    if (t.type == Token::Type::Operator) {
      if (t.text == "(") {
        Expr inner = expression(0);
        expect(")");
        return inner;
      }
      if (t.text == "-") return multiply_by(Num::integer(-1), expression(kPrefixPower));
      if (t.text == "+") return expression(kPrefixPower);
      if (t.text == "~") return ExprBuilder::logical_not(expression(kPrefixPower));
    }
    --at_;
    fail("an expression");
  }

  Expr name(const Token& t) {
    if (!accept("(")) {
      if (t.text == "int_oo" || t.text == "oo") return ExprBuilder::number(Num::infinite(1));
      if (t.text == "True" || t.text == "true") return ExprBuilder::boolean(true);
      if (t.text == "False" || t.text == "false") return ExprBuilder::boolean(false);
      return ExprBuilder::symbol(t.text, ExprBuilder::default_assumptions(t.text));
    }
    std::vector<Expr> args;
    if (!accept(")")) {
      do {
        args.push_back(expression(0));
      } while (accept(","));
      expect(")");
    }
    return call(t, std::move(args));
  }

  Expr call(const Token& t, std::vector<Expr> args) {
    static const std::map<std::string, K> relations = {
        {"Eq", K::Eq}, {"Ne", K::Ne}, {"Lt", K::Lt}, {"Le", K::Le}, {"Gt", K::Gt}, {"Ge", K::Ge}};
    auto arity = [&](size_t n) {
      if (args.size() != n)
        throw TextFailure(t.offset, t.text + " takes " + std::to_string(n) + " arguments, found " +
                                        std::to_string(args.size()));
    };
    if (auto it = relations.find(t.text); it != relations.end()) {
      arity(2);
      return ExprBuilder::relation(it->second, args[0], args[1]);
    }
    if (t.text == "Max" || t.text == "Min") {
      if (args.empty()) arity(1);
      return ExprBuilder::min_max(t.text == "Max" ? K::Max : K::Min, std::move(args));
    }
    if (t.text == "Mod" || t.text == "PythonMod") {
      arity(2);
      return ExprBuilder::mod(args[0], args[1],
                              t.text == "Mod" ? Flavor::Plain : Flavor::PythonMod);
    }
    if (t.text == "FloorDiv" || t.text == "CleanDiv") {
      arity(2);
      return ExprBuilder::floordiv(args[0], args[1],
                                   t.text == "CleanDiv" ? Flavor::CleanDiv : Flavor::Plain);
    }
    if (t.text == "And" || t.text == "Or")
      return ExprBuilder::logic(t.text == "And" ? K::And : K::Or, std::move(args));
    if (t.text == "Not") {
      arity(1);
      return ExprBuilder::logical_not(args[0]);
    }
    throw TextFailure(t.offset, "unknown function '" + t.text + "'");
  }

  Expr apply(const Token& op, const Expr& a, const Expr& b) {
    const std::string& o = op.text;
    if (o == "+") return ExprBuilder::add({a, b});
    if (o == "-") return ExprBuilder::add({a, multiply_by(Num::integer(-1), b)});
    if (o == "*") return ExprBuilder::mul({a, b});
    if (o == "//") return ExprBuilder::floordiv(a, b);
    if (o == "%") return ExprBuilder::torch_mod(a, b);
    if (o == "**") {
      if (!b.is_integer())
        throw TextFailure(op.offset, "expected an integer exponent, found " + b.str());
      return ExprBuilder::pow(a, *b.as_integer());
    }
    if (o == "&") return ExprBuilder::logic(K::And, {a, b});
    if (o == "|") return ExprBuilder::logic(K::Or, {a, b});
    static const std::map<std::string, K> relations = {{"<", K::Lt},  {"<=", K::Le},
                                                       {">", K::Gt},  {">=", K::Ge},
                                                       {"==", K::Eq}, {"!=", K::Ne}};
    return ExprBuilder::relation(relations.at(o), a, b);
  }
};

}  // namespace

Expr parse_str_text(std::string_view text) {
  try {
    return StrParser(text).parse_all();
  } catch (const TextFailure& failure) {
    throw std::invalid_argument("parse: at offset " + std::to_string(failure.offset()) + ": " + failure.what());
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& error) {  // arithmetic errors while folding
    throw std::invalid_argument(std::string("parse: ") + error.what());
  }
}

}  // namespace exportlens::symbolic
