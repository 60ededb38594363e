// A small evaluator for the subset of Python a dynamic_shapes spec is written
// in: a tokenizer, a recursive-descent expression reader over a few value
// kinds (None, int, str, Dim, derived Dim, Dim hints, tuples, lists, dicts)
// and assignment statements.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <functional>
#include <memory>
#include <set>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/nesting_guard.h"
#include "engine/symbolic/utf8.h"

namespace exportlens::symbolic {

namespace {

// ---- tokens -------------------------------------------------------------------

struct Token {
  enum class Type { Name, Number, String, Op, Newline, End };
  Type type = Type::End;
  std::string text;
  int line = 1, column = 1;
};

// Python refuses source text that is not UTF-8 before it reads a token; so
// does this, so no ill-formed byte reaches a message or a JSON report.
void expect_utf8(std::string_view src) {
  const size_t bad = invalid_utf8_at(src);
  if (bad == std::string_view::npos) return;
  const size_t newline = bad == 0 ? std::string_view::npos : src.rfind('\n', bad - 1);
  const int line = 1 + static_cast<int>(std::count(src.begin(), src.begin() + bad, '\n'));
  const int column = static_cast<int>(bad - (newline == std::string_view::npos ? 0 : newline + 1)) + 1;
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(src[bad]));
  throw SpecError(line, column, std::string("the spec is not valid UTF-8 (byte ") + hex + ")");
}

std::vector<Token> tokenize(std::string_view src) {
  expect_utf8(src);
  std::vector<Token> out;
  int line = 1, col = 1, depth = 0;
  size_t i = 0;
  auto advance = [&](size_t n) {
    for (size_t k = 0; k < n; ++k, ++i) {
      if (src[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  };
  while (i < src.size()) {
    const char c = src[i];
    if (c == '#') {
      while (i < src.size() && src[i] != '\n') advance(1);
      continue;
    }
    if (c == '\\' && i + 1 < src.size() && src[i + 1] == '\n') {
      advance(2);
      continue;
    }
    if (c == '\n') {
      if (depth == 0 && !out.empty() && out.back().type != Token::Type::Newline)
        out.push_back({Token::Type::Newline, "\n", line, col});
      advance(1);
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      advance(1);
      continue;
    }
    Token t;
    t.line = line;
    t.column = col;
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < src.size() && (std::isalnum(static_cast<unsigned char>(src[j])) || src[j] == '_')) ++j;
      t.type = Token::Type::Name;
      t.text = std::string(src.substr(i, j - i));
      // f"..." / r"..." prefixes: reject f-strings clearly, read the others as strings.
      if (j < src.size() && (src[j] == '"' || src[j] == '\'') && t.text.size() == 1 &&
          std::string("fFrRbBuU").find(t.text[0]) != std::string::npos) {
        if (t.text == "f" || t.text == "F")
          throw SpecError(line, col, "f-strings are not supported; write the Dim name out, e.g. Dim(\"dx\")");
        advance(j - i);
        continue;  // the string itself is the next token
      }
      advance(j - i);
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < src.size() && (std::isdigit(static_cast<unsigned char>(src[j])) || src[j] == '_')) ++j;
      if (j < src.size() && (src[j] == '.' || src[j] == 'e' || src[j] == 'E'))
        throw SpecError(line, col, "expected an integer, got a floating-point number");
      t.type = Token::Type::Number;
      for (size_t k = i; k < j; ++k)
        if (src[k] != '_') t.text += src[k];
      advance(j - i);
    } else if (c == '"' || c == '\'') {
      const bool triple = src.substr(i, 3) == std::string(3, c);
      const size_t q = triple ? 3 : 1;
      size_t j = i + q;
      std::string value;
      while (true) {
        if (j >= src.size() || (!triple && src[j] == '\n'))
          throw SpecError(line, col, "unterminated string");
        if (src.substr(j, q) == std::string(q, c)) break;
        if (src[j] == '\\' && j + 1 < src.size()) ++j;
        value += src[j++];
      }
      t.type = Token::Type::String;
      t.text = value;
      advance(j + q - i);
    } else {
      static const std::string ops = "()[]{},:=*+-.";
      if (ops.find(c) == std::string::npos)
        throw SpecError(line, col, std::string("unexpected character '") + c + "'");
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      t.type = Token::Type::Op;
      t.text = std::string(1, c);
      if (c == '*' && i + 1 < src.size() && src[i + 1] == '*')
        throw SpecError(line, col, "'**' is not supported (only A*dim + B)");
      advance(1);
    }
    out.push_back(std::move(t));
  }
  if (!out.empty() && out.back().type != Token::Type::Newline && depth == 0)
    out.push_back({Token::Type::Newline, "\n", line, col});
  out.push_back({Token::Type::End, "", line, col});
  return out;
}

// ---- values ---------------------------------------------------------------------

struct DictEntry;  // a dict's key and value; complete after Value (clang needs that)

struct Value {
  enum class Type { None, Int, Bool, Str, Dim, Derived, Hint, HintFactory, Tuple, List, Dict, DimClass, DimsFn, Module };
  Type type = Type::None;
  int64_t integer = 0;
  std::string text;     // Str; Module path
  DimDecl dim;          // Dim; Derived: the root
  int64_t coeff = 1, offset = 0;  // Derived
  DimSpec hint;         // Hint / HintFactory
  std::vector<Value> items;                        // Tuple / List
  std::vector<DictEntry> entries;                  // Dict
  int line = 0, column = 0;
};

struct DictEntry {
  Value key, value;
};

std::string describe(const Value& v) {
  switch (v.type) {
    case Value::Type::None: return "None";
    case Value::Type::Int: return "an int";
    case Value::Type::Bool: return "a bool";
    case Value::Type::Str: return "a string";
    case Value::Type::Dim: return "a Dim";
    case Value::Type::Derived: return "a derived Dim";
    case Value::Type::Hint:
    case Value::Type::HintFactory: return "a Dim hint";
    case Value::Type::Tuple: return "a tuple";
    case Value::Type::List: return "a list";
    case Value::Type::Dict: return "a dict";
    case Value::Type::DimClass: return "the Dim class";
    case Value::Type::DimsFn: return "the dims function";
    case Value::Type::Module: return "the module " + v.text;
  }
  return "a value";
}

class Evaluator {
 public:
  explicit Evaluator(std::vector<Token> tokens) : toks_(std::move(tokens)) {}

