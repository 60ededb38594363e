#pragma once
// Small pieces the rule families (decomp_*.cpp) share. Internal to el_passes.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/save_and_restore.h"
#include "engine/passes/decomposition_table.h"
#include "engine/passes/rewriter.h"

namespace exportlens::passes::detail {

/// [1, 0] as an argument.
inline ir::Argument ints(const std::vector<int64_t>& v) {
  ir::ArgumentList l;
  for (int64_t i : v) l.items.push_back(i);
  return l;
}

/// Python-style dimension wrapping (rank 0 counts as rank 1, as torch's maybe_wrap_dim).
inline int64_t wrap_dim(int64_t d, size_t rank) {
  const int64_t r = rank == 0 ? 1 : int64_t(rank);
  if (d < -r || d >= r)
    throw DecompositionError("dimension " + std::to_string(d) + " out of range for rank " + std::to_string(rank));
  return d < 0 ? d + r : d;
}

inline ir::NamedArgument kw(std::string name, ir::Argument value) { return {std::move(name), std::move(value)}; }

/// The product of sizes[begin, end).
inline ir::SymInt product(const Dims& sizes, size_t begin = 0, size_t end = SIZE_MAX) {
  ir::SymInt p(int64_t{1});
  for (size_t i = begin; i < sizes.size() && i < end; ++i) p = sym_mul(p, sizes[i]);
  return p;
}

/// The example value of a size (rules branch on it as torch's guards do).
inline int64_t hint_of(const Rewriter& b, const ir::SymInt& s) {
  if (auto v = s.example()) return *v;
  if (auto v = b.hints().of(s.expr)) return *v;
  throw DecompositionError("the size " + s.str() + " has no example value to decide on");
}

/// Literal equality of arguments (ints, floats, bools, None, lists of them).
inline bool same_value(const ir::Argument& a, const ir::Argument& b) {
  if (const auto* x = a.list()) {
    const auto* y = b.list();
    if (!y || x->items.size() != y->items.size()) return false;
    for (size_t i = 0; i < x->items.size(); ++i)
      if (!same_value(x->items[i], y->items[i])) return false;
    return true;
  }
  if (a.v.index() != b.v.index()) return false;
  if (auto* i = std::get_if<int64_t>(&a.v)) return *i == std::get<int64_t>(b.v);
  if (auto* d = std::get_if<double>(&a.v)) return *d == std::get<double>(b.v);
  if (auto* t = std::get_if<bool>(&a.v)) return *t == std::get<bool>(b.v);
  if (a.is_none()) return true;
  if (auto* n = std::get_if<ir::Node*>(&a.v)) return *n == std::get<ir::Node*>(b.v);
  return false;
}

/// Trailing arguments (from index `first`) equal to their schema defaults
/// are left out, as torch prints a call a composite kernel made.
inline void drop_trailing_defaults(std::vector<ir::Argument>& args, const std::vector<ir::Argument>& defaults,
                                   size_t first) {
  while (args.size() > first) {
    const size_t d = args.size() - 1 - first;
    if (d >= defaults.size() || !same_value(args.back(), defaults[d])) break;
    args.pop_back();
  }
}

/// torch runs the Python references it wraps in elementwise_type_promotion_wrapper
/// (addcmul, addcdiv, lerp, ...) behind @torch._disable_dynamo, which annotates
/// every node they make at export time with the reference's name; while this
/// lives, the rule's nodes carry the same annotation.
class DynamoDisabledRef {
 public:
  DynamoDisabledRef(Rewriter& b, const std::string& function)
      : json_(R"({"_torchdynamo_disable": true, "_torchdynamo_disable_recursive": true, "_torchdynamo_disable_method": ")" +
              function + "\"}"),
        annotation_(b.scope().annotation, &json_) {}

 private:
  std::string json_;
  SaveAndRestore<const std::string*> annotation_;
};

inline DecompositionRule rule(std::string op, std::string family, std::string reference, DecompositionFn fn) {
  return DecompositionRule{std::move(op), std::move(family), std::move(reference), std::move(fn)};
}

}  // namespace exportlens::passes::detail
