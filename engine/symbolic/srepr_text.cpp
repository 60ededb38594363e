#include "engine/symbolic/srepr_text.h"

#include <cctype>
#include <stdexcept>
#include <vector>

#include "engine/symbolic/nesting_guard.h"

namespace exportlens::symbolic {
namespace {

// srepr's call syntax: Name(arg, ..., key=value), 'text', numbers, names.
struct Call {
  std::string name;         // "Add", "Symbol"; for a literal: its text
  bool literal = false;     // a quoted string or a number
  std::vector<Call> args;   // positional only: keywords (positive=True, precision=53) are dropped
};

class Reader {
 public:
  explicit Reader(std::string_view text) : t_(text) {}

  Call read_all() {
    Call c = read();
    space();
    if (i_ != t_.size()) fail("the end of the expression");
    return c;
  }

 private:
  [[noreturn]] void fail(const std::string& expected) const {
    throw std::invalid_argument("srepr text: at offset " + std::to_string(i_) + ": expected " + expected);
  }
  void space() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }

  Call read() {
    NestingGuard guard(depth_);
    if (guard.too_deep()) fail("at most " + std::to_string(kMaxParseNesting) + " levels of nesting");
    space();
    Call c;
    if (i_ < t_.size() && (t_[i_] == '\'' || t_[i_] == '"')) {
      const char quote = t_[i_++];
      const size_t start = i_;
      while (i_ < t_.size() && t_[i_] != quote) ++i_;
      if (i_ >= t_.size()) fail("the end of a string");
      c.name = std::string(t_.substr(start, i_ - start));
      c.literal = true;
      ++i_;
      return c;
    }
    const size_t start = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_' || t_[i_] == '.' ||
                              ((t_[i_] == '-' || t_[i_] == '+') && i_ == start)))
      ++i_;
    if (start == i_) fail("a name or a number");
    c.name = std::string(t_.substr(start, i_ - start));
    c.literal = std::isdigit(static_cast<unsigned char>(c.name.back())) &&
                (std::isdigit(static_cast<unsigned char>(c.name.front())) || c.name.front() == '-' || c.name.front() == '+');
    space();
    if (i_ < t_.size() && t_[i_] == '(') {
      ++i_;
      space();
      while (i_ < t_.size() && t_[i_] != ')') {
        // key=value: a keyword argument (assumptions, precision), not part of the value.
        size_t k = i_;
        while (k < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[k])) || t_[k] == '_')) ++k;
        const bool keyword = k < t_.size() && t_[k] == '=' && k > i_;
        if (keyword) i_ = k + 1;
        Call arg = read();
        if (!keyword) c.args.push_back(std::move(arg));
        space();
        if (i_ < t_.size() && t_[i_] == ',') ++i_;
        else if (i_ < t_.size() && t_[i_] != ')') fail("',' or ')'");
        space();
      }
      if (i_ >= t_.size()) fail("')'");
      ++i_;
    }
    return c;
  }

  std::string_view t_;
  size_t i_ = 0;
  int depth_ = 0;
};

class Printer {
 public:
  std::string print(const Call& c) {
    NestingGuard guard(depth_);
    if (guard.too_deep()) throw std::invalid_argument("srepr text nested too deep");
    const std::string& n = c.name;
    if (c.literal) return n;
    if ((n == "Symbol" || n == "Dummy") && !c.args.empty()) return c.args[0].name;
    if ((n == "Integer" || n == "Float") && !c.args.empty()) return c.args[0].name;
    if (n == "Rational" && c.args.size() == 2) return print(c.args[0]) + "/" + print(c.args[1]);
    if (n == "Add") return add(c);
    if (n == "Mul") return mul(c);
    if (n == "Pow" && c.args.size() == 2) return operand(c.args[0]) + "**" + operand(c.args[1]);
    static const std::pair<const char*, const char*> kRelations[] = {
        {"StrictGreaterThan", " > "}, {"GreaterThan", " >= "}, {"StrictLessThan", " < "}, {"LessThan", " <= "}};
    for (const auto& [name, op] : kRelations)
      if (n == name && c.args.size() == 2) return print(c.args[0]) + op + print(c.args[1]);
    if (n == "Equality") return call("Eq", c);
    if (n == "Unequality") return call("Ne", c);
    if (n == "Not" && c.args.size() == 1) return "~" + parenthesised(c.args[0]);
    if (n == "And" || n == "Or") {
      std::string out;
      for (const Call& a : c.args) out += (out.empty() ? "" : n == "And" ? " & " : " | ") + parenthesised(a);
      return out;
    }
    if (n == "true" || n == "BooleanTrue") return "True";
    if (n == "false" || n == "BooleanFalse") return "False";
    return c.args.empty() ? n : call(n, c);
  }

 private:
  std::string call(const std::string& name, const Call& c) {
    std::string out = name + "(";
    for (size_t i = 0; i < c.args.size(); ++i) out += (i ? ", " : "") + print(c.args[i]);
    return out + ")";
  }
  std::string add(const Call& c) {
    std::string out;
    for (const Call& a : c.args) {
      const std::string term = print(a);
      if (out.empty()) out = term;
      else if (!term.empty() && term[0] == '-') out += " - " + term.substr(1);
      else out += " + " + term;
    }
    return out;
  }
  std::string mul(const Call& c) {
    std::string out;
    for (const Call& a : c.args) {
      if (out.empty() && a.name == "Integer" && !a.args.empty() && a.args[0].name == "-1") {
        out = "-";
        continue;
      }
      const std::string factor = a.name == "Add" ? "(" + print(a) + ")" : print(a);
      out += (out.empty() || out == "-" ? "" : "*") + factor;
    }
    return out;
  }
  std::string operand(const Call& c) {
    return c.name == "Add" || c.name == "Mul" ? "(" + print(c) + ")" : print(c);
  }
  std::string parenthesised(const Call& c) {
    const std::string inner = print(c);
    return c.args.size() >= 2 && c.name != "Symbol" ? "(" + inner + ")" : inner;
  }
  int depth_ = 0;
};

}  // namespace

std::string sympy_str_of_srepr(std::string_view srepr) { return Printer().print(Reader(srepr).read_all()); }

}  // namespace exportlens::symbolic