  DynamicShapesSpec run() {
    std::optional<Value> last_expression;
    while (peek().type != Token::Type::End) {
      if (peek().type == Token::Type::Newline) {
        ++pos_;
        continue;
      }
      statement(last_expression);
    }
    if (auto it = vars_.find("dynamic_shapes"); it != vars_.end()) return to_spec(it->second);
    if (last_expression) return to_spec(*last_expression);
    throw SpecError(1, 1, "no spec found: assign it to `dynamic_shapes` or end with the spec expression");
  }

 private:
  // ---- token helpers
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  bool is_op(const char* op, size_t ahead = 0) const {
    return peek(ahead).type == Token::Type::Op && peek(ahead).text == op;
  }
  const Token& next() { return toks_[std::min(pos_++, toks_.size() - 1)]; }
  [[noreturn]] void fail(const Token& t, const std::string& what) const { throw SpecError(t.line, t.column, what); }
  std::string shown(const Token& t) const {
    switch (t.type) {
      case Token::Type::Newline: return "end of line";
      case Token::Type::End: return "end of text";
      default: return "'" + t.text + "'";
    }
  }
  void expect_op(const char* op, const std::string& context) {
    if (!is_op(op)) fail(peek(), "expected '" + std::string(op) + "' " + context + ", got " + shown(peek()));
    ++pos_;
  }

