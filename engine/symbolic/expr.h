#pragma once
// Integer (and boolean) symbolic expressions over shape symbols, in a
// canonical form: structurally equal expressions compare equal, and str()
// prints them the way torch (sympy) does, e.g. "s17*s77", "s0 + 2", "5 - s0",
// "(s0//2)", "Eq(s2, s4)". No LibTorch, no Qt.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace exportlens::symbolic {

class ExprNode;

/// A value-semantic handle to an immutable expression node.
class Expr {
 public:
  enum class Kind {
    Integer,   // arbitrary int64 constant
    Infinity,  // int_oo (sign = +1) or -int_oo (sign = -1)
    Symbol,    // s0, u0, ... (or any user name)
    Add,       // sum of terms, canonical order
    Mul,       // integer coefficient times factors, canonical order
    Pow,       // base ** integer exponent (exponent >= 2)
    FloorDiv,  // a // b
    Mod,       // Mod(a, b)
    Max,
    Min,
    // Booleans (guards, runtime asserts).
    True,
    False,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Not,
  };

  Expr();  // the integer 0
  /*implicit*/ Expr(int64_t value);  // NOLINT: ints read as expressions

  static Expr integer(int64_t value);
  /// A symbol with torch's assumptions for its name: s<N> positive integer,
  /// anything else integer (what srepr() writes).
  static Expr symbol(std::string name);
  /// A symbol with explicit sympy assumptions, in srepr order.
  static Expr symbol(std::string name, std::vector<std::pair<std::string, bool>> assumptions);
  static Expr infinity(bool negative = false);
  static Expr boolean(bool value);
  static Expr floordiv(Expr a, Expr b);
  static Expr mod(Expr a, Expr b);
  static Expr max(Expr a, Expr b);
  static Expr min(Expr a, Expr b);
  static Expr pow(Expr base, int64_t exponent);
  static Expr eq(Expr a, Expr b);
  static Expr ne(Expr a, Expr b);
  static Expr lt(Expr a, Expr b);
  static Expr le(Expr a, Expr b);
  static Expr gt(Expr a, Expr b);
  static Expr ge(Expr a, Expr b);
  static Expr logical_and(std::vector<Expr> terms);
  static Expr logical_or(std::vector<Expr> terms);
  static Expr logical_not(Expr a);

  Kind kind() const;
  bool is_integer() const { return kind() == Kind::Integer; }
  bool is_symbol() const { return kind() == Kind::Symbol; }
  bool is_boolean() const;
  /// The constant value, if this is an Integer.
  std::optional<int64_t> as_integer() const;
  /// The name, if this is a Symbol.
  const std::string& symbol_name() const;
  /// Operands (terms of Add, factors of Mul incl. a leading coefficient, args of functions).
  const std::vector<Expr>& args() const;

  /// Free symbols, sorted by name.
  std::vector<std::string> free_symbols() const;

  /// Replace symbols by expressions and re-canonicalize.
  Expr substitute(const std::map<std::string, Expr>& replacements) const;
  /// Evaluate with every symbol bound to an integer; nullopt if one is missing.
  std::optional<int64_t> evaluate(const std::map<std::string, int64_t>& values) const;

  /// sympy's str(): the text torch prints in shapes, guards and range constraints.
  std::string str() const;
  /// sympy's srepr(): what torch.export.save writes as `expr_str`.
  std::string srepr() const;
  /// Parse the srepr form (e.g. "Mul(Symbol('s17', positive=True, integer=True), Integer(2))").
  /// Throws std::invalid_argument naming the position on malformed text.
  static Expr parse_srepr(std::string_view text);
  /// Parse the str form ("s0 + 2", "2*s0", "(s0//2)", "Eq(s2, s4)", "int_oo").
  static Expr parse(std::string_view text);

  friend Expr operator+(const Expr& a, const Expr& b);
  friend Expr operator-(const Expr& a, const Expr& b);
  friend Expr operator*(const Expr& a, const Expr& b);
  friend Expr operator-(const Expr& a);

  friend bool operator==(const Expr& a, const Expr& b);
  friend bool operator!=(const Expr& a, const Expr& b) { return !(a == b); }
  /// A total order (sympy's sort key where it matters for printing).
  friend bool operator<(const Expr& a, const Expr& b);
  size_t hash() const;

  const ExprNode* node() const { return node_.get(); }

 private:
  explicit Expr(std::shared_ptr<const ExprNode> node) : node_(std::move(node)) {}
  std::shared_ptr<const ExprNode> node_;
  friend class ExprNode;
  friend struct ExprBuilder;
};

}  // namespace exportlens::symbolic

template <>
struct std::hash<exportlens::symbolic::Expr> {
  size_t operator()(const exportlens::symbolic::Expr& e) const { return e.hash(); }
};
