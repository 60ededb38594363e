// The runtime's output comparison against torch's own: the tolerance table
// is torch.testing's (read from the venv's torch), the verdict is
// at::allclose(equal_nan=True) with those tolerances, max |Δ| and max rel
// are torch's reductions, for float16 / bfloat16 / float32 / float64 /
// complex / integer values, NaNs, infinities, mixed precision and tuples.
#include <ATen/Context.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/allclose.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/runtime/numerics.h"
#include "support/unit/process.h"
#include "support/unit/unit.h"

using namespace exportlens::runtime;
using namespace exportlens::unit;

namespace {

struct NoiseRow {
  std::string name;  // "<dtype> noise <noise>"
  c10::ScalarType dtype;
  double noise;
};

}  // namespace

EL_TEST(tolerances_are_torch_testings) {
  const auto p = run_python("import json, torch\n"
                            "from torch.testing._comparison import default_tolerances as d\n"
                            "names = ['float16', 'bfloat16', 'float32', 'float64', 'complex64', 'complex128', 'int64', 'bool']\n"
                            "print(json.dumps({n: d(getattr(torch, n)) for n in names}))\n",
                            {}, 120);
  COMPARE(p.code, 0);
  const nlohmann::json torch = nlohmann::json::parse(p.out);
  const std::pair<const char*, c10::ScalarType> dtypes[] = {
      {"float16", c10::kHalf},          {"bfloat16", c10::kBFloat16},       {"float32", c10::kFloat},
      {"float64", c10::kDouble},        {"complex64", c10::kComplexFloat}, {"complex128", c10::kComplexDouble},
      {"int64", c10::kLong},            {"bool", c10::kBool}};
  for (const auto& [name, dtype] : dtypes) {
    const auto t = default_tolerance(dtype);
    COMPARE(t.rtol, torch.at(name).at(0).get<double>());
    COMPARE(t.atol, torch.at(name).at(1).get<double>());
  }
}

EL_TEST(verdict_and_errors_are_torchs) {
  std::vector<NoiseRow> rows;
  for (auto [name, dtype] : {std::pair{"float32", c10::kFloat}, {"float64", c10::kDouble}, {"float16", c10::kHalf},
                             {"bfloat16", c10::kBFloat16}})
    for (double noise : {0.0, 1e-7, 1e-5, 1e-3, 1e-1}) {
      std::ostringstream row;  // the rows' names: 0, 1e-07, 1e-05, 0.001, 0.1 (%g)
      row << name << " noise " << noise;
      rows.push_back({row.str(), dtype, noise});
    }
  for_each_row(rows, [](const NoiseRow& row) {
    const auto type = row.dtype;
    const double noise = row.noise;
    at::manual_seed(3);
    const at::Tensor ref = at::randn({64, 33}).to(type);
    const at::Tensor run = (ref.to(at::kDouble) + noise * at::randn({64, 33}, at::kDouble)).to(type);
    const auto c = compare_values("y", run, ref);
    const auto tol = default_tolerance(type);
    VERIFY(c.mismatch.empty());
    COMPARE(c.close, at::allclose(run.to(at::kDouble), ref.to(at::kDouble), tol.rtol, tol.atol, true));
    const at::Tensor diff = (run.to(at::kDouble) - ref.to(at::kDouble)).abs();
    COMPARE(c.max_abs, diff.max().item<double>());
    COMPARE(c.max_rel, (diff / ref.to(at::kDouble).abs()).max().item<double>());
    COMPARE(c.elements, ref.numel());
    COMPARE(c.mismatched, diff.gt(tol.atol + tol.rtol * ref.to(at::kDouble).abs()).sum().item<int64_t>());
  });
}

EL_TEST(nans_and_infinities_follow_allclose_equal_nan) {
  const at::Tensor ref = at::tensor({1.0f, NAN, INFINITY, -INFINITY, 0.0f});
  VERIFY(compare_values("same", ref.clone(), ref).close);
  COMPARE(compare_values("same", ref.clone(), ref).max_abs, 0.0);
  at::Tensor one_nan = ref.clone();
  one_nan[0] = NAN;
  const auto c = compare_values("nan", one_nan, ref);
  COMPARE(c.close, at::allclose(one_nan, ref, 1.3e-6, 1e-5, true));
  VERIFY(!c.close && std::isnan(c.max_abs) && c.mismatched == 1);
  at::Tensor flipped = ref.clone();
  flipped[2] = -INFINITY;
  COMPARE(compare_values("inf", flipped, ref).close, at::allclose(flipped, ref, 1.3e-6, 1e-5, true));
}

EL_TEST(mixed_precision_takes_the_looser_tolerance) {
  at::manual_seed(5);
  const at::Tensor ref = at::randn({100});
  const at::Tensor low = ref.to(at::kBFloat16);
  const auto c = compare_values("y", low, ref);
  COMPARE(c.tolerance.rtol, 1.6e-2);  // bfloat16's, looser than float32's
  VERIFY(c.close);
  COMPARE(c.close, at::allclose(low.to(at::kFloat), ref, 1.6e-2, 1e-5, true));
}

EL_TEST(shapes_kinds_integers_and_tuples) {
  COMPARE(compare_values("y", at::zeros({2, 3}), at::zeros({2, 4})).mismatch, std::string("shape [2, 3] vs [2, 4]"));
  VERIFY(!compare_values("y", at::zeros({2, 3}), at::zeros({2, 4})).close);
  const at::Tensor i = at::arange(10);
  VERIFY(compare_values("i", i.clone(), i).close);
  at::Tensor j = i.clone();
  j[3] = 4;
  const auto ci = compare_values("i", j, i);
  VERIFY(!ci.close);  // integers compare exactly
  COMPARE(ci.max_abs, 1.0);
  COMPARE(ci.mismatched, int64_t(1));
  const c10::IValue a = c10::ivalue::Tuple::create(std::vector<c10::IValue>{at::ones({3}), at::ones({2}) * 2});
  const c10::IValue b = c10::ivalue::Tuple::create(std::vector<c10::IValue>{at::ones({3}), at::ones({2}) * 2.5});
  const auto ct = compare_values("t", a, b);
  COMPARE(ct.max_abs, 0.5);  // the worst element of all
  COMPARE(ct.elements, int64_t(5));
  COMPARE(compare_values("n", c10::IValue(int64_t(3)), c10::IValue(int64_t(3))).close, true);
  COMPARE(compare_values("n", c10::IValue(int64_t(3)), c10::IValue(int64_t(4))).close, false);
  VERIFY(!compare_values("k", c10::IValue(int64_t(3)), at::ones({1})).mismatch.empty());
}