  // ---- statements
  void statement(std::optional<Value>& last_expression) {
    const Token& first = peek();
    if (first.type == Token::Type::Name && (first.text == "import" || first.text == "from")) {
      while (peek().type != Token::Type::Newline && peek().type != Token::Type::End) ++pos_;
      return;
    }
    if (first.type == Token::Type::Name && (first.text == "def" || first.text == "return" || first.text == "for"))
      fail(first, "'" + first.text + "' is not supported: write plain assignments (dx = Dim(\"dx\") ...) and "
                  "`dynamic_shapes = {...}`");
    // Assignment targets: NAME [, NAME]* = ...  or  NAME[expr] = ...
    const size_t start = pos_;
    std::vector<std::string> names;
    bool parenthesized = is_op("(");
    if (parenthesized) ++pos_;
    while (peek().type == Token::Type::Name) {
      names.push_back(peek().text);
      ++pos_;
      if (!is_op(",")) break;
      ++pos_;
    }
    if (parenthesized && is_op(")")) ++pos_;
    if (!names.empty() && is_op("=")) {
      ++pos_;
      Value v = expression();
      end_of_statement();
      assign(names, v, toks_[start]);
      return;
    }
    pos_ = start;
    if (peek().type == Token::Type::Name && is_op("[", 1)) {  // d["w"] = ...
      const Token& target = next();
      ++pos_;
      Value key = expression();
      expect_op("]", "after the key");
      if (is_op("=")) {
        ++pos_;
        Value v = expression();
        end_of_statement();
        item_assign(target, key, v);
        return;
      }
      pos_ = start;
    }
    last_expression = expression();
    end_of_statement();
  }

  void end_of_statement() {
    if (peek().type == Token::Type::Newline) {
      ++pos_;
      return;
    }
    if (peek().type == Token::Type::End) return;
    fail(peek(), "expected the end of the statement, got " + shown(peek()));
  }

  void assign(const std::vector<std::string>& names, const Value& v, const Token& at) {
    if (names.size() == 1) {
      bind(names[0], v);
      return;
    }
    if (v.type != Value::Type::Tuple && v.type != Value::Type::List)
      fail(at, "cannot unpack " + describe(v) + " into " + std::to_string(names.size()) + " names");
    if (v.items.size() != names.size())
      fail(at, "expected " + std::to_string(names.size()) + " values to unpack, got " + std::to_string(v.items.size()));
    for (size_t i = 0; i < names.size(); ++i) bind(names[i], v.items[i]);
  }

  void bind(const std::string& name, const Value& v) {
    vars_[name] = v;
    if (v.type == Value::Type::Dim && !variable_of_.count(v.dim.name)) variable_of_[v.dim.name] = name;
  }

  void item_assign(const Token& target, const Value& key, const Value& v) {
    auto it = vars_.find(target.text);
    if (it == vars_.end()) fail(target, "name '" + target.text + "' is not defined");
    if (it->second.type != Value::Type::Dict) fail(target, "'" + target.text + "' is not a dict");
    for (auto& [k, old] : it->second.entries)
      if (same_key(k, key)) {
        old = v;
        return;
      }
    it->second.entries.push_back({key, v});
  }

  static bool same_key(const Value& a, const Value& b) {
    if (a.type != b.type) return false;
    return a.type == Value::Type::Str ? a.text == b.text : a.integer == b.integer;
  }

  // ---- expressions
  Value expression() { return additive(); }

  Value additive() {
    Value v = multiplicative();
    while (is_op("+") || is_op("-")) {
      const Token& op = next();
      Value rhs = multiplicative();
      v = arithmetic(op, v, rhs);
    }
    return v;
  }

  Value multiplicative() {
    Value v = unary();
    while (is_op("*")) {
      const Token& op = next();
      Value rhs = unary();
      v = arithmetic(op, v, rhs);
    }
    return v;
  }

  // Brackets, calls and unary minus all recurse through here.
  Value unary() {
    const NestingGuard nesting(depth_);
    if (nesting.too_deep()) fail(peek(), "nested more than " + std::to_string(kMaxParseNesting) + " levels deep");
    if (is_op("-")) {
      const Token& op = next();
      Value v = unary();
      if (v.type != Value::Type::Int)
        fail(op, "cannot negate " + describe(v) + " (only increasing linear operations A*dim + B with A > 0)");
      if (__builtin_sub_overflow(int64_t(0), v.integer, &v.integer)) fail(op, "integer overflow");
      return v;
    }
    return postfix();
  }

