#pragma once
// A tiny argument parser for the CLI: positionals, --flag, --opt VALUE and
// --opt=VALUE, with errors that name the offending argument.
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace exportlens::app {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ParsedArgs {
  std::vector<std::string> positionals;
  std::map<std::string, std::string> options;  // "--out" -> "x.pt" (the last, when given twice)
  std::map<std::string, std::vector<std::string>> repeated;  // every value of an option given more than once
  std::set<std::string> flags;                 // "--random"
  /// Everything after a lone "--", untouched (a script and its own arguments).
  std::vector<std::string> passthrough;

  bool flag(const std::string& f) const { return flags.count(f) != 0; }
  std::optional<std::string> option(const std::string& o) const {
    auto it = options.find(o);
    return it == options.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  /// Every value given for `o`, in order (`--additional-inputs a.pt --additional-inputs b.pt`).
  std::vector<std::string> values(const std::string& o) const {
    auto it = repeated.find(o);
    return it == repeated.end() ? std::vector<std::string>{} : it->second;
  }
};

/// `valued` lists options that take a value; `known_flags` those that do not.
ParsedArgs parse_args(const std::vector<std::string>& args, const std::set<std::string>& valued,
                      const std::set<std::string>& known_flags);

}  // namespace exportlens::app
