#pragma once
// The shape of a program's inputs or outputs as torch's pytree sees it
// (tuples, lists, dicts of leaves), and its text in a .pt2's module call
// graph (torch.utils._pytree.treespec_dumps, protocol 1): ep.module() flattens
// its arguments and rebuilds its results by these.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exportlens::ir {

struct PyTreeSpec {
  /// Custom: a class registered with pytree (a dataclass by
  /// torch.export.register_dataclass, under its serialized type name).
  enum class Kind { Leaf, Tuple, List, Dict, Custom };
  Kind kind = Kind::Leaf;
  std::vector<PyTreeSpec> children;
  std::vector<std::string> keys;  // Dict only: one string key per child
  std::string type_name;          // Custom only: the serialized type name ("mymodule.Point")
  std::string context;            // Custom only: the context's JSON text as stored

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

/// treespec_loads(text): the spec a .pt2's module call graph stores (protocol
/// 1). Tuples, lists, dicts with string keys, leaves and registered classes
/// (Custom, their context kept as text); nullopt for anything else (another
/// protocol, a dict keyed by non-strings, a namedtuple or OrderedDict, text
/// that is not JSON) and past 200 levels of nesting.
std::optional<PyTreeSpec> treespec_loads(std::string_view text);

/// A registered dataclass's field names, from its context ([[fields], [none fields]]); empty if not that form.
std::vector<std::string> dataclass_fields(const PyTreeSpec& spec);

}  // namespace exportlens::ir
