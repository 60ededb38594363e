// Numerics against torch (numerics_cases.py): a real transformer's bf16 drift
// per node equals torch's own run of the same graph in bf16; a planted wrong
// decomposition rule is found at its node; a NaN is traced to the log of a
// negative intermediate; a pt2e-quantized program runs (natively) to torch's
// outputs and, against its float program, each shared node's error is
// torch's and only the nodes the quantization wraps introduce error; values
// recorded by the reference hook pair by name and agree exactly; snapshots,
// Model Explorer node data, and the command's exit codes; rounding read in
// place equals ATen's casts.
#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/numerics/data_movement.h"
#include "engine/numerics/node_data_json.h"
#include "engine/numerics/node_pairing.h"
#include "engine/numerics/numerics_run.h"
#include "engine/numerics/tensor_error.h"
#include "engine/passes/ir_levels.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/runtime/run_inputs.h"
#include "engine/serde/pt2_reader.h"
#include "numerics/numerics_fixtures.h"
#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;
using exportlens::testing::corpus_file;
using exportlens::testing::near_torch;
using exportlens::testing::numerics_cases;
using nlohmann::json;

namespace {

// The suite's temporary folder, shared by its tests and removed at exit.
const TempDir& tmp() {
  static const TempDir dir;
  return dir;
}

std::shared_ptr<const ir::ExportedProgram> load(const std::string& path) {
  return std::make_shared<const ir::ExportedProgram>(serde::read_pt2(path, "", runtime::pt2_read_options()));
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

// bf16 against fp32 on transformers' BERT: every node's error is torch's
// (FX interpreter over ep.module(), module.to(bf16), in the oracle).
EL_TEST(bf16DriftIsTorchs) {
  const json torch = as_object(read_json(numerics_cases() + "/bf16_real.json"));
  auto r = same_program(load(corpus_file("bert", "program.pt2")), runtime::Precision::BFloat16);
  r.inputs_file = corpus_file("bert", "inputs.pt");
  const numerics::NumericsResult result = numerics::run_numerics(r);
  int compared = 0;
  for (const numerics::NodeNumerics& n : result.report.nodes) {
    const auto t = torch.find(n.node);
    if (t == torch.end()) continue;
    std::ostringstream why;
    why << n.node << ": ours " << n.total.max_abs << ", torch " << as_double(*t);
    VERIFY_MSG(near_torch(n.total.max_abs, as_double(*t)), why.str());
    ++compared;
  }
  VERIFY(compared >= 60);
  COMPARE(compared, torch.size());
  // bf16 drifts: the outputs are beyond fp32's tolerance but the error starts somewhere.
  VERIFY(result.report.first_divergent);
  VERIFY(result.report.first_introducing);
  // The bounded run keeps both runs' values only while they are read.
  VERIFY(result.report.peak_bytes > 0);
}

// What a run proves instead of computing (data movement's introduced and
// total error, its finiteness) gives the figures computing them gives, to
// the bit: BERT in bf16 (views, permutes, expands, clones, getitems of
// splits, weights' transposes) and the NaN case, with and without.
EL_TEST(shortcutsChangeNoFigure) {
  auto bert = same_program(load(corpus_file("bert", "program.pt2")), runtime::Precision::BFloat16);
  bert.inputs_file = corpus_file("bert", "inputs.pt");
  auto nan = same_program(load(numerics_cases() + "/nan/program.pt2"), runtime::Precision::Float64);
  nan.inputs_file = numerics_cases() + "/nan/inputs.pt";
  for (numerics::NumericsRequest r : {bert, nan}) {
    const numerics::NumericsReport proved = numerics::run_numerics(r).report;
    r.shortcuts = false;
    const numerics::NumericsReport computed = numerics::run_numerics(r).report;
    COMPARE(proved.nodes.size(), computed.nodes.size());
    int movement = 0;
    for (size_t i = 0; i < proved.nodes.size(); ++i) {
      const numerics::NodeNumerics &x = proved.nodes[i], &y = computed.nodes[i];
      COMPARE(x.node, y.node);
      VERIFY_MSG(same(x.total, y.total), x.node);
      COMPARE(bool(x.introduced), bool(y.introduced));
      if (x.introduced) VERIFY_MSG(same(*x.introduced, *y.introduced), x.node);
      COMPARE(x.nonfinite_origin_a, y.nonfinite_origin_a);
      COMPARE(x.nonfinite_origin_b, y.nonfinite_origin_b);
      const ir::Node* n = r.a.program->graph().find(x.node);
      movement += n && numerics::movement_of(*n) != numerics::Movement::None;
    }
    COMPARE(proved.first_divergent, computed.first_divergent);
    COMPARE(proved.first_introducing, computed.first_introducing);
    COMPARE(proved.first_nonfinite_a, computed.first_nonfinite_a);
    COMPARE(proved.first_nonfinite_b, computed.first_nonfinite_b);
    COMPARE(proved.notes, computed.notes);
    if (r.b.precision == runtime::Precision::BFloat16) VERIFY_MSG(movement > 20, std::to_string(movement));
  }
}

// B beside A on one program and device shares A's resolved ops and copies A's
// weights: its runs give what a fresh interpreter's give, bit for bit, and the
// buffers a training-mode run updates (batch norm's running statistics, read
// again by the next run) stay each interpreter's own.
EL_TEST(anotherPrecisionSharesTheSetUp) {
  const auto program = std::make_shared<const ir::ExportedProgram>(
      passes::lower_to(*load(EXPORTLENS_FIXTURES "/decomp_example/program.pt2"), passes::IrLevel::Functional));
  VERIFY(std::any_of(program->signature.outputs.begin(), program->signature.outputs.end(),
                     [](const ir::OutputSpec& o) { return o.kind == ir::OutputKind::BufferMutation; }));
  runtime::RunRequest in;
  in.random_inputs = true;
  in.seed = 3;
  const std::vector<c10::IValue> inputs = runtime::gather_inputs(*program, in);
  const c10::Device cpu(c10::kCPU);
  const auto equal = [](const std::vector<c10::IValue>& x, const std::vector<c10::IValue>& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].isTensor() != y[i].isTensor() || (x[i].isTensor() && !at::equal(x[i].toTensor(), y[i].toTensor())))
        return false;
    return true;
  };
  for (const runtime::Precision precision : {runtime::Precision::AsExported, runtime::Precision::BFloat16}) {
    runtime::Interpreter a(*program, cpu);
    runtime::Interpreter shared(a, precision), fresh(*program, cpu, precision);
    for (int run = 0; run < 2; ++run) VERIFY(equal(shared.run_graph(inputs), fresh.run_graph(inputs)));
    runtime::Interpreter untouched(*program, cpu);
    VERIFY(equal(a.run_graph(inputs), untouched.run_graph(inputs)));  // shared's updates did not reach A's buffers
  }
}

