#pragma once
// The message of a torch._check-style size check, built only if the check
// fails: the text of a windowed model's sizes runs to kilobytes, and almost
// every check passes. Given as text, or as a function that makes it.
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

namespace exportlens::symbolic {

class CheckMessage {
 public:
  CheckMessage() = default;
  CheckMessage(std::string text) : text_(std::move(text)) {}  // NOLINT: text reads as a message
  CheckMessage(const char* text) : text_(text) {}             // NOLINT
  template <typename Make, typename = std::enable_if_t<std::is_invocable_r_v<std::string, Make>>>
  CheckMessage(Make make) : make_(std::move(make)) {}  // NOLINT: a lambda reads as a message

  std::string str() const { return make_ ? make_() : text_; }

 private:
  std::string text_;
  std::function<std::string()> make_;
};

}  // namespace exportlens::symbolic
