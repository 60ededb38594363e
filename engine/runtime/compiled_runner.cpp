#include "engine/runtime/compiled_runner.h"

#include <ATen/core/Tensor.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/profiler_kineto.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>

#include "engine/runtime/compiled_run_values.h"
#include "engine/runtime/program_runner.h"
#include "engine/runtime/run_inputs.h"
#include "engine/runtime/saved_values.h"
#include "engine/runtime/value_summary.h"

namespace exportlens::runtime {
namespace {

using Clock = std::chrono::steady_clock;

std::string first_line(std::string s) {
  s = s.substr(0, s.find('\n'));
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r' || s.back() == '.')) s.pop_back();
  return s;
}

// LibTorch's errors carry a backtrace; the user gets their first line.
std::string torch_message(const std::exception& e) {
  if (const auto* c = dynamic_cast<const c10::Error*>(&e)) return first_line(c->what_without_backtrace());
  return first_line(e.what());
}

Error run_error(const CompiledRunRequest& request, const std::string& what) {
  return Error(ErrorKind::Run, {.file = request.package.string()}, what);
}

// The tensors of a user input in pytree order (AOTInductor takes the flat tensor list).
void flatten_tensors(const c10::IValue& v, std::vector<at::Tensor>& out, int& skipped) {
  if (v.isTensor()) {
    out.push_back(v.toTensor());
  } else if (v.isTuple()) {
    for (const auto& e : v.toTupleRef().elements()) flatten_tensors(e, out, skipped);
  } else if (v.isList()) {
    for (const auto& e : v.toListRef()) flatten_tensors(e, out, skipped);
  } else if (!v.isNone()) {
    ++skipped;  // ints, floats, bools: a compiled model specializes or takes them elsewhere
  }
}

std::vector<c10::IValue> gather(const CompiledRunRequest& request) {
  if (request.random_inputs && !request.inputs_file && !request.program)
    throw Error(ErrorKind::Usage, {.file = request.package.string()},
                "random inputs are made from the exported program's signature, and there is none: give --inputs, or "
                "the program (--program-file)");
  if (!request.inputs_file && !request.random_inputs)
    throw Error(ErrorKind::Usage, {}, "no inputs: give an inputs file (--inputs) or ask for random inputs (--random)");
  try {
    if (request.program) {
      RunRequest r;
      r.inputs_file = request.inputs_file;
      r.random_inputs = request.random_inputs;
      r.seed = request.seed;
      r.limits = request.limits;
      return gather_inputs(*request.program, r);
    }
    return load_inputs_file(*request.inputs_file, request.limits);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(ErrorKind::Input, {}, first_line(e.what()));
  }
}

void synchronize(const c10::Device& device) {
  if (device.is_cpu()) return;
  c10::impl::getDeviceGuardImpl(device.type())->synchronizeDevice(device.index() < 0 ? 0 : device.index());
}

struct Event {
  std::string name;
  uint64_t start = 0, end = 0, thread = 0;
  bool device = false;
};

// One more run under LibTorch's profiler (Kineto): CPU activity, and CUDA's on a GPU.
std::vector<Event> profile_run(torch::inductor::AOTIModelPackageLoader& loader, const std::vector<at::Tensor>& inputs,
                               const c10::Device& device) {
  namespace prof = torch::autograd::profiler;
  using torch::profiler::impl::ActivityType;
  std::set<ActivityType> activities{ActivityType::CPU};
  if (device.is_cuda()) activities.insert(ActivityType::CUDA);
  const torch::profiler::impl::ProfilerConfig config(torch::profiler::impl::ProfilerState::KINETO);
  // Twice, keeping the second: the first profiled run pays for what profiling
  // sets up on first use (tens of times a kernel's time on the CPU). Each
  // session is prepared anew, as torch.profiler.profile does.
  std::unique_ptr<prof::ProfilerResult> result;
  for (int pass = 0; pass < 2; ++pass) {
    prof::prepareProfiler(config, activities);
    prof::enableProfiler(config, activities);
    try {
      loader.run(inputs);
      synchronize(device);
    } catch (...) {
      prof::disableProfiler();
      throw;
    }
    result = prof::disableProfiler();
  }
  std::vector<Event> events;
  for (const auto& e : result->events()) {
    if (e.isHiddenEvent()) continue;
    // On a GPU the host's CUDA runtime and driver calls (cudaLaunchKernel, ...) are the launches, not the work.
    if (device.is_cuda() && e.deviceType() == c10::DeviceType::CPU &&
        (e.name().rfind("cuda", 0) == 0 || e.name().rfind("cuLaunch", 0) == 0))
      continue;
    events.push_back({e.name(), e.startNs(), e.endNs(), e.startThreadId(), e.deviceType() != c10::DeviceType::CPU});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.start < b.start; });
  return events;
}

// Host events not inside another host event of their thread: what the wrapper called.
std::vector<const Event*> outermost(const std::vector<Event>& events) {
  std::vector<const Event*> out;
  std::map<uint64_t, uint64_t> open_until;  // thread -> end of its last outermost event
  for (const auto& e : events) {
    if (e.device) {
      out.push_back(&e);
      continue;
    }
    auto& until = open_until[e.thread];
    if (e.start < until) continue;
    until = e.end;
    out.push_back(&e);
  }
  return out;
}

void attribute(CompiledRunReport& report, const std::vector<Event>& events, const std::vector<std::string>& kernels,
               bool cuda) {
  std::string how = std::string("LibTorch profiler, the second of two runs after the timed ones (") +
                    (cuda ? "CPU and CUDA activity; CUDA kernels in device time" : "CPU activity, host time") + ")";
  if (kernels.empty()) {
    // No kernel list: the outermost events by name, as the profiler names them.
    std::map<std::string, CompiledKernelTime> by_name;
    for (const Event* e : outermost(events)) {
      auto& k = by_name[e->name];
      k.event = e->name;
      k.total_ms += (e->end - e->start) / 1e6;
      ++k.calls;
      k.device_time = e->device;
    }
    for (auto& [_, k] : by_name) report.kernels.push_back(std::move(k));
    report.kernels_note = how + "; events by the profiler's names (the package's kernels were not given to map them)";
  } else {
    // The i-th event of a name is the i-th kernel of that profiler name in
    // launch order (each kernel launched once a run); otherwise all of that
    // name's time goes to its first kernel. An ATen fallback's op may be
    // recorded as its implementation, aten::_op (convolution: aten::_convolution).
    // A package compiled with cpp.enable_kernel_profile records each launch
    // under the kernel's own name: a fallback as itself, an inductor C++ kernel
    // as graph_N_NAME (N the compiled graph's number).
    std::map<std::string, std::vector<int>> kernels_of_name;
    std::map<std::string, std::string> key_of_own_name;
    for (size_t i = 0; i < kernels.size(); ++i) {
      const std::string key = profiler_name_of_kernel(kernels[i]);
      kernels_of_name[key].push_back(static_cast<int>(i));
      key_of_own_name.emplace(kernels[i], key);
    }
    auto without_graph_prefix = [](const std::string& event) {
      if (event.rfind("graph_", 0) != 0) return event;
      size_t digits = 6;
      while (digits < event.size() && std::isdigit(static_cast<unsigned char>(event[digits]))) ++digits;
      return digits > 6 && digits < event.size() && event[digits] == '_' ? event.substr(digits + 1) : event;
    };
    auto key_of = [&](const std::string& event) -> std::string {
      if (kernels_of_name.count(event)) return event;
      if (const auto own = key_of_own_name.find(without_graph_prefix(event)); own != key_of_own_name.end())
        return own->second;
      if (event.rfind("aten::_", 0) == 0 && kernels_of_name.count("aten::" + event.substr(7)))
        return "aten::" + event.substr(7);
      return "";
    };
    std::map<std::string, std::vector<const Event*>> events_of_name;
    std::map<std::string, CompiledKernelTime> others;  // events no kernel of the package accounts for
    for (const Event* e : outermost(events)) {
      if (const std::string key = key_of(e->name); !key.empty()) {
        events_of_name[key].push_back(e);
        continue;
      }
      auto& k = others[e->name];
      k.event = e->name;
      k.total_ms += (e->end - e->start) / 1e6;
      ++k.calls;
      k.device_time = e->device;
    }
    std::vector<std::string> unseen;
    std::map<int, CompiledKernelTime> times;
    for (const auto& [name, indexes] : kernels_of_name) {
      const auto found = events_of_name.find(name);
      if (found == events_of_name.end()) {
        for (int i : indexes) unseen.push_back(kernels[i]);
        continue;
      }
      const bool one_each = found->second.size() == indexes.size();
      for (size_t j = 0; j < found->second.size(); ++j) {
        const int index = one_each ? indexes[j] : indexes.front();
        auto& k = times[index];
        k.event = found->second[j]->name;
        k.kernel = kernels[index];
        k.kernel_index = index;
        k.total_ms += (found->second[j]->end - found->second[j]->start) / 1e6;
        ++k.calls;
        k.device_time = found->second[j]->device;
      }
    }
    for (auto& [_, k] : times) report.kernels.push_back(std::move(k));
    for (auto& [_, k] : others) report.kernels.push_back(std::move(k));
    how += "; " + std::to_string(times.size()) + " of " + std::to_string(kernels.size()) + " package kernels seen";
    if (!others.empty()) how += ", " + std::to_string(others.size()) + " other event names (ops the wrapper called)";
    if (!unseen.empty()) {
      how += "; not seen: ";
      for (size_t i = 0; i < unseen.size() && i < 8; ++i) how += (i ? ", " : "") + unseen[i];
      if (unseen.size() > 8) how += ", and " + std::to_string(unseen.size() - 8) + " more";
      if (!cuda)
        how += " (inductor's C++ kernels are recorded only when the package was compiled with "
               "cpp.enable_kernel_profile=True; ATen fallbacks calling an op's CPU kernel directly, "
               "as addmm_out does, bypass the profiler)";
    }
    report.kernels_note = how;
  }
  std::stable_sort(report.kernels.begin(), report.kernels.end(),
                   [](const CompiledKernelTime& a, const CompiledKernelTime& b) { return a.total_ms > b.total_ms; });
}

}  // namespace