// A value made from another by moving data is read as the same sequence
// (same_sequence) exactly when its pair's statistics are the other's to the
// bit: views, permutes, a split's piece viewed again and permuted, an expand
// repeating nothing, a clone or reshape keeping the row-major order; B's side
// moved alike whatever its own layout. A slice, a repeating expand, or a
// contiguous copy of a permuted value are other sequences, and said to be.
EL_TEST(sameSequenceIsReadAlike) {
  at::manual_seed(11);
  const at::Tensor fused = at::randn({4, 16, 96});  // qkv before its split
  const at::Tensor fused_b = (fused * (1 + 0.01 * at::randn_like(fused))).to(at::kBFloat16).contiguous();
  struct Case {
    std::string what;
    std::function<at::Tensor(const at::Tensor&)> x, y;  // x from the base, y from x (applied to A's and B's alike)
    bool keeps_order, same;
  };
  const auto piece = [](const at::Tensor& t) { return t.split(32, -1)[1]; };
  const auto heads = [piece](const at::Tensor& t) { return piece(t).view({4, 16, 4, 8}); };
  const auto id = [](const at::Tensor& t) { return t; };
  const std::vector<Case> cases = {
      {"view", id, [](const at::Tensor& t) { return t.view({64, 96}); }, true, true},
      {"permute", id, [](const at::Tensor& t) { return t.permute({2, 0, 1}); }, false, true},
      {"piece, viewed", piece, [](const at::Tensor& t) { return t.view({4, 16, 4, 8}); }, true, true},
      {"heads, permuted", heads, [](const at::Tensor& t) { return t.permute({0, 2, 1, 3}); }, false, true},
      {"heads, transposed twice", heads, [](const at::Tensor& t) { return t.permute({0, 2, 1, 3}).transpose(-1, -2); }, false, true},
      {"expand repeating nothing", heads, [](const at::Tensor& t) { return t.permute({0, 2, 1, 3}).expand({4, 4, 16, 8}); }, false, true},
      {"unsqueezed", id, [](const at::Tensor& t) { return t.unsqueeze(1); }, true, true},
      {"clone", id, [](const at::Tensor& t) { return t.clone(); }, true, true},
      {"reshape of a piece (a copy)", piece, [](const at::Tensor& t) { return t.reshape({-1}); }, true, true},
      {"slice", id, [](const at::Tensor& t) { return t.slice(-1, 0, 48); }, false, false},
      {"expand repeating", id, [](const at::Tensor& t) { return t.unsqueeze(0).expand({2, 4, 16, 96}); }, false, false},
      {"contiguous copy of a permute", [heads](const at::Tensor& t) { return heads(t).permute({0, 2, 1, 3}); },
       [](const at::Tensor& t) { return t.clone(at::MemoryFormat::Contiguous); }, true, false},
  };
  for (const Case& c : cases) {
    const at::Tensor xa = c.x(fused), ya = c.y(xa);
    for (const at::Tensor& xb : {c.x(fused_b), c.x(fused_b).contiguous()}) {  // B laid out as A's, or not
      const at::Tensor yb = c.y(xb);
      VERIFY_MSG(numerics::same_sequence(xa, ya, c.keeps_order) == c.same, c.what);
      if (!c.same) continue;
      const auto x_stats = numerics::error_stats(xa, xb), y_stats = numerics::error_stats(ya, yb);
      VERIFY(x_stats && y_stats);
      VERIFY_MSG(same(*x_stats, *y_stats), c.what);
      VERIFY_MSG(same(*numerics::rounding_stats(xa, at::kBFloat16), *numerics::rounding_stats(ya, at::kBFloat16)), c.what);
    }
  }
}

