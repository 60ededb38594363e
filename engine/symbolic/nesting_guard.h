#pragma once
// Bounds the recursion of the recursive-descent readers (srepr, sympy str,
// recorded guards, dynamic_shapes specs): their text comes from files and the
// command line, and 10^5 nested brackets must be an error, not a stack
// overflow. Python's own parser stops at 200 nested parentheses, so nothing
// torch writes or reads is deeper.
namespace exportlens::symbolic {

inline constexpr int kMaxParseNesting = 200;

class NestingGuard {
 public:
  explicit NestingGuard(int& depth) : depth_(depth) { ++depth_; }
  ~NestingGuard() { --depth_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
  bool too_deep() const { return depth_ > kMaxParseNesting; }

 private:
  int& depth_;
};

}  // namespace exportlens::symbolic
