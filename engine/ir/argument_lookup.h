#pragma once
// How a call binds to its schema: an argument passed by position, or by its
// schema name as a keyword. Shape rules, decomposition rules and meta
// inference all read a node's arguments through this.
#include <cstddef>
#include <string_view>
#include <vector>

#include "engine/ir/argument.h"

namespace exportlens::ir {

/// The keyword argument `name`, or nullptr.
const Argument* find_keyword(const std::vector<NamedArgument>& kwargs, std::string_view name);
/// The argument at position `index` when it was passed positionally, else the
/// keyword `name`; nullptr when absent.
const Argument* find_argument(const std::vector<Argument>& args, const std::vector<NamedArgument>& kwargs,
                              size_t index, std::string_view name);

}  // namespace exportlens::ir