std::string profiler_name_of_kernel(const std::string& kernel) {
  for (const std::string prefix : {"aoti_torch_cpu_", "aoti_torch_cuda_", "aoti_torch_"}) {
    if (kernel.rfind(prefix, 0) != 0) continue;
    std::string op = kernel.substr(prefix.size());
    if (op.size() > 4 && op.compare(op.size() - 4, 4, "_out") == 0) op.resize(op.size() - 4);
    return "aten::" + op;
  }
  if (kernel.rfind("at::", 0) == 0) return "aten::" + kernel.substr(4);  // at::addmm_out spelled as C++
  return kernel;
}

CompiledRunValues run_compiled_values(const CompiledRunRequest& request) {
  // Consent first: nothing is read, extracted or loaded without it.
  if (!request.consent)
    throw Error(ErrorKind::Usage, {.file = request.package.string()},
                "running compiled model '" + request.model +
                    "' loads and runs the package's compiled code: it needs the user's consent "
                    "(the CLI's --compiled, the GUI's confirmation)");
  if (request.warmup < 0 || request.repeat < 1)
    throw Error(ErrorKind::Usage, {}, "warmup must be >= 0 and repeat >= 1 (got " + std::to_string(request.warmup) +
                                          ", " + std::to_string(request.repeat) + ")");
  std::string why;
  if (!device_available(request.device, &why))
    throw Error(ErrorKind::Usage, {}, "cannot run on " + request.device + ": " + why);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(request.package, ec))
    throw Error(ErrorKind::Input, {.file = request.package.string()}, "no such file");

  CompiledRunValues out;
  out.inputs = gather(request);
  CompiledRunReport& report = out.report;
  report.package = request.package.string();
  report.model = request.model;
  report.device = request.device;
  report.warmup = request.warmup;
  report.repeat = request.repeat;

  const c10::Device device(request.device);
  std::optional<c10::DeviceGuard> on_device;
  if (!device.is_cpu()) on_device.emplace(device);
  std::vector<at::Tensor> inputs;
  int skipped = 0;
  for (const auto& v : out.inputs) flatten_tensors(v, inputs, skipped);
  for (auto& t : inputs) t = t.to(device);
  if (skipped)
    report.notes.push_back(std::to_string(skipped) +
                           " non-tensor input value(s) not passed: a compiled model takes tensors only");

  const int total = request.warmup + request.repeat + (request.profile_kernels ? 1 : 0);
  int done = 0;
  auto step = [&] {
    if (request.cancel) request.cancel->check();
    if (request.progress) request.progress(done, total);
  };
  step();
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader;
  try {
    // Check the compiled device before loading the library (the metadata is a JSON entry).
    const auto meta = torch::inductor::AOTIModelPackageLoader::load_metadata_from_package(request.package.string(),
                                                                                         request.model);
    if (auto it = meta.find("AOTI_DEVICE_KEY"); it != meta.end() && c10::Device(it->second).type() != device.type())
      throw run_error(request, "compiled model '" + request.model + "' is compiled for " + it->second +
                                   ", not " + request.device + ": run it with --device " + it->second);
    const auto start = Clock::now();
    loader = std::make_unique<torch::inductor::AOTIModelPackageLoader>(
        request.package.string(), request.model, /*run_single_threaded=*/false, /*num_runners=*/1,
        device.is_cpu() ? c10::DeviceIndex(-1) : device.index());
    report.load_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw run_error(request, "cannot load compiled model '" + request.model + "': " + torch_message(e));
  }

  try {
    // As run_program: the first run's outputs are reported; `warmup` runs, then `repeat` timed ones.
    for (int r = 0; r < request.warmup + request.repeat; ++r) {
      const auto start = Clock::now();
      auto outs = loader->run(inputs);
      synchronize(device);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      if (r == 0) out.outputs = std::move(outs);
      if (r >= request.warmup) report.run_ms.push_back(ms);
      ++done;
      step();
    }
    report.median_ms = median(report.run_ms);
    if (request.profile_kernels) {
      std::vector<Event> events;
      std::string profiler_failed;
      try {
        events = profile_run(*loader, inputs, device);
      } catch (const std::exception& e) {
        // The model ran above; a profiler that cannot start costs the kernel times only.
        profiler_failed = torch_message(e);
      }
      if (profiler_failed.empty()) attribute(report, events, request.kernel_names, device.is_cuda());
      else report.kernels_note = "kernels not timed: LibTorch's profiler failed: " + profiler_failed;
      ++done;
      step();
    } else {
      report.kernels_note = "kernels not timed (not asked for)";
    }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw run_error(request, "compiled model '" + request.model + "' failed: " + torch_message(e));
  }
  for (const auto& v : out.inputs) report.inputs.push_back(summarize(v));
  for (const auto& t : out.outputs) report.outputs.push_back(summarize(t));
  if (request.outputs_file) {
    std::vector<c10::IValue> values(out.outputs.begin(), out.outputs.end());
    save_values_file(*request.outputs_file, values);
  }
  return out;
}

CompiledRunReport run_compiled(const CompiledRunRequest& request) { return run_compiled_values(request).report; }

}  // namespace exportlens::runtime