// The tutorial's doubling conv2d table, planted as if it were a wrong rule:
// numerics against the program lowered with it finds the conv, and nothing before it.
// A value against its cast, read with each element rounded where it lies,
// gives what comparing it with ATen's own cast gives, to the bit: every
// floating dtype pair, permuted and expanded layouts, NaN, Inf and values
// beyond half's range; the same when read in the pass comparing it with B's.
EL_TEST(roundingStatsEqualATensCast) {
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
        VERIFY(fused && cast);
        VERIFY_MSG(same(*fused, *cast), std::string(c10::toString(from)) + " -> " + c10::toString(to));
        // Read in the pass that compares it with another value (B's): both figures unchanged.
        const at::Tensor other = laid.to(at::kFloat) + 0.5;
        const auto both = numerics::error_and_rounding_stats(laid, other, to);
        VERIFY(both);
        VERIFY(same(both->first, *numerics::error_stats(laid, other)));
        VERIFY(same(both->second, *cast));
        ++checked;
      }
    }
  COMPARE(checked, 48);
  VERIFY(!numerics::rounding_stats(at::ones({3}, at::kLong), at::kBFloat16));  // not a floating value
}

EL_TEST(plantedWrongRuleIsFound) {
  const auto r = run_exportlens({"numerics", EXPORTLENS_FIXTURES "/decomp_example/program.pt2", "--ir", "core", "--table",
                                 "my_double_conv2d", "--load", EXPORTLENS_CUSTOM_TABLE_MODEL, "--random", "--json",
                                 tmp().file("planted.json")});
  COMPARE(r.code, 1);
  const json j = read_json(tmp().file("planted.json"));
  COMPARE(as_string(field(j, "first_divergent")), std::string("conv2d"));
  COMPARE(as_string(field(j, "first_introducing")), std::string("conv2d"));
  for (const json& n : as_array(field(j, "nodes"))) {
    if (as_string(field(n, "node")) == "conv2d") {
      VERIFY(as_bool(field(field(n, "introduced"), "beyond_tolerance")));
    } else {
      // Everything else, fed the right conv output, lowers exactly.
      COMPARE(as_double(field(field(n, "introduced"), "max_abs")), 0.0);
    }
  }
}

