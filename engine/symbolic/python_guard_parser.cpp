#include "engine/symbolic/python_guard_parser.h"

#include <cctype>
#include <charconv>

#include "engine/symbolic/nesting_guard.h"

namespace exportlens::symbolic {

namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  Expr parse() {
    Expr e = or_expr();
    skip();
    if (p_ != s_.size()) fail("unexpected text");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    // A guard from a file can be any length: quote at most 80 characters of it.
    const std::string shown = s_.size() <= 80 ? std::string(s_) : std::string(s_.substr(0, 77)) + "...";
    throw GuardParseError("cannot read recorded guard \"" + shown + "\" at column " + std::to_string(p_ + 1) + ": " +
                          what);
  }
  void skip() {
    while (p_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[p_]))) ++p_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s_.substr(p_, tok.size()) != tok) return false;
    // Keywords must not run into an identifier.
    if (std::isalpha(static_cast<unsigned char>(tok.back())) && p_ + tok.size() < s_.size() &&
        (std::isalnum(static_cast<unsigned char>(s_[p_ + tok.size()])) || s_[p_ + tok.size()] == '_'))
      return false;
    p_ += tok.size();
    return true;
  }
  void expect(std::string_view tok) {
    if (!eat(tok)) fail("expected '" + std::string(tok) + "'");
  }

  // Parentheses, not and unary minus recurse; each passes through here.
  void check_nesting(const NestingGuard& nesting) const {
    if (nesting.too_deep()) fail("nested more than " + std::to_string(kMaxParseNesting) + " levels deep");
  }

  Expr or_expr() {
    const NestingGuard nesting(depth_);
    check_nesting(nesting);
    std::vector<Expr> terms{and_expr()};
    while (eat("or")) terms.push_back(and_expr());
    return terms.size() == 1 ? terms[0] : Expr::logical_or(terms);
  }
  Expr and_expr() {
    std::vector<Expr> terms{not_expr()};
    while (eat("and")) terms.push_back(not_expr());
    return terms.size() == 1 ? terms[0] : Expr::logical_and(terms);
  }
  Expr not_expr() {
    const NestingGuard nesting(depth_);
    check_nesting(nesting);
    if (eat("not")) return Expr::logical_not(not_expr());
    return comparison();
  }
  Expr comparison() {
    Expr left = arith();
    std::vector<Expr> parts;
    while (true) {
      Expr::Kind k;
      if (eat("==")) k = Expr::Kind::Eq;
      else if (eat("!=")) k = Expr::Kind::Ne;
      else if (eat("<=")) k = Expr::Kind::Le;
      else if (eat(">=")) k = Expr::Kind::Ge;
      else if (eat("<")) k = Expr::Kind::Lt;
      else if (eat(">")) k = Expr::Kind::Gt;
      else break;
      Expr right = arith();
      parts.push_back(relation(k, left, right));
      left = right;
    }
    if (parts.empty()) return left;
    return parts.size() == 1 ? parts[0] : Expr::logical_and(parts);
  }
  static Expr relation(Expr::Kind k, const Expr& a, const Expr& b) {
    switch (k) {
      case Expr::Kind::Eq: return Expr::eq(a, b);
      case Expr::Kind::Ne: return Expr::ne(a, b);
      case Expr::Kind::Le: return Expr::le(a, b);
      case Expr::Kind::Ge: return Expr::ge(a, b);
      case Expr::Kind::Lt: return Expr::lt(a, b);
      default: return Expr::gt(a, b);
    }
  }
  Expr arith() {
    Expr e = term();
    while (true) {
      if (eat("+")) e = e + term();
      else if (eat("-")) e = e - term();
      else return e;
    }
  }
  Expr term() {
    Expr e = unary();
    while (true) {
      if (eat("//")) e = Expr::floordiv(e, unary());
      else if (eat("**")) fail("'**' is not supported");
      else if (eat("*")) e = e * unary();
      else if (eat("%")) e = Expr::mod(e, unary());
      else return e;
    }
  }
  Expr unary() {
    const NestingGuard nesting(depth_);
    check_nesting(nesting);
    if (eat("-")) return -unary();
    if (eat("+")) return unary();
    return atom();
  }
  Expr atom() {
    skip();
    if (p_ >= s_.size()) fail("unexpected end");
    if (eat("(")) {
      Expr e = or_expr();
      expect(")");
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(s_[p_]))) {
      size_t q = p_;
      while (q < s_.size() && std::isdigit(static_cast<unsigned char>(s_[q]))) ++q;
      int64_t v = 0;
      for (size_t k = p_; k < q; ++k)
        if (__builtin_mul_overflow(v, int64_t(10), &v) || __builtin_add_overflow(v, int64_t(s_[k] - '0'), &v))
          fail("an integer that does not fit in 64 bits");
      p_ = q;
      return Expr(v);
    }
    if (s_.substr(p_, 2) == "L[") return source();
    if (eat("IntInfinity()")) return Expr::infinity();
    if (eat("NegativeIntInfinity()")) return Expr::infinity(true);
    if (eat("True")) return Expr::boolean(true);
    if (eat("False")) return Expr::boolean(false);
    for (const char* fn : {"max", "min"}) {
      if (eat(fn)) {
        expect("(");
        Expr e = or_expr();
        while (eat(",")) e = std::string(fn) == "max" ? Expr::max(e, or_expr()) : Expr::min(e, or_expr());
        expect(")");
        return e;
      }
    }
    fail("unsupported syntax");
  }
  /// Sizes and strides are non-negative: torch's size symbols are positive
  /// integers, so Python's % reads as Mod (not PythonMod) as it does in torch.
  static Expr size_symbol(std::string_view name) {
    return Expr::symbol(std::string(name), {{"positive", true}, {"integer", true}});
  }

  Expr source() {
    const size_t start = p_;
    p_ += 1;  // 'L'
    // L['x'][0]['a'].field: subscripts and a registered dataclass's fields
    while (p_ < s_.size()) {
      if (s_[p_] == '[') {
        const size_t close = s_.find(']', p_);
        if (close == std::string_view::npos) fail("unterminated subscript");
        p_ = close + 1;
        continue;
      }
      if (s_[p_] != '.' || p_ + 1 >= s_.size() || !(std::isalpha(static_cast<unsigned char>(s_[p_ + 1])) || s_[p_ + 1] == '_'))
        break;
      size_t end = p_ + 1;
      while (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_')) ++end;
      const std::string_view field = s_.substr(p_ + 1, end - p_ - 1);
      if (end < s_.size() && s_[end] == '(' && (field == "size" || field == "stride" || field == "storage_offset")) break;
      p_ = end;
    }
    for (const char* prop : {".size()[", ".stride()["}) {
      if (s_.substr(p_, std::string_view(prop).size()) == prop) {
        const size_t close = s_.find(']', p_);
        if (close == std::string_view::npos) fail("unterminated index");
        p_ = close + 1;
        return size_symbol(s_.substr(start, p_ - start));
      }
    }
    if (s_.substr(p_, 17) == ".storage_offset()") p_ += 17;
    return Expr::symbol(std::string(s_.substr(start, p_ - start)));
  }

  std::string_view s_;
  size_t p_ = 0;
  int depth_ = 0;
};

}  // namespace

