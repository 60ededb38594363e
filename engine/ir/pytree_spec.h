#pragma once
// The shape of a program's inputs or outputs as torch's pytree sees it
// (tuples, lists, dicts of leaves), and its text in a .pt2's module call
// graph (torch.utils._pytree.treespec_dumps, protocol 1): ep.module() flattens
// its arguments and rebuilds its results by these.
#include <string>
#include <vector>

namespace exportlens::ir {

struct PyTreeSpec {
  enum class Kind { Leaf, Tuple, List, Dict };
  Kind kind = Kind::Leaf;
  std::vector<PyTreeSpec> children;
  std::vector<std::string> keys;  // Dict only: one string key per child

  static PyTreeSpec leaf() { return {}; }
  static PyTreeSpec tuple(std::vector<PyTreeSpec> children) { return {Kind::Tuple, std::move(children), {}}; }
  static PyTreeSpec list(std::vector<PyTreeSpec> children) { return {Kind::List, std::move(children), {}}; }
  static PyTreeSpec dict(std::vector<std::string> keys, std::vector<PyTreeSpec> children) {
    return {Kind::Dict, std::move(children), std::move(keys)};
  }
  /// A tuple of `n` leaves.
  static PyTreeSpec leaves(size_t n) { return tuple(std::vector<PyTreeSpec>(n)); }
  /// The in_spec of a call with `n` positional leaves and no keyword arguments: ((x0, ..., xn-1), {}).
  static PyTreeSpec positional_args(size_t n) { return tuple({leaves(n), dict({}, {})}); }
};

/// treespec_dumps(spec): "[1, {\"type\": \"builtins.tuple\", \"context\": \"null\", ...}]".
std::string treespec_dumps(const PyTreeSpec& spec);

}  // namespace exportlens::ir
