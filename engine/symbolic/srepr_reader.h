#pragma once
// The one reader of sympy's srepr syntax, Python call syntax as
// torch.export.save writes expressions:
//   Mul(Integer(2), Symbol('s0', positive=True, integer=True)), -oo,
//   StrictGreaterThan(Symbol('zuf0'), Float('0.0', precision=53))
// It reads the text into a tree of terms and gives them no meaning: the
// integer expressions (srepr_parser.cpp) and sympy's str of the rest
// (srepr_text.cpp) are both built on it.
#include <string>
#include <string_view>
#include <vector>

namespace exportlens::symbolic {

struct SreprKeyword;

/// One term of srepr text. Its views point into the text read.
struct SreprTerm {
  enum class Kind {
    Name,     // Add, int_oo, true; `called` when followed by an argument list
    Number,   // 2, -1, 1.5: the text as written, sign included
    String,   // 's0': the text between the quotes as written (escapes kept)
    Negated,  // -oo, -Symbol('x'): args[0] is the operand
  };
  Kind kind = Kind::Name;
  std::string_view text;
  size_t offset = 0;  // where the term starts in the text
  size_t end = 0;     // one past where it ends
  bool called = false;
  std::vector<SreprTerm> args;         // positional arguments
  std::vector<SreprKeyword> keywords;  // key=value arguments (assumptions, precision)

  bool is_call(std::string_view name) const { return kind == Kind::Name && text == name; }
};

struct SreprKeyword {
  std::string_view key;
  size_t offset = 0;  // of the key
  SreprTerm value;
};

/// The term all of `text` spells. Throws TextFailure (text_cursor.h) naming
/// the offset of text that is not srepr, or nests more than kMaxParseNesting
/// levels deep; a tree it returns is no deeper than that.
SreprTerm read_srepr(std::string_view text);

/// A String term's value: its text with backslash escapes resolved.
std::string string_value(const SreprTerm& term);

}  // namespace exportlens::symbolic
