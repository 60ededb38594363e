// Numerics against torch (numerics_cases.py): a real transformer's bf16 drift
// per node equals torch's own run of the same graph in bf16; a planted wrong
// decomposition rule is found at its node; a NaN is traced to the log of a
// negative intermediate; a pt2e-quantized program runs (natively) to torch's
// outputs and, against its float program, each shared node's error is
// torch's and only the nodes the quantization wraps introduce error; values
// recorded by the reference hook pair by name and agree exactly; snapshots,
// Model Explorer node data, and the command's exit codes; rounding read in
// place equals ATen's casts.
#include <ATen/ATen.h>  // LibTorch before Qt (its `slots`)

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <memory>

#include "engine/numerics/data_movement.h"
#include "engine/numerics/node_data_json.h"
#include "engine/numerics/node_pairing.h"
#include "engine/numerics/numerics_run.h"
#include "engine/numerics/tensor_error.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "support/exportlens_process.h"
#include "support/fixtures.h"
#include "numerics/numerics_fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

QString cases() { return numerics_cases(); }
QString corpus(const QString& name, const QString& file) { return corpus_file(name, file); }

std::shared_ptr<const ir::ExportedProgram> load(const QString& path) {
  return std::make_shared<const ir::ExportedProgram>(serde::read_pt2(path.toStdString(), "", runtime::pt2_read_options()));
}

numerics::NumericsRequest same_program(const std::shared_ptr<const ir::ExportedProgram>& p, runtime::Precision b) {
  numerics::NumericsRequest r;
  r.a = {p, "cpu", runtime::Precision::AsExported, "fp32"};
  r.b = {p, "cpu", b, "other"};
  r.pairing = numerics::same_graph(*p);
  return r;
}

// Every figure, bit for bit (NaN equal to NaN).
bool same(const numerics::ErrorStats& x, const numerics::ErrorStats& y) {
  const auto eq = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); };
  return x.elements == y.elements && eq(x.max_abs, y.max_abs) && eq(x.max_rel, y.max_rel) && eq(x.mse, y.mse) &&
         eq(x.snr_db, y.snr_db) && eq(x.cosine, y.cosine) && x.nan_a == y.nan_a && x.inf_a == y.inf_a &&
         x.nan_b == y.nan_b && x.inf_b == y.inf_b && x.beyond_tolerance == y.beyond_tolerance && x.rtol == y.rtol &&
         x.atol == y.atol;
}

}  // namespace

