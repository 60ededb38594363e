#include "engine/symbolic/contiguity_probe.h"

#include <algorithm>
#include <functional>

#include "engine/symbolic/solve_memo.h"

namespace exportlens::symbolic {

Strides contiguous_strides(const std::vector<Expr>& sizes) {
  Strides s(sizes.size(), Expr(1));
  for (size_t i = sizes.size(); i-- > 1;) s[i - 1] = s[i] * sizes[i];
  return s;
}

namespace {

/// A dim argument wrapped into [0, rank).
std::optional<size_t> wrap_dim(const std::optional<int64_t>& d, size_t rank) {
  if (!d) return std::nullopt;
  const int64_t w = *d < 0 ? *d + int64_t(rank) : *d;
  if (w < 0 || w >= int64_t(rank)) return std::nullopt;
  return size_t(w);
}

std::optional<int64_t> arg(const std::vector<std::optional<int64_t>>& ints, size_t i, int64_t fallback) {
  return i < ints.size() ? ints[i] : std::optional<int64_t>(fallback);
}

}  // namespace

std::optional<Strides> view_strides(const std::string& op, const std::vector<std::optional<int64_t>>& ints,
                                    const Strides& in, size_t out_rank) {
  Strides out = in;
  if (op == "slice.Tensor") {  // slice(self, dim=0, start, end, step=1): the dim's stride times step
    const auto dim = wrap_dim(arg(ints, 0, 0), in.size());
    const auto step = arg(ints, 3, 1);
    if (!dim || !step) return std::nullopt;
    out[*dim] = out[*dim] * Expr(*step);
  } else if (op == "select.int") {  // select(self, dim, index): the dim goes
    const auto dim = wrap_dim(arg(ints, 0, 0), in.size());
    if (!dim) return std::nullopt;
    out.erase(out.begin() + std::ptrdiff_t(*dim));
  } else if (op == "transpose.int") {
    const auto a = wrap_dim(arg(ints, 0, 0), in.size()), b = wrap_dim(arg(ints, 1, 0), in.size());
    if (!a || !b) return std::nullopt;
    std::swap(out[*a], out[*b]);
  } else if (op == "t.default") {
    if (in.size() == 2) std::swap(out[0], out[1]);
  } else if (op == "alias.default" || op == "detach.default") {
    // same layout
  } else {
    return std::nullopt;
  }
  if (out.size() != out_rank) return std::nullopt;
  return out;
}

namespace {

using K = Expr::Kind;

/// The probes' relations and products, through the program's memo: every
/// re-solve asks about the same kilobyte-long sizes and strides again.
Expr build(ShapeEnv& env, K kind, const Expr& a, const Expr& b) { return built(env.memo(), kind, a, b); }

Expr product(ShapeEnv& env, const std::vector<Expr>& sizes) {
  Expr numel(1);
  for (const Expr& s : sizes) numel = build(env, K::Mul, numel, s);
  return numel;
}

/// check_contiguous_sizes_strides(false_if_dde=True).
bool contiguous(symbolic::ShapeEnv& env, const std::vector<Expr>& sizes, const Strides& strides,
                const symbolic::Provenance& origin) {
  Expr expected(1), expected_max(1);
  for (size_t i = sizes.size(); i-- > 0;) {
    const Expr& x = sizes[i];
    const Expr& y = strides[i];
    if (env.guard_or_false(build(env, K::Eq, x, Expr(1)), origin)) continue;
    if (env.guard_or_true(build(env, K::Ne, y, expected), origin) &&
        env.guard_or_true(build(env, K::Ne, y, expected_max), origin))
      return false;
    expected_max = build(env, K::Mul, expected_max, build(env, K::Max, x, Expr(1)));
    expected = build(env, K::Mul, expected, x);
  }
  return true;
}

/// is_channels_last_contiguous_2d / _3d(false_if_dde=True): dims in `order`.
bool channels_last(symbolic::ShapeEnv& env, const std::vector<Expr>& sizes, const Strides& strides,
                   const std::vector<size_t>& order, const symbolic::Provenance& origin) {
  Expr expected(1);
  for (size_t idx : order) {
    if (env.guard_or_false(build(env, K::Eq, sizes[idx], Expr(1)), origin)) continue;
    if (env.guard_or_true(build(env, K::Ne, strides[idx], expected), origin)) return false;
    expected = build(env, K::Mul, expected, sizes[idx]);
  }
  return true;
}

struct SizeStride {
  Expr size, stride;
};

/// _prims_common.K.__lt__: a < b by stride, decided by guards as torch asks them.
/// A plain int on the left is Python's reflected comparison (`1 < s` asks
/// SymInt.__gt__): the guard reads `s > 1`, as torch's does.
bool stride_less(symbolic::ShapeEnv& env, const SizeStride& a, const SizeStride& b, const symbolic::Provenance& origin) {
  const bool reflected = a.stride.as_integer() && !b.stride.as_integer();
  const auto relation = [&](K kind) {
    return reflected ? build(env, kind == K::Lt ? K::Gt : kind, b.stride, a.stride)
                     : build(env, kind, a.stride, b.stride);
  };
  if (env.guard_or_false(relation(K::Lt), origin)) return true;
  const bool divides = env.guard_or_false(build(env, K::Eq, a.stride, Expr(0)), origin) ||
                       env.guard_or_false(build(env, K::Eq, build(env, K::Mod, b.stride, a.stride), Expr(0)), origin);
  return divides && env.guard_or_true(relation(K::Ne), origin);
}

/// CPython 3.11's list.sort on fewer than 64 items, comparison for comparison:
/// the run at the start (count_run: strictly descending runs are reversed),
/// then binary insertion of the rest (binarysort).
void python_sort(std::vector<SizeStride>& v, const std::function<bool(const SizeStride&, const SizeStride&)>& less) {
  const size_t n = v.size();
  if (n < 2) return;
  size_t run = 2;
  if (less(v[1], v[0])) {
    while (run < n && less(v[run], v[run - 1])) ++run;
    std::reverse(v.begin(), v.begin() + std::ptrdiff_t(run));
  } else {
    while (run < n && !less(v[run], v[run - 1])) ++run;
  }
  for (size_t start = run; start < n; ++start) {
    SizeStride pivot = v[start];
    size_t l = 0, r = start;
    do {
      const size_t p = l + ((r - l) >> 1);
      if (less(pivot, v[p])) r = p;
      else l = p + 1;
    } while (l < r);
    for (size_t i = start; i > l; --i) v[i] = v[i - 1];
    v[l] = std::move(pivot);
  }
}

}  // namespace

bool non_overlapping_and_dense_or_false(symbolic::ShapeEnv& env, const std::vector<Expr>& sizes,
                                        const Strides& strides, const symbolic::Provenance& origin) {
  if (sizes.size() != strides.size()) return false;
  if (env.guard_or_false(build(env, K::Lt, product(env, sizes), Expr(2)), origin)) return true;
  if (sizes.size() == 1) return env.guard_or_false(build(env, K::Eq, strides[0], Expr(1)), origin);
  std::vector<SizeStride> pairs;
  for (size_t i = 0; i < sizes.size(); ++i) pairs.push_back({sizes[i], strides[i]});
  python_sort(pairs, [&](const SizeStride& a, const SizeStride& b) { return stride_less(env, a, b, origin); });
  std::vector<Expr> sorted_sizes;
  Strides sorted_strides;
  for (size_t i = pairs.size(); i-- > 0;) {
    sorted_sizes.push_back(pairs[i].size);
    sorted_strides.push_back(pairs[i].stride);
  }
  return contiguous(env, sorted_sizes, sorted_strides, origin);
}

namespace {

/// Whether `e`'s range alone says it is never 1 / at least `n` (no guard needed).
bool at_least(const symbolic::ShapeEnv& env, const Expr& e, int64_t n) {
  if (auto v = e.as_integer()) return *v >= n;
  const Num lo = env.bound(e).lower;
  return !lo.is_infinite() ? lo.value >= n : lo.infinity > 0;
}

}  // namespace

bool contiguous_probe_is_quiet(const symbolic::ShapeEnv& env, const std::vector<Expr>& sizes) {
  for (const Expr& s : sizes)
    if (!at_least(env, s, 2)) return false;
  return true;
}

void probe_contiguous(symbolic::ShapeEnv& env, const std::vector<Expr>& sizes, const symbolic::Provenance& origin) {
  // What probe_contiguity(sizes, contiguous_strides(sizes)) does, without
  // building the strides: they equal what the check expects by construction,
  // so only `numel < 2` and each `size == 1` can add a guard, and a size whose
  // range already decides it is skipped without building an expression.
  bool numel_decided = false;
  for (const Expr& s : sizes) numel_decided = numel_decided || at_least(env, s, 2);
  for (const Expr& s : sizes) numel_decided = numel_decided && at_least(env, s, 1);
  if (!numel_decided && env.guard_or_false(build(env, K::Lt, product(env, sizes), Expr(2)), origin)) return;
  for (size_t i = sizes.size(); i-- > 0;)
    if (!at_least(env, sizes[i], 2)) env.guard_or_false(build(env, K::Eq, sizes[i], Expr(1)), origin);
}

void probe_contiguity(symbolic::ShapeEnv& env, const std::vector<Expr>& sizes, const Strides& strides,
                      const symbolic::Provenance& origin) {
  if (sizes.size() != strides.size()) return;
  // is_contiguous: numel < 2
  if (env.guard_or_false(build(env, K::Lt, product(env, sizes), Expr(2)), origin)) return;
  if (contiguous(env, sizes, strides, origin)) return;
  if (sizes.size() == 4) channels_last(env, sizes, strides, {1, 3, 2, 0}, origin);
  if (sizes.size() == 5) channels_last(env, sizes, strides, {1, 4, 3, 2, 0}, origin);
}

}  // namespace exportlens::symbolic