// log of a negative intermediate: the first node making NaN from finite inputs, in both runs.
EL_TEST(nanIsTracedToItsOrigin) {
  const std::string expected = as_string(field(read_json(numerics_cases() + "/nan/expected.json"), "first_nonfinite"));
  COMPARE(expected, std::string("log"));
  auto r = same_program(load(numerics_cases() + "/nan/program.pt2"), runtime::Precision::Float64);
  r.inputs_file = numerics_cases() + "/nan/inputs.pt";
  const numerics::NumericsResult result = numerics::run_numerics(r);
  VERIFY(result.report.first_nonfinite_b && result.report.first_nonfinite_a);
  COMPARE(result.report.nodes[*result.report.first_nonfinite_b].node, expected);
  COMPARE(result.report.nodes[*result.report.first_nonfinite_a].node, expected);
  VERIFY(result.report.nodes[*result.report.first_nonfinite_b].nonfinite_origin_b);
  const auto cli = run_exportlens({"numerics", numerics_cases() + "/nan/program.pt2", "--dtype", "fp64", "--inputs",
                                   numerics_cases() + "/nan/inputs.pt"});
  COMPARE(cli.code, 1);
  VERIFY(contains(cli.out, "first node turning finite inputs into NaN/Inf: B log (aten.log.default)"));
}

// A pt2e-quantized program (torchao's X86 quantizer) runs here to torch's
// outputs, and against its float program each shared node's error is torch's;
// the quantize / dequantize pairs are inserted around unchanged ops, so only
// the ops they wrap introduce error.
EL_TEST(quantizedAgainstFloat) {
  const std::string d = numerics_cases() + "/quantized/";
  const std::string out = tmp().file("quantized_out.pt");
  const auto run = run_exportlens({"run", d + "quantized.pt2", "--inputs", d + "inputs.pt", "--out", out});
  VERIFY_MSG(run.code == 0, run.err);
  const auto same = run_python(
      "import sys, torch; ours = torch.load(sys.argv[1]); torch_out = torch.load(sys.argv[2])[1];"
      "ours = ours[0] if isinstance(ours, (tuple, list)) else ours;"
      "print(float((ours - torch_out).abs().max()))",
      {out, d + "outputs.pt"});
  VERIFY_MSG(same.code == 0, same.err);
  const std::string printed = trimmed(same.out);
  char* end = nullptr;
  const double difference = std::strtod(printed.c_str(), &end);
  VERIFY_MSG(!printed.empty() && *end == '\0' && difference <= 1e-6, same.out);

  const auto a = load(d + "float.pt2");
  const auto b = load(d + "quantized.pt2");
  numerics::NumericsRequest r;
  r.a = {a, "cpu", runtime::Precision::AsExported, "float"};
  r.b = {b, "cpu", runtime::Precision::AsExported, "quantized"};
  r.pairing = numerics::by_matching(*a, *b);
  r.inputs_file = d + "inputs.pt";
  const numerics::NumericsResult result = numerics::run_numerics(r);
  const json expected = read_json(d + "expected.json");
  const json shared = as_object(field(expected, "shared"));
  COMPARE(int(result.report.nodes.size()), shared.size());
  for (const numerics::NodeNumerics& n : result.report.nodes) {
    const std::string& name = n.node;
    VERIFY_MSG(shared.contains(name), name);
    VERIFY_MSG(near_torch(n.total.max_abs, as_double(field(shared, name))), name);
    VERIFY(n.introduced);
    const bool wrapped = n.op == "aten.conv2d.default" || n.op == "aten.linear.default";
    VERIFY_MSG(wrapped ? n.introduced->max_abs > 0 : n.introduced->max_abs == 0, name);
  }
  // Every node the quantization inserted is B's alone: not paired.
  for (const json& v : as_array(field(expected, "inserted"))) {
    for (const numerics::NodePair& p : r.pairing.pairs) VERIFY(p.b != as_string(v));
  }
}