class TestNumerics : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;

 private slots:
  // bf16 against fp32 on transformers' BERT: every node's error is torch's
  // (FX interpreter over ep.module(), module.to(bf16), in the oracle).
  void bf16DriftIsTorchs() {
    const QJsonObject torch = read_json(cases() + "/bf16_real.json");
    auto r = same_program(load(corpus("bert", "program.pt2")), runtime::Precision::BFloat16);
    r.inputs_file = corpus("bert", "inputs.pt").toStdString();
    const numerics::NumericsResult result = numerics::run_numerics(r);
    int compared = 0;
    for (const numerics::NodeNumerics& n : result.report.nodes) {
      const QJsonValue t = torch.value(QString::fromStdString(n.node));
      if (t.isUndefined()) continue;
      QVERIFY2(near_torch(n.total.max_abs, t.toDouble()),
               qPrintable(QString("%1: ours %2, torch %3").arg(QString::fromStdString(n.node)).arg(n.total.max_abs).arg(t.toDouble())));
      ++compared;
    }
    QVERIFY(compared >= 60);
    QCOMPARE(compared, torch.size());
    // bf16 drifts: the outputs are beyond fp32's tolerance but the error starts somewhere.
    QVERIFY(result.report.first_divergent);
    QVERIFY(result.report.first_introducing);
    // The bounded run keeps both runs' values only while they are read.
    QVERIFY(result.report.peak_bytes > 0);
  }

  // What a run proves instead of computing (data movement's introduced and
  // total error, its finiteness) gives the figures computing them gives, to
  // the bit: BERT in bf16 (views, permutes, expands, clones, getitems of
  // splits, weights' transposes) and the NaN case, with and without.
  void shortcutsChangeNoFigure() {
    auto bert = same_program(load(corpus("bert", "program.pt2")), runtime::Precision::BFloat16);
    bert.inputs_file = corpus("bert", "inputs.pt").toStdString();
    auto nan = same_program(load(cases() + "/nan/program.pt2"), runtime::Precision::Float64);
    nan.inputs_file = (cases() + "/nan/inputs.pt").toStdString();
    for (numerics::NumericsRequest r : {bert, nan}) {
      const numerics::NumericsReport proved = numerics::run_numerics(r).report;
      r.shortcuts = false;
      const numerics::NumericsReport computed = numerics::run_numerics(r).report;
      QCOMPARE(proved.nodes.size(), computed.nodes.size());
      int movement = 0;
      for (size_t i = 0; i < proved.nodes.size(); ++i) {
        const numerics::NodeNumerics &x = proved.nodes[i], &y = computed.nodes[i];
        QCOMPARE(x.node, y.node);
        QVERIFY2(same(x.total, y.total), qPrintable(QString::fromStdString(x.node)));
        QCOMPARE(bool(x.introduced), bool(y.introduced));
        if (x.introduced) QVERIFY2(same(*x.introduced, *y.introduced), qPrintable(QString::fromStdString(x.node)));
        QCOMPARE(x.nonfinite_origin_a, y.nonfinite_origin_a);
        QCOMPARE(x.nonfinite_origin_b, y.nonfinite_origin_b);
        const ir::Node* n = r.a.program->graph().find(x.node);
        movement += n && numerics::movement_of(*n) != numerics::Movement::None;
      }
      QCOMPARE(proved.first_divergent, computed.first_divergent);
      QCOMPARE(proved.first_introducing, computed.first_introducing);
      QCOMPARE(proved.first_nonfinite_a, computed.first_nonfinite_a);
      QCOMPARE(proved.first_nonfinite_b, computed.first_nonfinite_b);
      QCOMPARE(proved.notes, computed.notes);
      if (r.b.precision == runtime::Precision::BFloat16) QVERIFY2(movement > 20, qPrintable(QString::number(movement)));
    }
  }

  // The tutorial's doubling conv2d table, planted as if it were a wrong rule:
  // numerics against the program lowered with it finds the conv, and nothing before it.
  // A value against its cast, read with each element rounded where it lies,
  // gives what comparing it with ATen's own cast gives, to the bit: every
  // floating dtype pair, permuted and expanded layouts, NaN, Inf and values
  // beyond half's range.
  void roundingStatsEqualATensCast() {
    at::manual_seed(7);
    at::Tensor base = at::randn({5, 7, 33}, at::kDouble) * 1e3;
    base.index_put_({0, 0, 0}, std::nan(""));
    base.index_put_({1, 2, 3}, INFINITY);
    base.index_put_({2, 3, 4}, 1e6);  // overflows half
    const std::vector<at::ScalarType> dtypes = {at::kDouble, at::kFloat, at::kHalf, at::kBFloat16};
    int checked = 0;
    for (at::ScalarType from : dtypes)
      for (at::ScalarType to : dtypes) {
        const at::Tensor t = base.to(from);
        for (const at::Tensor& laid : {t, t.permute({2, 0, 1}), t.select(1, 2).unsqueeze(1).expand({5, 4, 33})}) {
          const auto fused = numerics::rounding_stats(laid, to);
          const auto cast = numerics::error_stats(laid, laid.to(to));
          QVERIFY(fused && cast);
          QVERIFY2(same(*fused, *cast), qPrintable(QString("%1 -> %2").arg(c10::toString(from), c10::toString(to))));
          ++checked;
        }
      }
    QCOMPARE(checked, 48);
    QVERIFY(!numerics::rounding_stats(at::ones({3}, at::kLong), at::kBFloat16));  // not a floating value
  }

  void plantedWrongRuleIsFound() {
    const auto r = run_exportlens({"numerics", EXPORTLENS_FIXTURES "/decomp_example/program.pt2", "--ir", "core", "--table",
                                   "my_double_conv2d", "--load", EXPORTLENS_CUSTOM_TABLE_MODEL, "--random",
                                   "--json", tmp_.filePath("planted.json")});
    QCOMPARE(r.code, 1);
    const QJsonObject j = read_json(tmp_.filePath("planted.json"));
    QCOMPARE(j["first_divergent"].toString(), QStringLiteral("conv2d"));
    QCOMPARE(j["first_introducing"].toString(), QStringLiteral("conv2d"));
    for (const QJsonValue& v : j["nodes"].toArray()) {
      const QJsonObject n = v.toObject();
      if (n["node"].toString() == "conv2d") {
        QVERIFY(n["introduced"].toObject()["beyond_tolerance"].toBool());
      } else {
        // Everything else, fed the right conv output, lowers exactly.
        QCOMPARE(n["introduced"].toObject()["max_abs"].toDouble(), 0.0);
      }
    }
  }

  // log of a negative intermediate: the first node making NaN from finite inputs, in both runs.
  void nanIsTracedToItsOrigin() {
    const QString expected = read_json(cases() + "/nan/expected.json")["first_nonfinite"].toString();
    QCOMPARE(expected, QStringLiteral("log"));
    auto r = same_program(load(cases() + "/nan/program.pt2"), runtime::Precision::Float64);
    r.inputs_file = (cases() + "/nan/inputs.pt").toStdString();
    const numerics::NumericsResult result = numerics::run_numerics(r);
    QVERIFY(result.report.first_nonfinite_b && result.report.first_nonfinite_a);
    QCOMPARE(QString::fromStdString(result.report.nodes[*result.report.first_nonfinite_b].node), expected);
    QCOMPARE(QString::fromStdString(result.report.nodes[*result.report.first_nonfinite_a].node), expected);
    QVERIFY(result.report.nodes[*result.report.first_nonfinite_b].nonfinite_origin_b);
    const auto cli = run_exportlens({"numerics", cases() + "/nan/program.pt2", "--dtype", "fp64", "--inputs",
                                     cases() + "/nan/inputs.pt"});
    QCOMPARE(cli.code, 1);
    QVERIFY(cli.out.contains("first node turning finite inputs into NaN/Inf: B log (aten.log.default)"));
  }

  // A pt2e-quantized program (torchao's X86 quantizer) runs here to torch's
  // outputs, and against its float program each shared node's error is torch's;
  // the quantize / dequantize pairs are inserted around unchanged ops, so only
  // the ops they wrap introduce error.
  void quantizedAgainstFloat() {
    const QString d = cases() + "/quantized/";
    const QString out = tmp_.filePath("quantized_out.pt");
    const auto run = run_exportlens({"run", d + "quantized.pt2", "--inputs", d + "inputs.pt", "--out", out});
    QVERIFY2(run.code == 0, qPrintable(run.err));
    const auto same = run_python(
        "import sys, torch; ours = torch.load(sys.argv[1]); torch_out = torch.load(sys.argv[2])[1];"
        "ours = ours[0] if isinstance(ours, (tuple, list)) else ours;"
        "print(float((ours - torch_out).abs().max()))",
        {out, d + "outputs.pt"});
    QVERIFY2(same.code == 0, qPrintable(same.err));
    QVERIFY2(same.out.trimmed().toDouble() <= 1e-6, qPrintable(same.out));

    const auto a = load(d + "float.pt2");
    const auto b = load(d + "quantized.pt2");
    numerics::NumericsRequest r;
    r.a = {a, "cpu", runtime::Precision::AsExported, "float"};
    r.b = {b, "cpu", runtime::Precision::AsExported, "quantized"};
    r.pairing = numerics::by_matching(*a, *b);
    r.inputs_file = (d + "inputs.pt").toStdString();
    const numerics::NumericsResult result = numerics::run_numerics(r);
    const QJsonObject expected = read_json(d + "expected.json");
    const QJsonObject shared = expected["shared"].toObject();
    QCOMPARE(int(result.report.nodes.size()), shared.size());
    for (const numerics::NodeNumerics& n : result.report.nodes) {
      const QString name = QString::fromStdString(n.node);
      QVERIFY2(shared.contains(name), qPrintable(name));
      QVERIFY2(near_torch(n.total.max_abs, shared[name].toDouble()), qPrintable(name));
      QVERIFY(n.introduced);
      const bool wrapped = n.op == "aten.conv2d.default" || n.op == "aten.linear.default";
      QVERIFY2(wrapped ? n.introduced->max_abs > 0 : n.introduced->max_abs == 0, qPrintable(name));
    }
    // Every node the quantization inserted is B's alone: not paired.
    for (const QJsonValue& v : expected["inserted"].toArray()) {
      for (const numerics::NodePair& p : r.pairing.pairs) QVERIFY(QString::fromStdString(p.b) != v.toString());
    }
  }

  // Values the reference hook recorded in eager PyTorch pair by node name and,
  // on the same CPU kernels, agree exactly; kept snapshots describe them.
  void referenceValues() {
    const auto p = load(corpus("bert", "program.pt2"));
    numerics::NumericsRequest r;
    r.b = {p, "cpu", runtime::Precision::AsExported, "ExportLens"};
    r.reference = (cases() + "/reference/values.pt").toStdString();
    r.pairing = numerics::by_name(*p, numerics::reference_names(*r.reference));
    r.inputs_file = corpus("bert", "inputs.pt").toStdString();
    QVERIFY(r.pairing.pairs.size() >= 60);
    r.keep = {r.pairing.pairs.front().a, "linear"};
    const numerics::NumericsResult result = numerics::run_numerics(r);
    QCOMPARE(result.report.nodes.size(), r.pairing.pairs.size());
    for (const numerics::NodeNumerics& n : result.report.nodes) QVERIFY2(n.total.exact(), n.node.c_str());
    QVERIFY(result.kept.count("linear"));
    const numerics::SnapshotPair& kept = result.kept.at("linear");
    QCOMPARE(kept.a.sizes, kept.b.sizes);
    QCOMPARE(kept.a.stats.max, kept.b.stats.max);
    QCOMPARE(kept.a.stats.mean, kept.b.stats.mean);
    int64_t binned = 0;
    for (int64_t c : kept.b.histogram) binned += c;
    QCOMPARE(binned, kept.b.numel() - kept.b.stats.nans - kept.b.stats.infs);
    QCOMPARE(int64_t(kept.b.values.size()), kept.b.numel());
    QCOMPARE(kept.difference.stats.abs_max, 0.0);
    const auto worst = numerics::largest_elements(kept.b, 3);
    QCOMPARE(int(worst.size()), 3);
    QCOMPARE(double(std::abs(worst.front().second)), kept.b.stats.abs_max);
  }

  void nodeDataRoundTrip() {
    numerics::NodeData d;
    d.name = "errors";
    d.values = {{"conv2d", 0.5}, {"relu", 0.0}, {"linear", 1.0}};
    d.gradient = {{0, "#000000"}, {1, "#ffffff"}};
    const auto back = numerics::read_node_data(numerics::write_node_data(d), "x.json");
    QCOMPARE(back.size(), size_t(1));
    QCOMPARE(back[0].values, d.values);
    QCOMPARE(back[0].colour_of("relu"), std::string("#000000"));
    QCOMPARE(back[0].colour_of("linear"), std::string("#ffffff"));
    QCOMPARE(back[0].colour_of("conv2d"), std::string("#808080"));
    // A model's data (graph id -> graph data), thresholds, and bad input named.
    const auto model = numerics::read_node_data(
        "{\"main\": {\"results\": {\"a\": {\"value\": 3}}, \"thresholds\": [{\"value\": 5, \"bgColor\": \"red\"}]}}", "m.json");
    QCOMPARE(model.at(0).name, std::string("main"));
    QCOMPARE(model.at(0).colour_of("a"), std::string("red"));
    QVERIFY_THROWS_EXCEPTION(Error, numerics::read_node_data("{\"results\": {\"a\": {\"value\": []}}}", "bad.json"));
    QVERIFY_THROWS_EXCEPTION(Error, numerics::read_node_data("{", "bad.json"));
  }

  void command() {
    const QString prog = EXPORTLENS_FIXTURES "/book_mlp/program.pt2";
    QCOMPARE(run_exportlens({"numerics", prog, "--random"}).code, 2);                         // nothing to compare
    QCOMPARE(run_exportlens({"numerics", prog, "--ir", "core", "--vs", prog, "--random"}).code, 2);
    QCOMPARE(run_exportlens({"numerics", prog, "--dtype", "int3", "--random"}).code, 2);
    const auto same = run_exportlens({"numerics", prog, "--vs", prog, "--random", "--node-data", tmp_.filePath("nd.json")});
    QCOMPARE(same.code, 0);  // a program against itself agrees
    QVERIFY(same.out.contains("first divergent node (beyond tolerance): none"));
    QVERIFY(!numerics::read_node_data(read_text(tmp_.filePath("nd.json")).toStdString(), "nd.json").front().values.empty());
    const auto fp64 = run_exportlens({"numerics", prog, "--dtype", "fp64", "--random", "--top", "2"});
    QCOMPARE(fp64.code, 0);
    QVERIFY(fp64.out.contains("B: float64 on cpu"));
  }
};

QTEST_GUILESS_MAIN(TestNumerics)
#include "test_numerics.moc"
