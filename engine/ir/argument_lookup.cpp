#include "engine/ir/argument_lookup.h"

namespace exportlens::ir {

const Argument* find_keyword(const std::vector<NamedArgument>& kwargs, std::string_view name) {
  if (name.empty()) return nullptr;
  for (const auto& kw : kwargs)
    if (kw.name == name) return &kw.value;
  return nullptr;
}

const Argument* find_argument(const std::vector<Argument>& args, const std::vector<NamedArgument>& kwargs,
                              size_t index, std::string_view name) {
  if (index < args.size()) return &args[index];
  return find_keyword(kwargs, name);
}

}  // namespace exportlens::ir
