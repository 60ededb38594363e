#pragma once
// Reading torch.save'd values and comparing LibTorch results with the
// oracle's, for suites that link LibTorch. In a QtTest suite, include it
// before any Qt header (Qt's `slots` macro breaks LibTorch's headers).
#include <ATen/ops/allclose.h>
#include <ATen/ops/equal.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace exportlens::testing {

inline std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), {});
}

/// A torch.save'd tuple (inputs.pt, outputs.pt) as its elements; a single value as one.
inline std::vector<c10::IValue> load_tuple(const std::string& path) {
  auto v = torch::jit::pickle_load(read_bytes(path));
  return v.isTuple() ? v.toTupleRef().elements().vec() : std::vector<c10::IValue>{v};
}

struct Tolerance {
  double rtol = 1e-5;
  double atol = 1e-6;
  bool equal_nan = false;
};

/// The tolerance for comparing against an expected tensor of this dtype.
using ToleranceFor = Tolerance (*)(at::ScalarType);
inline Tolerance default_tolerance(at::ScalarType) { return {}; }

/// "" when equal: same dtype and shape, floating values allclose, others equal.
inline std::string compare_tensors(const at::Tensor& got, const at::Tensor& want, const Tolerance& tol) {
  if (got.scalar_type() != want.scalar_type())
    return std::string("dtype ") + c10::toString(got.scalar_type()) + ", torch " + c10::toString(want.scalar_type());
  if (got.sizes() != want.sizes()) return "shape differs";
  const bool close =
      got.is_floating_point() ? at::allclose(got, want, tol.rtol, tol.atol, tol.equal_nan) : at::equal(got, want);
  return close ? "" : "values differ";
}

/// "" when equal: tensors as compare_tensors; ints, bools and strings exactly;
/// floats within the tolerance of a double (NaN equal to NaN only where the
/// tolerance says so); None only to None; tuples and lists element by element
/// (the message names the index). Any other kind is refused, so a value this
/// helper cannot judge fails instead of passing unseen.
inline std::string compare_values(const c10::IValue& got, const c10::IValue& want,
                                  ToleranceFor tolerance = default_tolerance) {
  if (want.isTensor()) {
    if (!got.isTensor()) return "expected a tensor";
    const at::Tensor& w = want.toTensor();
    return compare_tensors(got.toTensor(), w, tolerance(w.scalar_type()));
  }
  if (want.isInt()) return got.isInt() && got.toInt() == want.toInt() ? "" : "int differs";
  if (want.isBool()) return got.isBool() && got.toBool() == want.toBool() ? "" : "bool differs";
  if (want.isNone()) return got.isNone() ? "" : "expected None";
  if (want.isString()) return got.isString() && got.toStringRef() == want.toStringRef() ? "" : "string differs";
  if (want.isDouble()) {
    if (!got.isDouble()) return "expected a float";
    const double g = got.toDouble(), w = want.toDouble();
    const Tolerance tol = tolerance(at::kDouble);
    if (std::isnan(g) || std::isnan(w)) return std::isnan(g) && std::isnan(w) && tol.equal_nan ? "" : "float differs";
    if (std::isinf(w)) return g == w ? "" : "float differs";
    if (std::abs(g - w) <= tol.atol + tol.rtol * std::abs(w)) return "";
    std::ostringstream m;
    m << "float " << g << ", torch " << w;
    return m.str();
  }
  if (want.isTuple() || want.isList()) {
    if (!got.isTuple() && !got.isList()) return "expected a tuple or list";
    const auto ws = want.isTuple() ? want.toTupleRef().elements().vec() : want.toListRef().vec();
    const auto gs = got.isTuple() ? got.toTupleRef().elements().vec() : got.toListRef().vec();
    if (ws.size() != gs.size()) return "length differs";
    for (size_t i = 0; i < ws.size(); ++i)
      if (auto e = compare_values(gs[i], ws[i], tolerance); !e.empty()) return "[" + std::to_string(i) + "] " + e;
    return {};
  }
  return "cannot compare a " + want.tagKind() + " with torch's value";
}

}  // namespace exportlens::testing
