#pragma once
// Where a hand-written reader stands in its text (srepr, recorded guards,
// sympy str): space skipped, tokens and runs taken, nesting bounded, and a
// failure that names its offset. Each reader words a failure its own way
// (srepr "at offset 7", a recorded guard "at column 8"), so the cursor throws
// TextFailure and the reader's entry point turns it into its own message.
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "engine/symbolic/nesting_guard.h"

namespace exportlens::symbolic {

/// What a reader expected or refused at an offset of its text; what() is the
/// problem alone ("expected ')', found 'x'"), without the offset.
class TextFailure : public std::invalid_argument {
 public:
  TextFailure(size_t offset, const std::string& problem) : std::invalid_argument(problem), offset_(offset) {}
  size_t offset() const { return offset_; }

 private:
  size_t offset_;
};

inline bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
inline bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

/// A decimal integer with an optional sign ("-12", "+3"), when all of `text`
/// is one and it fits in 64 bits.
inline std::optional<int64_t> decimal_integer(std::string_view text) {
  if (text.starts_with('+') && text.size() > 1 && text[1] != '-') text.remove_prefix(1);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

/// "expected WHAT, found 'TEXT'": what stands at `offset` (12 characters of
/// it at most), or "end of input".
[[noreturn]] inline void fail_expected(std::string_view text, size_t offset, const std::string& what) {
  const std::string found = offset < text.size() ? "'" + std::string(text.substr(offset, 12)) + "'" : "end of input";
  throw TextFailure(offset, "expected " + what + ", found " + found);
}

class TextCursor {
 public:
  explicit TextCursor(std::string_view text) : text_(text) {}

  std::string_view text() const { return text_; }
  size_t offset() const { return pos_; }
  void move_to(size_t offset) { pos_ = offset; }
  void advance(size_t n = 1) { pos_ += n; }
  bool at_end() const { return pos_ >= text_.size(); }
  /// The character `ahead` places past the cursor, '\0' past the end.
  char peek(size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
  bool looking_at(std::string_view s) const { return text_.substr(pos_).starts_with(s); }

  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  /// Skips space, then takes `token` when it comes next. A token that ends in
  /// a letter is a keyword: it does not take the start of a name ("not" in
  /// "nothing").
  bool eat(std::string_view token) {
    skip_space();
    if (!looking_at(token)) return false;
    if (std::isalpha(static_cast<unsigned char>(token.back())) && is_name_char(peek(token.size()))) return false;
    pos_ += token.size();
    return true;
  }
  /// eat(), or a failure "expected 'TOKEN', found ...".
  void expect(std::string_view token) {
    if (!eat(token)) expected("'" + std::string(token) + "'");
  }
  /// The end of the text, after space: a reader has read all of it.
  void expect_end() {
    skip_space();
    if (!at_end()) expected("end of input");
  }
  /// The run of characters from the cursor that `accept` takes, taken.
  template <class Accept>
  std::string_view take_while(Accept accept) {
    const size_t start = pos_;
    while (!at_end() && accept(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  /// One level deeper into a recursive rule while the guard lives; fails past
  /// kMaxParseNesting levels, so deep brackets are an error, not a stack overflow.
  [[nodiscard]] NestingGuard nest() {
    if (depth_ >= kMaxParseNesting) fail("nested more than " + std::to_string(kMaxParseNesting) + " levels deep");
    return NestingGuard(depth_);
  }

  [[noreturn]] void fail(const std::string& problem) const { throw TextFailure(pos_, problem); }
  [[noreturn]] void expected(const std::string& what) const { fail_expected(text_, pos_, what); }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace exportlens::symbolic