  Value postfix() {
    Value v = atom();
    while (true) {
      if (is_op(".")) {
        ++pos_;
        if (peek().type != Token::Type::Name) fail(peek(), "expected an attribute name after '.'");
        v = attribute(v, next());
      } else if (is_op("(")) {
        const Token& open = next();
        v = call(v, open);
      } else if (is_op("[")) {
        fail(peek(), "indexing is not supported here");
      } else {
        return v;
      }
    }
  }

  Value atom() {
    const Token& t = next();
    Value v;
    v.line = t.line;
    v.column = t.column;
    switch (t.type) {
      case Token::Type::Number:
        try {
          v.type = Value::Type::Int;
          v.integer = std::stoll(t.text);
        } catch (const std::exception&) {
          fail(t, "integer " + t.text + " is too large");
        }
        return v;
      case Token::Type::String:
        v.type = Value::Type::Str;
        v.text = t.text;
        return v;
      case Token::Type::Name: return name(t);
      case Token::Type::Op:
        if (t.text == "(") return sequence(t, ")", Value::Type::Tuple);
        if (t.text == "[") return sequence(t, "]", Value::Type::List);
        if (t.text == "{") return dict(t);
        break;
      default: break;
    }
    fail(t, "expected a value (None, an int, a Dim, Dim.AUTO/STATIC/DYNAMIC, a tuple or a dict), got " + shown(t));
  }

  Value name(const Token& t) {
    Value v;
    v.line = t.line;
    v.column = t.column;
    if (t.text == "None") return v;
    if (t.text == "True" || t.text == "False") {
      v.type = Value::Type::Bool;
      v.integer = t.text == "True";
      return v;
    }
    if (auto it = vars_.find(t.text); it != vars_.end()) {
      Value found = it->second;
      found.line = t.line;
      found.column = t.column;
      return found;
    }
    if (t.text == "Dim") v.type = Value::Type::DimClass;
    else if (t.text == "dims") v.type = Value::Type::DimsFn;
    else if (t.text == "torch" || t.text == "export") {
      v.type = Value::Type::Module;
      v.text = t.text == "torch" ? "torch" : "torch.export";
    } else {
      // Only an undefined name looks ahead (once, as it fails): the scan is
      // linear, and doing it for every name made long specs quadratic.
      if (const Token* f = comprehension_ahead())
        fail(*f, "comprehensions are not supported; list the dimensions explicitly");
      fail(t, "name '" + t.text + "' is not defined (define Dims before using them, e.g. " + t.text + " = Dim(\"" +
                  t.text + "\"))");
    }
    return v;
  }

  /// A `for` before the enclosing bracket closes: a comprehension.
  const Token* comprehension_ahead() const {
    int depth = 0;
    for (size_t i = pos_; i < toks_.size(); ++i) {
      const Token& t = toks_[i];
      if (t.type == Token::Type::End || (t.type == Token::Type::Newline && depth == 0)) return nullptr;
      if (t.type == Token::Type::Op && (t.text == "(" || t.text == "[" || t.text == "{")) ++depth;
      if (t.type == Token::Type::Op && (t.text == ")" || t.text == "]" || t.text == "}") && --depth < 0) return nullptr;
      if (t.type == Token::Type::Name && t.text == "for") return &t;
    }
    return nullptr;
  }

