#include "engine/symbolic/srepr_text.h"

#include <stdexcept>

#include "engine/symbolic/srepr_reader.h"
#include "engine/symbolic/text_cursor.h"

namespace exportlens::symbolic {
namespace {

using Term = SreprTerm;

/// sympy's str of a term. The tree is no deeper than read_srepr allows, so
/// neither is this recursion.
class Printer {
 public:
  std::string print(const Term& c) {
    switch (c.kind) {
      case Term::Kind::Number:
      case Term::Kind::String: return std::string(c.text);
      case Term::Kind::Negated: return "-" + operand(c.args[0]);
      case Term::Kind::Name: break;
    }
    const std::string n(c.text);
    if ((n == "Symbol" || n == "Dummy" || n == "Integer" || n == "Float") && !c.args.empty()) return leaf(c.args[0]);
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
      for (const Term& a : c.args) out += (out.empty() ? "" : n == "And" ? " & " : " | ") + parenthesised(a);
      return out;
    }
    if (n == "true" || n == "BooleanTrue") return "True";
    if (n == "false" || n == "BooleanFalse") return "False";
    return c.args.empty() ? n : call(n, c);
  }

 private:
  std::string call(const std::string& name, const Term& c) {
    std::string out = name + "(";
    for (size_t i = 0; i < c.args.size(); ++i) out += (i ? ", " : "") + print(c.args[i]);
    return out + ")";
  }
  std::string add(const Term& c) {
    std::string out;
    for (const Term& a : c.args) {
      const std::string term = print(a);
      if (out.empty()) out = term;
      else if (!term.empty() && term[0] == '-') out += " - " + term.substr(1);
      else out += " + " + term;
    }
    return out;
  }
  std::string mul(const Term& c) {
    std::string out;
    for (const Term& a : c.args) {
      if (out.empty() && a.is_call("Integer") && !a.args.empty() && a.args[0].text == "-1") {
        out = "-";
        continue;
      }
      const std::string factor = a.is_call("Add") ? "(" + print(a) + ")" : print(a);
      out += (out.empty() || out == "-" ? "" : "*") + factor;
    }
    return out;
  }
  /// A symbol's name or a number's digits: the argument as written.
  std::string leaf(const Term& c) {
    return c.kind == Term::Kind::Negated ? print(c) : std::string(c.text);
  }
  std::string operand(const Term& c) {
    return c.is_call("Add") || c.is_call("Mul") ? "(" + print(c) + ")" : print(c);
  }
  std::string parenthesised(const Term& c) {
    const std::string inner = print(c);
    return c.args.size() >= 2 && !c.is_call("Symbol") ? "(" + inner + ")" : inner;
  }
};

}  // namespace

std::string sympy_str_of_srepr(std::string_view srepr) {
  try {
    return Printer().print(read_srepr(srepr));
  } catch (const TextFailure& failure) {
    throw std::invalid_argument("srepr text: at offset " + std::to_string(failure.offset()) + ": " + failure.what());
  }
}

}  // namespace exportlens::symbolic
