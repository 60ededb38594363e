#include "engine/numerics/compiled_comparison.h"

#include <ATen/core/Tensor.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <algorithm>

#include <chrono>
#include <cstdio>
#include <sstream>

#include "engine/compiled/kernel_map.h"
#include "engine/numerics/stats_json.h"
#include "engine/numerics/tensor_error.h"
#include "engine/runtime/compiled_run_values.h"
#include "engine/runtime/interpreter.h"

namespace exportlens::numerics {
namespace {

std::string first_line_of(const std::string& what) { return what.substr(0, what.find('\n')); }

std::string shape_text(const at::Tensor& t) {
  std::string s = "[";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "]";
}

// The program's user outputs as the compiled model returns them: its tensors, flat.
void flatten(const c10::IValue& v, std::vector<at::Tensor>& out) {
  if (v.isTensor()) {
    out.push_back(v.toTensor());
  } else if (v.isTuple()) {
    for (const auto& e : v.toTupleRef().elements()) flatten(e, out);
  } else if (v.isList()) {
    for (const auto& e : v.toListRef()) flatten(e, out);
  }
}

std::string ms(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g ms", v);
  return buf;
}

std::string joined(const std::vector<std::string>& items, size_t most) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < most; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > most) out += ", and " + std::to_string(items.size() - most) + " more";
  return out;
}

}  // namespace

CompiledComparison compare_compiled(const CompiledComparisonRequest& request) {
  CompiledComparison result;
  runtime::CompiledRunRequest run = request.run;
  if (request.model && run.kernel_names.empty())
    for (const compiled::Kernel& k : request.model->kernels) run.kernel_names.push_back(k.name);
  runtime::CompiledRunValues compiled = runtime::run_compiled_values(run);
  result.compiled = std::move(compiled.report);
  const auto& program = request.run.program;
  if (program && request.model) {
    // The program nodes of each timed kernel, as the package's provenance or source comments say them.
    const compiled::KernelMap map = compiled::map_kernels(*request.model, *program);
    result.kernel_map = map.summary(*request.model);
    for (runtime::CompiledKernelTime& k : result.compiled.kernels)
      if (k.kernel_index >= 0 && static_cast<size_t>(k.kernel_index) < map.nodes_of_kernel.size())
        k.nodes = map.nodes_of_kernel[k.kernel_index];
  }
  if (!program) {
    result.not_compared = "no exported program to compare with: the archive holds none for compiled model '" +
                          request.run.model + "' (give the program it was compiled from, --program-file)";
    return result;
  }
  if (request.run.cancel) request.run.cancel->check();

  // The program as ExportLens interprets it, on the compiled model's device and inputs.
  const c10::Device device(request.run.device);
  std::optional<c10::DeviceGuard> on_device;
  if (!device.is_cpu()) on_device.emplace(device);
  std::vector<c10::IValue> interpreted;
  try {
    runtime::Interpreter interpreter(*program, device);
    interpreter.set_memory_limit(request.run.limits.max_run_bytes);
    interpreter.set_progress({{}, request.run.cancel});
    // As the compiled model ran: the first run's outputs; warmup runs, then timed ones (their median).
    const std::vector<c10::IValue> prepared = interpreter.prepare_inputs(compiled.inputs);
    std::vector<double> times;
    for (int r = 0; r < run.warmup + run.repeat; ++r) {
      const auto start = std::chrono::steady_clock::now();
      auto outs = interpreter.run(prepared);
      if (!device.is_cpu()) c10::impl::getDeviceGuardImpl(device.type())->synchronizeDevice(device.index());
      if (r >= run.warmup)
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      if (r == 0) interpreted = std::move(outs);
      if (request.run.cancel) request.run.cancel->check();
    }
    result.interpreted_ms = runtime::median(std::move(times));
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Run) throw;  // cancelled, a limit: as they are
    throw Error(ErrorKind::Run, {}, "interpreting the program to compare with: " + first_line_of(e.what()));
  } catch (const std::exception& e) {
    if (request.run.cancel) request.run.cancel->check();
    throw Error(ErrorKind::Run, {}, "interpreting the program to compare with: " + first_line_of(e.what()));
  }
  result.interpreted_device = request.run.device;
  if (request.run.cancel) request.run.cancel->check();

  std::vector<at::Tensor> expected;
  for (const auto& v : interpreted) flatten(v, expected);
  std::vector<std::string> names;
  for (const auto* o : program->signature.user_outputs()) names.push_back(o->arg.name);
  if (names.size() != expected.size()) names.clear();  // nested outputs: numbered instead
  result.compared = true;
  result.all_close = expected.size() == compiled.outputs.size();
  const size_t n = std::max(expected.size(), compiled.outputs.size());
  for (size_t i = 0; i < n; ++i) {
    OutputComparison c;
    c.name = i < names.size() ? names[i] : "output " + std::to_string(i);
    if (i >= expected.size() || i >= compiled.outputs.size()) {
      c.mismatch = "the compiled model returns " + std::to_string(compiled.outputs.size()) +
                   " tensors, the program " + std::to_string(expected.size());
    } else if (expected[i].sizes() != compiled.outputs[i].sizes()) {
      c.mismatch = "shape " + shape_text(compiled.outputs[i]) + " vs " + shape_text(expected[i]);
    } else if (!(c.stats = error_stats(expected[i], compiled.outputs[i].to(expected[i].device())))) {
      c.mismatch = "not comparable (" + std::string(c10::toString(compiled.outputs[i].scalar_type())) + " vs " +
                   c10::toString(expected[i].scalar_type()) + ")";
    }
    result.all_close = result.all_close && c.close();
    result.outputs.push_back(std::move(c));
  }
  return result;
}