  Value attribute(const Value& base, const Token& attr) {
    Value v;
    v.line = attr.line;
    v.column = attr.column;
    if (base.type == Value::Type::Module) {
      if (base.text == "torch" && attr.text == "export") {
        v.type = Value::Type::Module;
        v.text = "torch.export";
        return v;
      }
      if (base.text == "torch.export" && attr.text == "Dim") {
        v.type = Value::Type::DimClass;
        return v;
      }
      if (base.text == "torch.export" && attr.text == "dims") {
        v.type = Value::Type::DimsFn;
        return v;
      }
      if (base.text == "torch.export" && attr.text == "dynamic_shapes") {
        v.type = Value::Type::Module;
        v.text = "torch.export";  // torch.export.dynamic_shapes.Dim
        return v;
      }
    }
    if (base.type == Value::Type::DimClass) {
      v.type = Value::Type::HintFactory;
      if (attr.text == "AUTO") v.hint.kind = DimSpec::Kind::Auto;
      else if (attr.text == "DYNAMIC") v.hint.kind = DimSpec::Kind::Dynamic;
      else if (attr.text == "STATIC") v.hint.kind = DimSpec::Kind::Static;
      else fail(attr, "Dim has no attribute '" + attr.text + "' (expected AUTO, DYNAMIC or STATIC)");
      return v;
    }
    fail(attr, describe(base) + " has no attribute '" + attr.text + "'");
  }

  struct CallArgs {
    std::vector<Value> positional;
    std::vector<std::pair<Token, Value>> keyword;
  };

  CallArgs call_args() {
    CallArgs a;
    comma_separated(")", " in the call", [&] {
      if (peek().type == Token::Type::Name && is_op("=", 1)) {
        const Token key = next();
        ++pos_;
        a.keyword.emplace_back(key, expression());
      } else {
        if (!a.keyword.empty()) fail(peek(), "positional argument after a keyword argument");
        a.positional.push_back(expression());
      }
    });
    return a;
  }

  /// Python's comma-separated items up to `close` (taken), a trailing comma
  /// allowed; whether there was one.
  template <class ReadItem>
  bool comma_separated(const char* close, const char* where, ReadItem read_item) {
    bool trailing_comma = false;
    while (!is_op(close)) {
      read_item();
      trailing_comma = is_op(",");
      if (trailing_comma) {
        ++pos_;
        continue;
      }
      if (!is_op(close)) fail(peek(), std::string("expected ',' or '") + close + "'" + where + ", got " + shown(peek()));
    }
    ++pos_;
    return trailing_comma;
  }

  void refuse_comprehension() const {
    if (peek().type == Token::Type::Name && peek().text == "for")
      fail(peek(), "comprehensions are not supported; list the dimensions explicitly");
  }

  static std::optional<int64_t> bound_argument(const Evaluator& self, const Token& key, const Value& v) {
    if (v.type == Value::Type::None) return std::nullopt;
    if (v.type != Value::Type::Int) self.fail(key, key.text + "= expects an int or None, got " + describe(v));
    return v.integer;
  }

  void read_bounds(const CallArgs& a, std::optional<int64_t>& min, std::optional<int64_t>& max,
                   const std::string& what) const {
    for (const auto& [key, v] : a.keyword) {
      if (key.text == "min") min = bound_argument(*this, key, v);
      else if (key.text == "max") max = bound_argument(*this, key, v);
      else if (key.text != "name") fail(key, what + " got an unexpected keyword argument '" + key.text + "'");
    }
  }

