#include "app/cli_args.h"

namespace exportlens::app {

ParsedArgs parse_args(const std::vector<std::string>& args, const std::set<std::string>& valued,
                      const std::set<std::string>& known_flags) {
  ParsedArgs out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      out.passthrough.assign(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    if (a.rfind("--", 0) != 0 && !(a.size() == 2 && a[0] == '-' && a != "-")) {
      out.positionals.push_back(a);
      continue;
    }
    std::string name = a, value;
    const auto eq = a.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
    }
    if (valued.count(name)) {
      if (!inline_value) {
        if (i + 1 >= args.size()) throw UsageError("option " + name + " needs a value");
        value = args[++i];
      }
      out.options[name] = value;
      out.repeated[name].push_back(value);
    } else if (known_flags.count(name) && !inline_value) {
      out.flags.insert(name);
    } else {
      throw UsageError("unknown option '" + a + "'");
    }
  }
  return out;
}

}  // namespace exportlens::app