std::string format_compiled_comparison(const CompiledComparison& c, size_t top) {
  const runtime::CompiledRunReport& r = c.compiled;
  std::ostringstream out;
  out << "compiled model '" << r.model << "' of " << r.package << " on " << r.device << "\n";
  for (size_t i = 0; i < r.outputs.size(); ++i) out << "output " << i << ": " << r.outputs[i].text << "\n";
  out << "ran in " << ms(r.median_ms) << " (host wall time";
  if (r.repeat > 1 || r.warmup > 0)
    out << "; median of " << r.repeat << " run" << (r.repeat == 1 ? "" : "s") << " after " << r.warmup << " warm-up";
  out << "; loading took " << ms(r.load_ms) << ")\n";
  if (c.compared) {
    out << "interpreted by ExportLens on " << c.interpreted_device << " in " << ms(c.interpreted_ms) << "\n";
    out << "compared with the program as interpreted: "
        << (c.all_close ? "all outputs close" : "NOT all outputs close") << "\n";
    for (const OutputComparison& o : c.outputs) {
      out << "  " << o.name << ": ";
      if (!o.stats) {
        out << "not comparable: " << o.mismatch << "\n";
        continue;
      }
      out << (o.close() ? "close" : "beyond tolerance") << " (" << stats_line(*o.stats) << "; rtol "
          << o.stats->rtol << ", atol " << o.stats->atol << ")\n";
    }
  } else {
    out << "not compared: " << c.not_compared << "\n";
  }
  if (!r.kernels.empty()) {
    out << "kernels (slowest first):\n";
    for (size_t i = 0; i < r.kernels.size() && i < top; ++i) {
      const runtime::CompiledKernelTime& k = r.kernels[i];
      out << "  " << ms(k.total_ms) << "  " << (k.kernel.empty() ? k.event : k.kernel);
      if (!k.kernel.empty() && k.kernel != k.event) out << " (as " << k.event << ")";
      if (k.calls > 1) out << " x" << k.calls;
      if (!k.nodes.empty()) out << "  <- " << joined(k.nodes, 6);
      out << "\n";
    }
    if (r.kernels.size() > top) out << "  ... and " << r.kernels.size() - top << " more\n";
  }
  if (!r.kernels_note.empty()) out << "kernels: " << r.kernels_note << "\n";
  if (!c.kernel_map.empty()) out << "kernel map: " << c.kernel_map << "\n";
  for (const std::string& note : r.notes) out << "note: " << note << "\n";
  return out.str();
}

std::string compiled_comparison_json(const CompiledComparison& c) {
  const runtime::CompiledRunReport& r = c.compiled;
  nlohmann::json outputs = nlohmann::json::array();
  for (size_t i = 0; i < r.outputs.size(); ++i) {
    nlohmann::json o = {{"summary", r.outputs[i].text}, {"dtype", r.outputs[i].dtype}, {"shape", r.outputs[i].shape}};
    if (i < c.outputs.size()) {
      o["name"] = c.outputs[i].name;
      o["close"] = c.outputs[i].close();
      o["stats"] = c.outputs[i].stats ? stats_json(*c.outputs[i].stats) : nlohmann::json(nullptr);
      if (!c.outputs[i].mismatch.empty()) o["mismatch"] = c.outputs[i].mismatch;
    }
    outputs.push_back(std::move(o));
  }
  nlohmann::json kernels = nlohmann::json::array();
  for (const runtime::CompiledKernelTime& k : r.kernels)
    kernels.push_back({{"event", k.event},
                       {"kernel", k.kernel},
                       {"kernel_index", k.kernel_index},
                       {"ms", k.total_ms},
                       {"calls", k.calls},
                       {"device_time", k.device_time},
                       {"nodes", k.nodes}});
  nlohmann::json out = {{"package", r.package},
                        {"model", r.model},
                        {"device", r.device},
                        {"median_ms", r.median_ms},
                        {"run_ms", r.run_ms},
                        {"warmup", r.warmup},
                        {"repeat", r.repeat},
                        {"load_ms", r.load_ms},
                        {"compared", c.compared},
                        {"not_compared", c.not_compared},
                        {"all_close", c.all_close},
                        {"interpreted_ms", c.interpreted_ms},
                        {"outputs", outputs},
                        {"kernels", kernels},
                        {"kernels_note", r.kernels_note},
                        {"kernel_map", c.kernel_map},
                        {"notes", r.notes}};
  return out.dump(1) + "\n";
}

}  // namespace exportlens::numerics
