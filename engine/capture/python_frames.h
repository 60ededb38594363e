#pragma once
// Python stack frames as torch's trace logs and the capture package record
// them, and which of them are the user's: torch's trace logs leave
// `user_stack` empty in non-strict export, so the user's line is found by
// leaving out torch's own frames (and the standard library's, and the capture
// package's) from the whole stack.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exportlens::capture {

struct PythonFrame {
  std::string file;
  int line = 0;
  std::string function;
  std::string code;  // the source line, as the log or traceback gives it

  /// "model.py:12 in forward".
  std::string location() const;
};

/// Outermost frame first, as Python's traceback prints them.
using PythonStack = std::vector<PythonFrame>;

/// Tells the user's frames from the framework's.
class FrameFilter {
 public:
  FrameFilter() = default;
  /// `torch_dir`: torch's package folder ("…/site-packages/torch"); empty when unknown.
  explicit FrameFilter(std::string torch_dir) : torch_dir_(std::move(torch_dir)) {}

  /// Whether `file` is code of torch, the standard library, the capture
  /// package, or generated ("<frozen runpy>", "<eval_with_key>.3").
  bool is_framework(std::string_view file) const;
  /// The innermost frame of `stack` that is the user's, if any.
  std::optional<PythonFrame> user_frame(const PythonStack& stack) const;
  const std::string& torch_dir() const { return torch_dir_; }

 private:
  std::string torch_dir_;
};

/// torch's package folder as file names in a log or traceback give it away
/// ("/x/site-packages/torch/export/_trace.py" -> "/x/site-packages/torch"); empty when none does.
std::string torch_dir_from(const std::vector<std::string>& files);

}  // namespace exportlens::capture