  Value call(const Value& fn, const Token& open) {
    CallArgs a = call_args();
    Value v;
    v.line = open.line;
    v.column = open.column;
    if (fn.type == Value::Type::DimClass) {
      std::string dim_name;
      if (!a.positional.empty()) {
        if (a.positional[0].type != Value::Type::Str) fail(open, "Dim(...) expects its name as a string first");
        dim_name = a.positional[0].text;
      }
      for (const auto& [key, kv] : a.keyword)
        if (key.text == "name") {
          if (kv.type != Value::Type::Str) fail(key, "name= expects a string");
          dim_name = kv.text;
        }
      if (dim_name.empty()) fail(open, "Dim(...) needs a name, e.g. Dim(\"dx\", min=2, max=64)");
      if (a.positional.size() > 1) fail(open, "Dim takes min= and max= as keywords only");
      v.type = Value::Type::Dim;
      v.dim.name = dim_name;
      read_bounds(a, v.dim.min, v.dim.max, "Dim()");
      check_dim(v.dim, open);
      declare(v.dim);
      return v;
    }
    if (fn.type == Value::Type::DimsFn) {
      std::optional<int64_t> min, max;
      read_bounds(a, min, max, "dims()");
      v.type = Value::Type::Tuple;
      for (const Value& n : a.positional) {
        if (n.type != Value::Type::Str) fail(open, "dims(...) expects Dim names as strings");
        Value d;
        d.type = Value::Type::Dim;
        d.dim = {n.text, min, max};
        check_dim(d.dim, open);
        declare(d.dim);
        v.items.push_back(d);
      }
      return v;
    }
    if (fn.type == Value::Type::HintFactory) {
      if (!a.positional.empty()) fail(open, "Dim hints take min= and max= as keywords only");
      v.type = Value::Type::Hint;
      v.hint = fn.hint;
      read_bounds(a, v.hint.min, v.hint.max, "Dim hint");
      if (v.hint.min && *v.hint.min < 0) fail(open, "min must be non-negative, got " + std::to_string(*v.hint.min));
      if (v.hint.max && *v.hint.max < 0) fail(open, "max must be non-negative, got " + std::to_string(*v.hint.max));
      if (v.hint.min && v.hint.max && *v.hint.min > *v.hint.max)
        fail(open, "min must be <= max, got min=" + std::to_string(*v.hint.min) + ", max=" + std::to_string(*v.hint.max));
      return v;
    }
    fail(open, describe(fn) + " is not callable");
  }

  void check_dim(const DimDecl& d, const Token& at) const {
    if (!(compare(d.max_value(), Num::integer(d.min_value())) > 0))
      fail(at, "Cannot create Dim with inconsistent min=" + (d.min ? std::to_string(*d.min) : "None") +
                   ", max=" + (d.max ? std::to_string(*d.max) : "None"));
    bool ident = !d.name.empty() && !std::isdigit(static_cast<unsigned char>(d.name[0]));
    for (char c : d.name) ident = ident && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ident) fail(at, "Dim name must be a valid identifier, got " + d.name);
  }

  void declare(const DimDecl& d) {
    auto it = dims_.find(d.name);
    if (it == dims_.end()) {
      dims_.emplace(d.name, d);
      dim_order_.push_back(d.name);
    } else if (!(it->second == d)) {
      conflicts_.push_back(d.name);
    }
  }

  Value sequence(const Token& open, const char* close, Value::Type type) {
    Value v;
    v.type = type;
    v.line = open.line;
    v.column = open.column;
    const bool trailing_comma = comma_separated(close, "", [&] {
      v.items.push_back(expression());
      refuse_comprehension();
    });
    if (type == Value::Type::Tuple && v.items.size() == 1 && !trailing_comma) return v.items[0];  // (x) is x
    return v;
  }

  Value dict(const Token& open) {
    Value v;
    v.type = Value::Type::Dict;
    v.line = open.line;
    v.column = open.column;
    comma_separated("}", "", [&] {
      Value key = expression();
      if (key.type != Value::Type::Str && key.type != Value::Type::Int)
        fail(peek(), "dict keys must be argument names (strings) or dimension indices (ints), got " + describe(key));
      expect_op(":", "after a dict key");
      Value val = expression();
      refuse_comprehension();
      v.entries.push_back({key, val});
    });
    return v;
  }