Expr parse_python_guard(std::string_view text) { return Parser(text).parse(); }

bool split_source_name(std::string_view source, SourceName& out) {
  out = {};
  if (source.substr(0, 3) != "L['") return false;
  const size_t end = source.find("']", 3);
  if (end == std::string_view::npos) return false;
  out.argument = std::string(source.substr(3, end - 3));
  size_t p = end + 2;
  while (p < source.size() && source[p] == '[') {
    const size_t close = source.find(']', p);
    if (close == std::string_view::npos) return false;
    std::string item(source.substr(p + 1, close - p - 1));
    if (item.size() >= 2 && item.front() == '\'') item = item.substr(1, item.size() - 2);
    out.path.push_back(item);
    p = close + 1;
  }
  std::string_view rest = source.substr(p);
  if (rest.empty()) return true;
  for (const char* prop : {"size", "stride"}) {
    const std::string prefix = "." + std::string(prop) + "()[";
    if (rest.substr(0, prefix.size()) == prefix && rest.back() == ']') {
      // The index comes from a file's guards: anything but an int in range is no source name.
      const std::string_view digits = rest.substr(prefix.size(), rest.size() - prefix.size() - 1);
      int index = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
      if (ec != std::errc() || end != digits.data() + digits.size()) return false;
      out.property = prop;
      out.index = index;
      return true;
    }
  }
  if (rest == ".storage_offset()") {
    out.property = "storage_offset";
    return true;
  }
  return false;
}

}  // namespace exportlens::symbolic
