#include "engine/symbolic/python_guard_parser.h"

#include <cctype>
#include <charconv>

#include "engine/symbolic/text_cursor.h"

namespace exportlens::symbolic {

namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : in_(s) {}

  Expr parse() {
    Expr e = or_expr();
    in_.expect_end();
    return e;
  }

 private:
  Expr or_expr() {
    const NestingGuard level = in_.nest();
    std::vector<Expr> terms{and_expr()};
    while (in_.eat("or")) terms.push_back(and_expr());
    return terms.size() == 1 ? terms[0] : Expr::logical_or(terms);
  }
  Expr and_expr() {
    std::vector<Expr> terms{not_expr()};
    while (in_.eat("and")) terms.push_back(not_expr());
    return terms.size() == 1 ? terms[0] : Expr::logical_and(terms);
  }
  Expr not_expr() {
    const NestingGuard level = in_.nest();
    if (in_.eat("not")) return Expr::logical_not(not_expr());
    return comparison();
  }
  Expr comparison() {
    Expr left = arith();
    std::vector<Expr> parts;
    while (true) {
      Expr::Kind k;
      if (in_.eat("==")) k = Expr::Kind::Eq;
      else if (in_.eat("!=")) k = Expr::Kind::Ne;
      else if (in_.eat("<=")) k = Expr::Kind::Le;
      else if (in_.eat(">=")) k = Expr::Kind::Ge;
      else if (in_.eat("<")) k = Expr::Kind::Lt;
      else if (in_.eat(">")) k = Expr::Kind::Gt;
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
      if (in_.eat("+")) e = e + term();
      else if (in_.eat("-")) e = e - term();
      else return e;
    }
  }
  Expr term() {
    Expr e = unary();
    while (true) {
      if (in_.eat("//")) e = Expr::floordiv(e, unary());
      else if (in_.eat("**")) in_.fail("'**' is not supported");
      else if (in_.eat("*")) e = e * unary();
      else if (in_.eat("%")) e = Expr::mod(e, unary());
      else return e;
    }
  }
  Expr unary() {
    const NestingGuard level = in_.nest();
    if (in_.eat("-")) return -unary();
    if (in_.eat("+")) return unary();
    return atom();
  }
  Expr atom() {
    in_.skip_space();
    if (in_.at_end()) in_.fail("unexpected end");
    if (in_.eat("(")) {
      Expr e = or_expr();
      in_.expect(")");
      return e;
    }
    if (is_digit(in_.peek())) {
      const size_t start = in_.offset();
      const auto value = decimal_integer(in_.take_while(is_digit));
      if (!value) {
        in_.move_to(start);
        in_.fail("an integer that does not fit in 64 bits");
      }
      return Expr(*value);
    }
    if (in_.looking_at("L[")) return source();
    if (in_.eat("IntInfinity()")) return Expr::infinity();
    if (in_.eat("NegativeIntInfinity()")) return Expr::infinity(true);
    if (in_.eat("True")) return Expr::boolean(true);
    if (in_.eat("False")) return Expr::boolean(false);
    for (const char* fn : {"max", "min"}) {
      if (in_.eat(fn)) {
        in_.expect("(");
        Expr e = or_expr();
        while (in_.eat(",")) e = std::string(fn) == "max" ? Expr::max(e, or_expr()) : Expr::min(e, or_expr());
        in_.expect(")");
        return e;
      }
    }
    in_.fail("unsupported syntax");
  }
  /// Sizes and strides are non-negative: torch's size symbols are positive
  /// integers, so Python's % reads as Mod (not PythonMod) as it does in torch.
  static Expr size_symbol(std::string_view name) {
    return Expr::symbol(std::string(name), {{"positive", true}, {"integer", true}});
  }

  Expr source() {
    const std::string_view s = in_.text();
    const size_t start = in_.offset();
    size_t p = start + 1;  // 'L'
    // L['x'][0]['a'].field: subscripts and a registered dataclass's fields
    while (p < s.size()) {
      if (s[p] == '[') {
        const size_t close = s.find(']', p);
        if (close == std::string_view::npos) throw TextFailure(p, "unterminated subscript");
        p = close + 1;
        continue;
      }
      if (s[p] != '.' || p + 1 >= s.size() || !(std::isalpha(static_cast<unsigned char>(s[p + 1])) || s[p + 1] == '_'))
        break;
      size_t end = p + 1;
      while (end < s.size() && is_name_char(s[end])) ++end;
      const std::string_view field = s.substr(p + 1, end - p - 1);
      if (end < s.size() && s[end] == '(' && (field == "size" || field == "stride" || field == "storage_offset")) break;
      p = end;
    }
    in_.move_to(p);
    for (const char* prop : {".size()[", ".stride()["}) {
      if (in_.looking_at(prop)) {
        const size_t close = s.find(']', p);
        if (close == std::string_view::npos) throw TextFailure(p, "unterminated index");
        in_.move_to(close + 1);
        return size_symbol(s.substr(start, in_.offset() - start));
      }
    }
    constexpr std::string_view kStorageOffset = ".storage_offset()";
    if (in_.looking_at(kStorageOffset)) in_.advance(kStorageOffset.size());
    return Expr::symbol(std::string(s.substr(start, in_.offset() - start)));
  }

  TextCursor in_;
};

}  // namespace

Expr parse_python_guard(std::string_view text) {
  try {
    return Parser(text).parse();
  } catch (const TextFailure& failure) {
    // A guard from a file can be any length: quote at most 80 characters of it.
    const std::string shown = text.size() <= 80 ? std::string(text) : std::string(text.substr(0, 77)) + "...";
    throw GuardParseError("cannot read recorded guard \"" + shown + "\" at column " +
                          std::to_string(failure.offset() + 1) + ": " + failure.what());
  }
}

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