  Value arithmetic(const Token& op, const Value& a, const Value& b) {
    Value v;
    v.line = a.line;
    v.column = a.column;
    const bool a_int = a.type == Value::Type::Int, b_int = b.type == Value::Type::Int;
    if (a_int && b_int) {
      v.type = Value::Type::Int;
      const bool overflow = op.text == "+"   ? __builtin_add_overflow(a.integer, b.integer, &v.integer)
                            : op.text == "-" ? __builtin_sub_overflow(a.integer, b.integer, &v.integer)
                                             : __builtin_mul_overflow(a.integer, b.integer, &v.integer);
      if (overflow) fail(op, "integer overflow");
      return v;
    }
    const bool a_dim = a.type == Value::Type::Dim || a.type == Value::Type::Derived;
    const bool b_dim = b.type == Value::Type::Dim || b.type == Value::Type::Derived;
    const Value& d = a_dim ? a : b;
    const Value& k = a_dim ? b : a;
    if (!(a_dim ^ b_dim) || k.type != Value::Type::Int)
      fail(op, "unsupported operation " + describe(a) + " " + op.text + " " + describe(b) +
                   " (only increasing linear operations with integer coefficients: A*dim + B)");
    if (op.text == "-" && !a_dim) fail(op, "Attempted to negate " + d.dim.name + ". (Only increasing linear operations with integer coefficients are supported.)");
    v.type = Value::Type::Derived;
    v.dim = d.dim;
    v.coeff = d.type == Value::Type::Derived ? d.coeff : 1;
    v.offset = d.type == Value::Type::Derived ? d.offset : 0;
    if (op.text == "*") {
      if (k.integer <= 0)
        fail(op, "Attempted to multiply " + std::to_string(k.integer) + " with " + d.dim.name +
                     ", where a positive integer was expected. (Only increasing linear operations with integer "
                     "coefficients are supported.)");
      if (__builtin_mul_overflow(v.coeff, k.integer, &v.coeff) || __builtin_mul_overflow(v.offset, k.integer, &v.offset))
        fail(op, "integer overflow in the derived Dim's coefficients");
    } else {
      const bool overflow = op.text == "+" ? __builtin_add_overflow(v.offset, k.integer, &v.offset)
                                           : __builtin_sub_overflow(v.offset, k.integer, &v.offset);
      if (overflow) fail(op, "integer overflow in the derived Dim's offset");
    }
    if (v.coeff == 1 && v.offset == 0) {
      v.type = Value::Type::Dim;  // dx + 0
    }
    return v;
  }

  // ---- to the spec model
  DimSpec to_dim(const Value& v, const std::string& where) const {
    DimSpec d;
    switch (v.type) {
      case Value::Type::None: d.kind = DimSpec::Kind::None; return d;
      case Value::Type::Int:
        d.kind = DimSpec::Kind::Int;
        d.value = v.integer;
        return d;
      case Value::Type::Dim:
        d.kind = DimSpec::Kind::Named;
        d.dim = v.dim.name;
        return d;
      case Value::Type::Derived:
        d.kind = DimSpec::Kind::Derived;
        d.dim = v.dim.name;
        d.coeff = v.coeff;
        d.offset = v.offset;
        return d;
      case Value::Type::Hint:
      case Value::Type::HintFactory: return v.hint;
      default: break;
    }
    throw SpecError(v.line, v.column,
                    "expected None, an int, a Dim, Dim.AUTO, Dim.STATIC, or Dim.DYNAMIC for " + where + ", got " +
                        describe(v));
  }

  static bool is_container(const Value& v) {
    return v.type == Value::Type::Tuple || v.type == Value::Type::List || v.type == Value::Type::Dict;
  }

