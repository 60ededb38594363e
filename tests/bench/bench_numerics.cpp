// bench_numerics: a numerics run (A as exported against B in bfloat16, every
// node compared as it is made, the error each node introduces computed too)
// against the two plain runs it stands for, on a >= 10,000-node program (the
// 160-block transformer of bench_browse lowered to Core ATen, or FILE.pt2);
// and the bytes each holds at once, beside torch's own time for the same
// plain runs (ep.module()(*inputs) in fp32 and bf16), in the same run.
//
//   ninja bench_numerics && build/tests/bench/bench_numerics [FILE.pt2] [--repeat N] [--json OUT.json] [--no-torch]
//
// --json writes the numerics report (numerics_json, less its time and bytes),
// so two builds' figures can be compared for exact equality. --no-torch
// leaves torch's runs out (a quick look while working on ExportLens's).
//
// Goals: the numerics run takes at most 1.5x the two plain runs' time
// together; it holds less than 2x what one plain run holds. Exits 2 when one is missed.
#include <ATen/ATen.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/numerics/numerics_run.h"
#include "engine/passes/ir_levels.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/runtime/run_inputs.h"
#include "engine/serde/pt2_reader.h"
#include "tests/bench/bench_timing.h"

using namespace exportlens;

namespace {

// One plain run, stepped so its peak is measured the way the numerics run's is.
uint64_t plain_run(const ir::ExportedProgram& ep, runtime::Precision precision,
                                      const std::vector<c10::IValue>& inputs) {
  runtime::Interpreter interp(ep, c10::Device(c10::kCPU), precision);
  runtime::RunStepper run = interp.start(inputs);
  while (run.step()) run.release();
  return run.peak_bytes();
}

}  // namespace

int main(int argc, char** argv) {
  std::string file = EXPORTLENS_BENCH_DIR "/transformer.pt2";
  int repeat = 9;
  std::string json_out;
  bool with_torch = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--json" && i + 1 < argc) json_out = argv[++i];
    else if (arg == "--no-torch") with_torch = false;
    else file = arg;
  }
  const bool lower = file == EXPORTLENS_BENCH_DIR "/transformer.pt2";
  auto loaded = std::make_shared<ir::ExportedProgram>(serde::read_pt2(file, "", runtime::pt2_read_options()));
  auto program = lower ? std::make_shared<const ir::ExportedProgram>(passes::lower_to(*loaded, passes::IrLevel::Core))
                       : std::shared_ptr<const ir::ExportedProgram>(loaded);
  // Random inputs, written as `run --save-inputs` writes them, so torch runs on the same ones.
  const std::string inputs_path = std::string(EXPORTLENS_BENCH_DIR) + "/numerics_inputs.pt";
  runtime::RunRequest write;
  write.random_inputs = true;
  write.used_inputs_file = inputs_path;
  runtime::run_program(*program, write);
  runtime::RunRequest in;
  in.inputs_file = inputs_path;
  const std::vector<c10::IValue> inputs = runtime::gather_inputs(*program, in);
  std::printf("program: %s%s, %zu nodes\n", file.c_str(), lower ? " (lowered to Core ATen)" : "", program->graph().size());

  uint64_t fp32_peak = 0, bf16_peak = 0, numerics_peak = 0;
  numerics::NumericsRequest r;
  r.a = {program, "cpu", runtime::Precision::AsExported, "fp32"};
  r.b = {program, "cpu", runtime::Precision::BFloat16, "bf16"};
  r.pairing = numerics::same_graph(*program);
  r.inputs_file = inputs_path;
  numerics::NumericsRequest totals_only = r;
  totals_only.introduced = false;
  size_t compared = 0;
  // In turns (bench_timing.h), so a slow spell of the machine weighs on all four alike.
  const std::vector<bench::Timing> timings = bench::interleaved_medians(repeat, {
      [&] { fp32_peak = plain_run(*program, runtime::Precision::AsExported, inputs); },
      [&] { bf16_peak = plain_run(*program, runtime::Precision::BFloat16, inputs); },
      [&] {
        const numerics::NumericsResult result = numerics::run_numerics(r);
        numerics_peak = result.report.peak_bytes;
        compared = result.report.nodes.size();
      },
      [&] { numerics::run_numerics(totals_only); },
  });
  const bench::Timing &fp32 = timings[0], &bf16 = timings[1], &full = timings[2], &totals = timings[3];
  if (!json_out.empty()) {
    numerics::NumericsReport report = numerics::run_numerics(r).report;
    report.seconds = 0;
    report.peak_bytes = 0;
    std::ofstream(json_out) << numerics::numerics_json(report);
  }
  // torch, the same plain runs.
  const std::string torch_json = std::string(EXPORTLENS_BENCH_DIR) + "/numerics_torch.json";
  const std::string cmd = std::string("\"") + EXPORTLENS_PYTHON + "\" \"" + EXPORTLENS_BENCH_SCRIPT + "\" \"" + file + "\" \"" +
                          inputs_path + "\" " + (lower ? "--core " : "") + "--repeat " + std::to_string(repeat) + " --out \"" +
                          torch_json + "\"";
  double torch_fp32 = 0, torch_bf16 = 0;
  if (with_torch && std::system(cmd.c_str()) == 0) {
    std::ifstream j(torch_json);
    const auto t = nlohmann::json::parse(j);
    torch_fp32 = t["fp32_ms"].get<double>();
    torch_bf16 = t["bf16_ms"].get<double>();
  }
  const double a = fp32.wall_ms, b = bf16.wall_ms, n = full.wall_ms, t = totals.wall_ms;
  const double time_ratio = n / (a + b);
  const double memory_ratio = double(numerics_peak) / double(std::max(fp32_peak, bf16_peak));
  std::printf("%-34s %12s %12s\n", "", "exportlens", "torch");
  const auto plain = [&](const char* what, double ours, double torchs) {
    if (with_torch) std::printf("%-34s %10.1f ms %10.1f ms\n", what, ours, torchs);
    else std::printf("%-34s %10.1f ms %12s\n", what, ours, "-");
  };
  plain("plain run, fp32", a, torch_fp32);
  plain("plain run, bf16", b, torch_bf16);
  std::printf("%-34s %10.1f ms  (%zu nodes compared)\n", "numerics, fp32 against bf16", n, compared);
  std::printf("%-34s %10.1f ms\n", "numerics, totals only", t);
  std::printf("numerics / (fp32 + bf16): %.2fx (goal <= 1.5x); totals only %.2fx; in CPU time %.2fx\n", time_ratio,
              t / (a + b), full.cpu_ms / (fp32.cpu_ms + bf16.cpu_ms));
  std::printf("held at once: fp32 run %.1f MB, bf16 run %.1f MB, numerics %.1f MB: %.2fx one run (goal < 2x)\n",
              fp32_peak / 1e6, bf16_peak / 1e6, numerics_peak / 1e6, memory_ratio);
  return time_ratio <= 1.5 && memory_ratio < 2 ? 0 : 2;
}
