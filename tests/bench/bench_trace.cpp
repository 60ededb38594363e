// bench_trace: trace + guard collection by the C++ tracer against
// torch.export of the Python originals, measured in the same run.
//
//   ninja bench_trace && build/tests/bench/bench_trace [--repeat N] [--blocks N]
//
// The C++ side traces every gallery example that ports an oracle fixture and
// a stack of transformer blocks (TransformerStack below, mirrored line for
// line in bench_trace.py); the Python side (bench_trace.py, run through the
// venv's python) times torch.export.export on the originals. Prints per-
// example medians, the totals and the ratio (target: >= 50x).
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "engine/trace/export.h"
#include "engine/trace/gallery/gallery.h"
#include "engine/trace/sdk/exportlens_sdk.h"

namespace el = exportlens::sdk;
using namespace exportlens;

namespace {

constexpr int64_t kDModel = 32, kHeads = 4;

struct Block : torch::nn::Module {
  el::LayerNorm ln1{this, "ln1", kDModel};
  el::Linear qkv{this, "qkv", kDModel, 3 * kDModel};
  el::Linear proj{this, "proj", kDModel, kDModel};
  el::LayerNorm ln2{this, "ln2", kDModel};
  el::Linear fc1{this, "fc1", kDModel, 4 * kDModel};
  el::Linear fc2{this, "fc2", 4 * kDModel, kDModel};

  torch::Tensor forward(torch::Tensor x) {
    const c10::SymInt b = x.sym_size(0), t = x.sym_size(1);
    auto parts = qkv(ln1(x)).split(kDModel, -1);
    auto heads = [&](const torch::Tensor& p) { return p.view_symint({b, t, kHeads, kDModel / kHeads}).transpose(1, 2); };
    auto q = heads(parts[0]), k = heads(parts[1]), v = heads(parts[2]);
    auto att = q.matmul(k.transpose(-2, -1)) * (1.0 / std::sqrt(double(kDModel / kHeads)));
    auto y = att.softmax(-1).matmul(v);
    y = y.transpose(1, 2).reshape_symint({b, t, kDModel});
    x = x + proj(y);
    x = x + fc2(torch::gelu(fc1(ln2(x))));
    return x;
  }
};

struct TransformerStack : torch::nn::Module {
  explicit TransformerStack(int n) {
    for (int i = 0; i < n; ++i) blocks->push_back(std::make_shared<Block>());
  }
  torch::Tensor forward(torch::Tensor x) {
    for (auto& block : *blocks) x = el::call(*block->as<Block>(), x);
    return x;
  }
  torch::nn::ModuleList blocks = register_module("blocks", torch::nn::ModuleList());
};

template <class F>
std::pair<double, trace::ExportResult> timed(F&& f, int repeat) {
  std::vector<double> ms;
  std::optional<trace::ExportResult> last;
  for (int i = 0; i < repeat; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    last.emplace(f());
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], std::move(*last)};
}

nlohmann::json run_python(int repeat, int blocks) {
  const std::string cmd = std::string(EXPORTLENS_PYTHON) + " " + EXPORTLENS_BENCH_SCRIPT + " --repeat " +
                          std::to_string(repeat) + " --blocks " + std::to_string(blocks);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + cmd);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  if (pclose(p) != 0) throw std::runtime_error("the torch side failed: " + cmd);
  return nlohmann::json::parse(out.substr(out.find('{')));
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3, blocks = 40;  // 40 blocks: > 1,000 nodes
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--repeat") repeat = std::stoi(argv[i + 1]);
    if (a == "--blocks") blocks = std::stoi(argv[i + 1]);
  }
  std::cout << "torch.export (Python) on the originals, " << repeat << " runs each ..." << std::endl;
  const nlohmann::json torch_side = run_python(repeat, blocks);

  trace::ExportOptions options;
  std::cout << "\n" << std::left << std::setw(40) << "example" << std::right << std::setw(12) << "torch ms"
            << std::setw(12) << "C++ ms" << std::setw(10) << "ratio" << "  outcome (torch / C++)\n";
  double torch_total = 0, ours_total = 0;
  // Warm up once (registration of the dispatcher kernels, symbol tables).
  (void)trace::export_model(trace::gallery::examples().front().def, std::nullopt, options);
  for (const auto& e : trace::gallery::examples()) {
    if (e.oracle.empty() || !torch_side["examples"].contains(e.oracle)) continue;
    const auto [ms, r] = timed([&] { return trace::export_model(e.def, std::nullopt, options); }, repeat);
    const double torch_ms = torch_side["examples"][e.oracle]["ms"];
    torch_total += torch_ms;
    ours_total += ms;
    std::cout << std::left << std::setw(40) << e.def.name << std::right << std::fixed << std::setprecision(2)
              << std::setw(12) << torch_ms << std::setw(12) << ms << std::setw(9) << torch_ms / ms << "x  "
              << torch_side["examples"][e.oracle]["status"].get<std::string>() << " / "
              << (r.ok() ? "ok" : r.report.error_kind) << "\n";
  }
  std::cout << std::left << std::setw(40) << "seed examples, total" << std::right << std::setw(12) << torch_total
            << std::setw(12) << ours_total << std::setw(9) << torch_total / ours_total << "x\n";

  torch::manual_seed(0);
  auto stack = std::make_shared<TransformerStack>(blocks);
  const std::vector<c10::IValue> x = {torch::randn({2, 16, kDModel})};
  const trace::ForwardFn forward = [&](const std::vector<c10::IValue>& in) { return c10::IValue(stack->forward(in[0].toTensor())); };
  const std::string spec = "dynamic_shapes = {'x': (Dim.AUTO, Dim.AUTO, None)}";
  const auto [ms, r] = timed([&] { return trace::export_module(*stack, forward, {"x"}, x, spec, options); }, repeat);
  if (!r.ok()) {
    std::cerr << "the transformer stack failed to trace: " << r.error_type << ": " << r.report.message << "\n";
    return 1;
  }
  size_t nodes = 0;
  for (const auto* n : r.program->graph().nodes()) nodes += n->op == ir::OpKind::CallFunction;
  const double torch_ms = torch_side["transformer"]["ms"];
  std::cout << std::left << std::setw(40) << ("transformer, " + std::to_string(blocks) + " blocks") << std::right
            << std::setw(12) << torch_ms << std::setw(12) << ms << std::setw(9) << torch_ms / ms << "x  "
            << torch_side["transformer"]["nodes"].get<int>() << " / " << nodes << " nodes, " << r.report.guards.size()
            << " guards\n";
  std::cout << "\nratio (torch.export / C++ tracer): seed examples " << std::setprecision(1) << torch_total / ours_total
            << "x, transformer " << torch_ms / ms << "x (target >= 50x)\n";
  return 0;
}