  // A tuple, list or dict of dimension values is a tensor's dims; one that
  // holds a container (or a dict keyed by strings) is a container of specs
  // for a nested input. Which one a spec needs is decided against the
  // inputs (spec_binding.cpp), which reads a tensor's dims as a container of
  // leaves where the input is a container.
  InputShapeSpec to_input(const Value& v, const std::string& where) const {
    InputShapeSpec in;
    switch (v.type) {
      case Value::Type::None: return in;
      case Value::Type::Tuple:
      case Value::Type::List:
        in.form = v.type == Value::Type::Tuple ? InputShapeSpec::Form::Tuple : InputShapeSpec::Form::List;
        if (std::any_of(v.items.begin(), v.items.end(), is_container)) {
          in.container = true;
          for (size_t i = 0; i < v.items.size(); ++i)
            in.items.emplace_back("", to_input(v.items[i], where + "[" + std::to_string(i) + "]"));
          return in;
        }
        for (size_t i = 0; i < v.items.size(); ++i)
          in.dims.emplace_back(int64_t(i), to_dim(v.items[i], "dimension " + std::to_string(i) + " of " + where));
        return in;
      case Value::Type::Dict: {
        in.form = InputShapeSpec::Form::Dict;
        const bool by_name = std::any_of(v.entries.begin(), v.entries.end(),
                                         [](const DictEntry& e) { return e.key.type == Value::Type::Str; });
        if (by_name) {
          in.container = true;
          for (const auto& [k, val] : v.entries) {
            if (k.type != Value::Type::Str)
              throw SpecError(k.line, k.column, "the keys of " + where + " must all be strings (a dict input's keys) "
                                                "or all ints (a tensor's dimensions), got " + describe(k));
            in.items.emplace_back(k.text, to_input(val, where + "['" + k.text + "']"));
          }
          return in;
        }
        for (const auto& [k, val] : v.entries) {
          if (k.type != Value::Type::Int)
            throw SpecError(k.line, k.column, "the dimensions of " + where + " must be keyed by int index, got " + describe(k));
          in.dims.emplace_back(k.integer, to_dim(val, "dimension " + std::to_string(k.integer) + " of " + where));
        }
        return in;
      }
      case Value::Type::Int:
      case Value::Type::Dim:
      case Value::Type::Derived:
      case Value::Type::Hint:
      case Value::Type::HintFactory:
        in.scalar = to_dim(v, where);  // refused against the inputs, in torch's words
        return in;
      default: break;
    }
    throw SpecError(v.line, v.column,
                    "expected None, a tuple/list of dimensions, a dict mapping indices to dimensions, or a "
                    "tuple/list/dict of such specs for " + where + ", got " + describe(v));
  }

  DynamicShapesSpec to_spec(const Value& v) const {
    DynamicShapesSpec s;
    switch (v.type) {
      case Value::Type::None: break;
      case Value::Type::Dict:
        s.form = DynamicShapesSpec::Form::Dict;
        for (const auto& [k, val] : v.entries) {
          if (k.type != Value::Type::Str)
            throw SpecError(k.line, k.column, "top-level keys must be argument names (strings), got " + describe(k));
          s.inputs.emplace_back(k.text, to_input(val, "input '" + k.text + "'"));
        }
        break;
      case Value::Type::Tuple:
      case Value::Type::List:
        s.form = v.type == Value::Type::Tuple ? DynamicShapesSpec::Form::Tuple : DynamicShapesSpec::Form::List;
        for (size_t i = 0; i < v.items.size(); ++i)
          s.inputs.emplace_back("", to_input(v.items[i], "input #" + std::to_string(i)));
        break;
      default:
        throw SpecError(v.line, v.column,
                        "dynamic_shapes must be None, a dict keyed by argument name, or a tuple by position; got " +
                            describe(v));
    }
    // Keep the Dims this spec uses, in declaration order.
    std::set<std::string> used;
    for (const auto& [name, in] : s.inputs)
      DynamicShapesSpec::for_each_dim(in, [&](const DimSpec& d) {
        if (!d.dim.empty()) used.insert(d.dim);
      });
    const std::set<std::string> conflicting(conflicts_.begin(), conflicts_.end());
    for (const std::string& n : dim_order_) {
      if (!used.count(n)) continue;
      s.dims.emplace(n, dims_.at(n));
      s.dim_order.push_back(n);
      s.variable_of[n] = variable_of_.count(n) ? variable_of_.at(n) : n;
      if (conflicting.count(n)) s.conflicts.push_back(n);
    }
    return s;
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
  std::map<std::string, Value> vars_;
  std::map<std::string, DimDecl> dims_;
  std::vector<std::string> dim_order_;
  std::map<std::string, std::string> variable_of_;
  std::vector<std::string> conflicts_;
};

}  // namespace

DynamicShapesSpec parse_dynamic_shapes(std::string_view text) { return Evaluator(tokenize(text)).run(); }

}  // namespace exportlens::symbolic