// Values the reference hook recorded in eager PyTorch pair by node name and,
// on the same CPU kernels, agree exactly; kept snapshots describe them.
EL_TEST(referenceValues) {
  const auto p = load(corpus_file("bert", "program.pt2"));
  numerics::NumericsRequest r;
  r.b = {p, "cpu", runtime::Precision::AsExported, "ExportLens"};
  r.reference = numerics_cases() + "/reference/values.pt";
  r.pairing = numerics::by_name(*p, numerics::reference_names(*r.reference));
  r.inputs_file = corpus_file("bert", "inputs.pt");
  VERIFY(r.pairing.pairs.size() >= 60);
  r.keep = {r.pairing.pairs.front().a, "linear"};
  const numerics::NumericsResult result = numerics::run_numerics(r);
  COMPARE(result.report.nodes.size(), r.pairing.pairs.size());
  for (const numerics::NodeNumerics& n : result.report.nodes) VERIFY_MSG(n.total.exact(), n.node);
  VERIFY(result.kept.count("linear"));
  const numerics::SnapshotPair& kept = result.kept.at("linear");
  COMPARE(kept.a.sizes, kept.b.sizes);
  COMPARE(kept.a.stats.max, kept.b.stats.max);
  COMPARE(kept.a.stats.mean, kept.b.stats.mean);
  int64_t binned = 0;
  for (int64_t c : kept.b.histogram) binned += c;
  COMPARE(binned, kept.b.numel() - kept.b.stats.nans - kept.b.stats.infs);
  COMPARE(int64_t(kept.b.values.size()), kept.b.numel());
  COMPARE(kept.difference.stats.abs_max, 0.0);
  const auto worst = numerics::largest_elements(kept.b, 3);
  COMPARE(int(worst.size()), 3);
  COMPARE(double(std::abs(worst.front().second)), kept.b.stats.abs_max);
}

EL_TEST(nodeDataRoundTrip) {
  numerics::NodeData d;
  d.name = "errors";
  d.values = {{"conv2d", 0.5}, {"relu", 0.0}, {"linear", 1.0}};
  d.gradient = {{0, "#000000"}, {1, "#ffffff"}};
  const auto back = numerics::read_node_data(numerics::write_node_data(d), "x.json");
  COMPARE(back.size(), size_t(1));
  COMPARE(back[0].values, d.values);
  COMPARE(back[0].colour_of("relu"), std::string("#000000"));
  COMPARE(back[0].colour_of("linear"), std::string("#ffffff"));
  COMPARE(back[0].colour_of("conv2d"), std::string("#808080"));
  // A model's data (graph id -> graph data), thresholds, and bad input named.
  const auto model = numerics::read_node_data(
      "{\"main\": {\"results\": {\"a\": {\"value\": 3}}, \"thresholds\": [{\"value\": 5, \"bgColor\": \"red\"}]}}", "m.json");
  COMPARE(model.at(0).name, std::string("main"));
  COMPARE(model.at(0).colour_of("a"), std::string("red"));
  VERIFY_THROWS(Error, numerics::read_node_data("{\"results\": {\"a\": {\"value\": []}}}", "bad.json"));
  VERIFY_THROWS(Error, numerics::read_node_data("{", "bad.json"));
}

EL_TEST(command) {
  const std::string prog = EXPORTLENS_FIXTURES "/book_mlp/program.pt2";
  COMPARE(run_exportlens({"numerics", prog, "--random"}).code, 2);  // nothing to compare
  COMPARE(run_exportlens({"numerics", prog, "--ir", "core", "--vs", prog, "--random"}).code, 2);
  COMPARE(run_exportlens({"numerics", prog, "--dtype", "int3", "--random"}).code, 2);
  const auto same = run_exportlens({"numerics", prog, "--vs", prog, "--random", "--node-data", tmp().file("nd.json")});
  COMPARE(same.code, 0);  // a program against itself agrees
  VERIFY(contains(same.out, "first divergent node (beyond tolerance): none"));
  VERIFY(!numerics::read_node_data(read_text(tmp().file("nd.json")), "nd.json").front().values.empty());
  const auto fp64 = run_exportlens({"numerics", prog, "--dtype", "fp64", "--random", "--top", "2"});
  COMPARE(fp64.code, 0);
  VERIFY(contains(fp64.out, "B: float64 on cpu"));
}
