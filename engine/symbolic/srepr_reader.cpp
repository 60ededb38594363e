#include "engine/symbolic/srepr_reader.h"

#include <optional>

#include "engine/symbolic/text_cursor.h"

namespace exportlens::symbolic {

namespace {

// Names and numbers: sympy writes plain identifiers and decimal digits; the
// dot also lets a qualified name (sympy.Float) or a decimal number through.
bool is_word_char(char c) { return is_name_char(c) || c == '.'; }

class SreprReader {
 public:
  explicit SreprReader(std::string_view text) : in_(text) {}

  SreprTerm read_all() {
    SreprTerm term = read();
    in_.expect_end();
    return term;
  }

 private:
  SreprTerm read() {
    const NestingGuard level = in_.nest();
    in_.skip_space();
    SreprTerm term;
    term.offset = in_.offset();
    const char c = in_.peek();
    if ((c == '-' || c == '+') && is_digit(in_.peek(1))) {  // a signed number, Integer(-1)
      in_.advance();
      in_.take_while(is_word_char);
      term.kind = SreprTerm::Kind::Number;
      term.text = in_.text().substr(term.offset, in_.offset() - term.offset);
    } else if (c == '-') {  // -oo
      in_.advance();
      term.kind = SreprTerm::Kind::Negated;
      term.args.push_back(read());
    } else if (c == '\'' || c == '"') {
      term.kind = SreprTerm::Kind::String;
      term.text = read_string(c);
    } else if (is_word_char(c)) {
      term.kind = is_digit(c) ? SreprTerm::Kind::Number : SreprTerm::Kind::Name;
      term.text = in_.take_while(is_word_char);
      if (term.kind == SreprTerm::Kind::Name && in_.eat("(")) {
        term.called = true;
        read_arguments(term);
      }
    } else {
      in_.expected("an expression");
    }
    term.end = in_.offset();
    return term;
  }

  std::string_view read_string(char quote) {
    in_.advance();
    const size_t start = in_.offset();
    while (!in_.at_end() && in_.peek() != quote) in_.advance(in_.peek() == '\\' ? 2 : 1);
    if (in_.at_end()) {
      in_.move_to(in_.text().size());
      in_.expected(std::string("closing ") + quote);
    }
    in_.advance();
    return in_.text().substr(start, in_.offset() - 1 - start);
  }

  // After "Name(": the arguments, positional or key=value, up to ')'.
  void read_arguments(SreprTerm& call) {
    if (in_.eat(")")) return;
    do {
      if (const auto key_length = keyword_ahead()) {
        SreprKeyword keyword{in_.text().substr(in_.offset(), *key_length), in_.offset(), {}};
        in_.advance(*key_length);
        in_.expect("=");
        keyword.value = read();
        call.keywords.push_back(std::move(keyword));
      } else {
        call.args.push_back(read());
      }
    } while (in_.eat(","));
    in_.expect(")");
  }

  /// The length of the key when a `key=value` argument starts at the cursor.
  std::optional<size_t> keyword_ahead() {
    in_.skip_space();
    size_t length = 0;
    while (is_name_char(in_.peek(length))) ++length;
    if (length == 0 || is_digit(in_.peek())) return std::nullopt;
    size_t after = length;
    while (std::isspace(static_cast<unsigned char>(in_.peek(after)))) ++after;
    if (in_.peek(after) != '=' || in_.peek(after + 1) == '=') return std::nullopt;
    return length;
  }

  TextCursor in_;
};

}  // namespace

SreprTerm read_srepr(std::string_view text) { return SreprReader(text).read_all(); }

std::string string_value(const SreprTerm& term) {
  std::string out;
  out.reserve(term.text.size());
  for (size_t i = 0; i < term.text.size(); ++i) {
    if (term.text[i] == '\\' && i + 1 < term.text.size()) ++i;
    out += term.text[i];
  }
  return out;
}

}  // namespace exportlens::symbolic
