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
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <cmath>

#include "engine/runtime/numerics.h"

using namespace exportlens::runtime;

class TestRunNumerics : public QObject {
  Q_OBJECT

 private slots:
  void tolerances_are_torch_testings() {
    QProcess p;
    p.start(EXPORTLENS_PYTHON, {"-c",
                                "import json, torch\n"
                                "from torch.testing._comparison import default_tolerances as d\n"
                                "names = ['float16', 'bfloat16', 'float32', 'float64', 'complex64', 'complex128', 'int64', 'bool']\n"
                                "print(json.dumps({n: d(getattr(torch, n)) for n in names}))\n"});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    const QJsonObject torch = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    const std::pair<const char*, c10::ScalarType> dtypes[] = {
        {"float16", c10::kHalf},          {"bfloat16", c10::kBFloat16},       {"float32", c10::kFloat},
        {"float64", c10::kDouble},        {"complex64", c10::kComplexFloat}, {"complex128", c10::kComplexDouble},
        {"int64", c10::kLong},            {"bool", c10::kBool}};
    for (const auto& [name, dtype] : dtypes) {
      const auto t = default_tolerance(dtype);
      QCOMPARE(t.rtol, torch[name].toArray()[0].toDouble());
      QCOMPARE(t.atol, torch[name].toArray()[1].toDouble());
    }
  }

  void verdict_and_errors_are_torchs_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<double>("noise");
    for (auto [name, dtype] : {std::pair{"float32", c10::kFloat}, {"float64", c10::kDouble}, {"float16", c10::kHalf},
                               {"bfloat16", c10::kBFloat16}})
      for (double noise : {0.0, 1e-7, 1e-5, 1e-3, 1e-1})
        QTest::newRow(qPrintable(QString("%1 noise %2").arg(name).arg(noise))) << int(dtype) << noise;
  }
  void verdict_and_errors_are_torchs() {
    QFETCH(int, dtype);
    QFETCH(double, noise);
    const auto type = static_cast<c10::ScalarType>(dtype);
    at::manual_seed(3);
    const at::Tensor ref = at::randn({64, 33}).to(type);
    const at::Tensor run = (ref.to(at::kDouble) + noise * at::randn({64, 33}, at::kDouble)).to(type);
    const auto c = compare_values("y", run, ref);
    const auto tol = default_tolerance(type);
    QVERIFY(c.mismatch.empty());
    QCOMPARE(c.close, at::allclose(run.to(at::kDouble), ref.to(at::kDouble), tol.rtol, tol.atol, true));
    const at::Tensor diff = (run.to(at::kDouble) - ref.to(at::kDouble)).abs();
    QCOMPARE(c.max_abs, diff.max().item<double>());
    QCOMPARE(c.max_rel, (diff / ref.to(at::kDouble).abs()).max().item<double>());
    QCOMPARE(c.elements, ref.numel());
    QCOMPARE(c.mismatched, diff.gt(tol.atol + tol.rtol * ref.to(at::kDouble).abs()).sum().item<int64_t>());
  }

  void nans_and_infinities_follow_allclose_equal_nan() {
    const at::Tensor ref = at::tensor({1.0f, NAN, INFINITY, -INFINITY, 0.0f});
    QVERIFY(compare_values("same", ref.clone(), ref).close);
    QCOMPARE(compare_values("same", ref.clone(), ref).max_abs, 0.0);
    at::Tensor one_nan = ref.clone();
    one_nan[0] = NAN;
    const auto c = compare_values("nan", one_nan, ref);
    QCOMPARE(c.close, at::allclose(one_nan, ref, 1.3e-6, 1e-5, true));
    QVERIFY(!c.close && std::isnan(c.max_abs) && c.mismatched == 1);
    at::Tensor flipped = ref.clone();
    flipped[2] = -INFINITY;
    QCOMPARE(compare_values("inf", flipped, ref).close, at::allclose(flipped, ref, 1.3e-6, 1e-5, true));
  }

  void mixed_precision_takes_the_looser_tolerance() {
    at::manual_seed(5);
    const at::Tensor ref = at::randn({100});
    const at::Tensor low = ref.to(at::kBFloat16);
    const auto c = compare_values("y", low, ref);
    QCOMPARE(c.tolerance.rtol, 1.6e-2);  // bfloat16's, looser than float32's
    QVERIFY(c.close);
    QCOMPARE(c.close, at::allclose(low.to(at::kFloat), ref, 1.6e-2, 1e-5, true));
  }

  void shapes_kinds_integers_and_tuples() {
    QCOMPARE(compare_values("y", at::zeros({2, 3}), at::zeros({2, 4})).mismatch, std::string("shape [2, 3] vs [2, 4]"));
    QVERIFY(!compare_values("y", at::zeros({2, 3}), at::zeros({2, 4})).close);
    const at::Tensor i = at::arange(10);
    QVERIFY(compare_values("i", i.clone(), i).close);
    at::Tensor j = i.clone();
    j[3] = 4;
    const auto ci = compare_values("i", j, i);
    QVERIFY(!ci.close);  // integers compare exactly
    QCOMPARE(ci.max_abs, 1.0);
    QCOMPARE(ci.mismatched, int64_t(1));
    const c10::IValue a = c10::ivalue::Tuple::create(std::vector<c10::IValue>{at::ones({3}), at::ones({2}) * 2});
    const c10::IValue b = c10::ivalue::Tuple::create(std::vector<c10::IValue>{at::ones({3}), at::ones({2}) * 2.5});
    const auto ct = compare_values("t", a, b);
    QCOMPARE(ct.max_abs, 0.5);  // the worst element of all
    QCOMPARE(ct.elements, int64_t(5));
    QCOMPARE(compare_values("n", c10::IValue(int64_t(3)), c10::IValue(int64_t(3))).close, true);
    QCOMPARE(compare_values("n", c10::IValue(int64_t(3)), c10::IValue(int64_t(4))).close, false);
    QVERIFY(!compare_values("k", c10::IValue(int64_t(3)), at::ones({1})).mismatch.empty());
  }
};

QTEST_MAIN(TestRunNumerics)
#include "test_run_numerics.moc"
