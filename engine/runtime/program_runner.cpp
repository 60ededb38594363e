#include "engine/runtime/program_runner.h"

#include <ATen/Context.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/DeviceType.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <sstream>

#include "engine/ir/tensor_extent.h"
#include "engine/runtime/input_check.h"
#include "engine/ir/op_key.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/numerics.h"
#include "engine/runtime/run_memory.h"
#include "engine/runtime/run_inputs.h"
#include "engine/runtime/run_probes.h"
#include "engine/runtime/saved_values.h"
#include "engine/runtime/torch_types.h"
#include "engine/runtime/value_summary.h"

namespace exportlens::runtime {
namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// Charges the input's bytes against the budget before anything is allocated.
c10::IValue random_input(const ir::Node* ph, const ir::InputSpec& spec, const std::string& where, uint64_t& budget) {
  if (spec.arg.type == ir::SpecArgument::Type::Constant) return c10::IValue();  // filled from the spec below
  const ir::TensorMeta* meta = ph ? ph->value.tensor() : nullptr;
  if (!meta) throw std::runtime_error(where + ": cannot make a random value for a non-tensor input; use --inputs");
  std::vector<int64_t> sizes;
  int64_t numel = 1;
  for (const auto& s : meta->sizes) {
    if (!s.hint) throw std::runtime_error(where + ": dimension " + s.str() + " has no example value; use --inputs");
    if (*s.hint < 0 || __builtin_mul_overflow(numel, *s.hint, &numel))
      throw std::runtime_error(where + ": its example sizes are not a valid shape");
    sizes.push_back(*s.hint);
  }
  const auto bytes = ir::byte_size(numel, meta->dtype);
  if (!bytes || static_cast<uint64_t>(*bytes) > budget)
    throw std::runtime_error(where + ": a random " + meta->annotation() + " input needs " +
                             (bytes ? std::to_string(*bytes) + " bytes" : "more bytes than int64 counts") +
                             ", over what is left of the limit on random inputs (raise it with --limit input-bytes=...)");
  budget -= static_cast<uint64_t>(*bytes);
  const auto dtype = to_torch(meta->dtype);
  auto opts = at::TensorOptions().dtype(dtype);
  if (ir::is_floating(meta->dtype)) return at::randn(sizes, opts);
  if (meta->dtype == ir::ScalarType::Bool) return at::randint(0, 2, sizes, opts);
  return at::randint(0, 10, sizes, opts);
}

InputDescription describe(const c10::IValue& v) {
  InputDescription d;
  if (v.isTensor()) {
    d.dtype = from_torch(v.toTensor().scalar_type());
    d.sizes = v.toTensor().sizes().vec();
  } else {
    d.is_tensor = false;
    if (v.isInt()) d.int_value = v.toInt();
  }
  return d;
}

}  // namespace

std::vector<InputDescription> describe_inputs_file(const std::filesystem::path& path, std::vector<ValueSummary>* values) {
  std::vector<InputDescription> out;
  for (const auto& v : load_inputs_file(path)) {
    out.push_back(describe(v));
    if (values) values->push_back(summarize(v));
  }
  return out;
}

bool built_with_cuda() { return cuda_built(); }

std::vector<DeviceInfo> list_devices(std::string* why) { return cuda_devices(why); }

bool device_available(const std::string& device, std::string* why, std::string* fix) {
  auto say = [&](std::string w, std::string f) {
    if (why) *why = std::move(w);
    if (fix) *fix = std::move(f);
    return false;
  };
  std::optional<c10::Device> d;
  try {
    d.emplace(device);
  } catch (const c10::Error& e) {
    return say("bad device '" + device + "': " + first_line(e.what_without_backtrace()), "use cpu, cuda or cuda:N");
  }
  if (d->is_cpu()) return true;
  if (!d->is_cuda()) return say("device type '" + device + "' is not supported", "use cpu, cuda or cuda:N");
  if (!cuda_built())
    return say("this ExportLens is built against the CPU build of LibTorch, which has no CUDA support",
               "EXPORTLENS_TORCH=cuda packaging/build.sh run  (builds the CUDA flavour into build-cuda/)");
  std::string reason;
  const auto devices = cuda_devices(&reason);
  if (devices.empty())
    return say(reason, "run on a machine where nvidia-smi lists an NVIDIA GPU (with its driver installed)");
  if (d->has_index() && d->index() >= static_cast<int>(devices.size()))
    return say("there is no " + device + " here: " + std::to_string(devices.size()) + " GPU" +
                   (devices.size() == 1 ? "" : "s") + " (cuda:0" +
                   (devices.size() > 1 ? "…cuda:" + std::to_string(devices.size() - 1) : std::string()) + ")",
               "exportlens devices  (lists them)");
  return true;
}

std::vector<std::string> unavailable_operators(const ir::ExportedProgram& ep) { return missing_operators(ep); }

std::vector<c10::IValue> gather_inputs(const ir::ExportedProgram& ep, const RunRequest& request) {
  std::vector<c10::IValue> inputs;
  if (request.inputs_file) {
    inputs = load_inputs_file(*request.inputs_file, request.limits);
  } else if (request.random_inputs) {
    at::manual_seed(request.seed);
    const auto user = ep.signature.user_inputs();
    uint64_t budget = request.limits.max_input_bytes;
    for (size_t i = 0; i < user.size(); ++i)
      inputs.push_back(random_input(ep.graph().find(user[i]->arg.name), *user[i],
                                    "input " + std::to_string(i) + " ('" + user[i]->arg.name + "')", budget));
    for (size_t i = 0; i < user.size(); ++i)
      if (user[i]->arg.type == ir::SpecArgument::Type::Constant && std::holds_alternative<int64_t>(user[i]->arg.constant.v))
        inputs[i] = std::get<int64_t>(user[i]->arg.constant.v);
  } else {
    throw std::runtime_error("no inputs: give an inputs file (--inputs) or ask for random inputs (--random)");
  }
  std::vector<InputDescription> described;
  for (const auto& v : inputs) described.push_back(describe(v));
  const auto check = check_inputs(ep, described);
  if (!check.ok()) {
    std::string all;  // one line: the CLI's errors are one line each
    for (const auto& e : check.errors) all += (all.empty() ? "" : "; ") + e;
    throw std::runtime_error((request.inputs_file ? request.inputs_file->string() + ": " : std::string()) +
                             "inputs do not match the program: " + all);
  }
  return inputs;
}

namespace {

std::vector<std::string> user_output_names(const ir::ExportedProgram& ep) {
  std::vector<std::string> names;
  for (const auto* o : ep.signature.user_outputs()) names.push_back(o->arg.name);
  return names;
}

bool mutates_state(const ir::ExportedProgram& ep) {
  for (const auto& o : ep.signature.outputs)
    if (o.kind != ir::OutputKind::UserOutput && o.kind != ir::OutputKind::LossOutput) return true;
  return false;
}

// Node values of one run, kept on the CPU for the per-node comparison
// (a copy: later in-place ops must not change what was seen).
class NodeValueCapture final : public NodeObserver {
 public:
  explicit NodeValueCapture(uint64_t budget) : budget_(budget) {}
  void node_begin(const ir::Node&) override {}
  void node_end(const ir::Node& node, const c10::IValue& value) override {
    if (stopped_at_) return;
    const uint64_t bytes = value_bytes(value);
    if (bytes > budget_) {
      stopped_at_ = node.name;
      return;
    }
    budget_ -= bytes;
    RunMemoryScope uncharged(nullptr);  // the copies are the comparison's (bounded above), not the program's
    values_.emplace(node.name, copy_to_cpu(value));
  }
  const std::map<std::string, c10::IValue>& values() const { return values_; }
  const std::optional<std::string>& stopped_at() const { return stopped_at_; }

 private:
  static uint64_t value_bytes(const c10::IValue& v) {
    if (v.isTensor()) return v.toTensor().defined() ? v.toTensor().nbytes() : 0;
    uint64_t sum = 0;
    if (v.isTuple())
      for (const auto& e : v.toTupleRef().elements()) sum += value_bytes(e);
    if (v.isList())
      for (const auto& e : v.toListRef()) sum += value_bytes(e);
    return sum;
  }
  static c10::IValue copy_to_cpu(const c10::IValue& v) {
    if (v.isTensor()) return v.toTensor().defined() ? c10::IValue(v.toTensor().detach().to(c10::kCPU, false, true)) : v;
    if (v.isTuple()) {
      std::vector<c10::IValue> items;
      for (const auto& e : v.toTupleRef().elements()) items.push_back(copy_to_cpu(e));
      return c10::ivalue::Tuple::create(std::move(items));
    }
    if (v.isList()) {
      std::vector<c10::IValue> items;
      for (const auto& e : v.toListRef()) items.push_back(copy_to_cpu(e));
      return c10::ivalue::Tuple::create(std::move(items));
    }
    return v;
  }
  uint64_t budget_;
  std::map<std::string, c10::IValue> values_;
  std::optional<std::string> stopped_at_;
};

// The reference run's side of the per-node comparison.
class NodeValueCompare final : public NodeObserver {
 public:
  NodeValueCompare(const NodeValueCapture& run, Comparison& out) : run_(run), out_(out) {}
  void node_begin(const ir::Node&) override {}
  void node_end(const ir::Node& node, const c10::IValue& value) override {
    auto it = run_.values().find(node.name);
    if (it == run_.values().end()) return;
    RunMemoryScope uncharged(nullptr);  // the comparison's temporaries, not the program's
    auto c = compare_values(node.name, it->second, value);
    if (!c.close && !out_.first_divergent_node) out_.first_divergent_node = node.name;
    out_.nodes.push_back(std::move(c));
  }

 private:
  const NodeValueCapture& run_;
  Comparison& out_;
};

// The run's figures are the median run's (the timed run whose total is the
// median), node times included: within one run the nodes' times add up to
// no more than the run's, which independent per-node medians would not.
void fill_node_times(RunReport& report, const std::vector<RunSample>& samples) {
  if (samples.empty()) return;
  std::vector<double> totals, hosts;
  for (const auto& s : samples) {
    totals.push_back(s.total_ms);
    hosts.push_back(s.host_ms);
    report.run_ms.push_back(s.total_ms);
  }
  const double middle = median(totals);
  size_t typical = 0;
  for (size_t i = 0; i < samples.size(); ++i)
    if (std::abs(samples[i].total_ms - middle) < std::abs(samples[typical].total_ms - middle)) typical = i;
  report.total_ms = samples[typical].total_ms;
  report.host_total_ms = median(hosts);
  for (const auto& n : samples[typical].nodes) {
    NodeTime t;
    t.node = n.node->name;
    t.op = ir::op_key(n.node->target);
    t.milliseconds = n.ms;
    t.start_ms = n.start_ms;
    report.node_times.push_back(std::move(t));
  }
}

// The run's nodes as a share of all its runs: `stage` (read at each report)
// is the run under way of `stages`.
Progress staged_progress(const RunRequest& request, const int& stage, int stages) {
  Progress p;
  p.cancel = request.cancel;
  if (request.progress)
    p.report = [&request, &stage, stages](int done, int total) { request.progress(stage * total + done, stages * total); };
  return p;
}

}  // namespace

RunReport run_program(const ir::ExportedProgram& ep, const RunRequest& request) {
  std::string why;
  if (!device_available(request.device, &why)) throw std::runtime_error("cannot run on " + request.device + ": " + why);
  if (request.warmup < 0 || request.repeat < 1)
    throw std::runtime_error("warmup must be >= 0 and repeat >= 1 (got " + std::to_string(request.warmup) + ", " +
                             std::to_string(request.repeat) + ")");
  const std::vector<c10::IValue> inputs = gather_inputs(ep, request);
  const c10::Device device(request.device);
  std::optional<c10::DeviceGuard> on_device;
  if (!device.is_cpu()) on_device.emplace(device);

  Interpreter interp(ep, device, request.precision);
  interp.set_allowed_ops(request.allowed_ops);
  interp.set_memory_limit(request.limits.max_run_bytes);
  const int runs = request.warmup + request.repeat;
  const bool extra_device_run = request.profile_device;
  const int stages = runs + (extra_device_run ? 1 : 0) + (request.compare_cpu ? 1 : 0);
  int stage = 0;
  interp.set_progress(staged_progress(request, stage, stages));
  const std::vector<c10::IValue> prepared = interp.prepare_inputs(inputs);  // copies and casts stay out of the times

  RunReport report;
  report.device = request.device;
  report.warmup = request.warmup;
  report.repeat = request.repeat;
  report.output_names = user_output_names(ep);
  report.cast = interp.cast_report(inputs);
  std::unique_ptr<RunClock> clock = device.is_cuda() ? make_cuda_clock(device) : make_host_clock();
  clock->set_per_node(request.time_nodes);
  report.time_source = clock->source();
  std::optional<NodeValueCapture> captured;
  if (request.compare_cpu && request.compare_nodes) captured.emplace(uint64_t(2) << 30);
  std::vector<RunSample> samples;
  std::vector<c10::IValue> outputs;
  for (int r = 0; r < runs; ++r, ++stage) {
    const bool timed = r >= request.warmup;
    // The clock last: innermost, so what the other observers do stays out of the node's time.
    interp.set_observers({r == 0 && captured ? &*captured : nullptr, timed ? clock.get() : nullptr});
    if (timed) clock->run_begin();
    auto outs = interp.run(prepared);
    if (timed) samples.push_back(clock->run_end());
    if (r == 0) outputs = std::move(outs);
  }
  interp.set_observers({});
  fill_node_times(report, samples);

  if (extra_device_run) {
    if (auto recorder = device.is_cuda() ? make_device_recorder(device) : make_host_memory_recorder()) {
      interp.set_observers({recorder.get()});
      recorder->run_begin();
      interp.run(prepared);
      recorder->run_end();
      interp.set_observers({});
      recorder->fill(report);
    }
    ++stage;
  }
  if (request.cuda_graph) {
    if (!device.is_cuda()) {
      report.cuda_graph = CudaGraphReport{};
      report.cuda_graph->why = "CUDA graphs need a CUDA device (this run is on " + request.device + ")";
    } else if (auto blocker = capture_blocker(ep); !blocker.empty()) {
      report.cuda_graph = CudaGraphReport{};
      report.cuda_graph->why = blocker;
    } else {
      interp.set_progress({{}, request.cancel});
      report.cuda_graph = capture_cuda_graph(interp, prepared, std::max(request.repeat, 10), outputs, !mutates_state(ep));
    }
  }

  if (request.compare_cpu) {
    Comparison cmp;
    cmp.reference_precision = precision_name(Precision::AsExported);
    Interpreter reference(ep, c10::Device(c10::kCPU));
    reference.set_allowed_ops(request.allowed_ops);
    reference.set_memory_limit(request.limits.max_run_bytes);
    reference.set_progress(staged_progress(request, stage, stages));
    std::optional<NodeValueCompare> per_node;
    if (captured) {
      per_node.emplace(*captured, cmp);
      reference.set_observers({&*per_node});
      if (captured->stopped_at())
        cmp.nodes_note = "nodes from '" + *captured->stopped_at() + "' on were not compared: their values exceed 2 GiB";
    }
    const auto start = std::chrono::steady_clock::now();
    const auto ref_outputs = reference.run(inputs);
    cmp.reference_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    cmp.all_close = ref_outputs.size() == outputs.size();
    for (size_t i = 0; i < outputs.size() && i < ref_outputs.size(); ++i) {
      const std::string name = i < report.output_names.size() ? report.output_names[i] : "output " + std::to_string(i);
      cmp.outputs.push_back(compare_values(name, outputs[i], ref_outputs[i]));
      cmp.all_close = cmp.all_close && cmp.outputs.back().close;
    }
    report.comparison = std::move(cmp);
  }

  for (const auto& v : inputs) report.inputs.push_back(summarize(v));
  for (const auto& v : outputs) report.outputs.push_back(summarize(v));
  if (request.outputs_file) save_values_file(*request.outputs_file, outputs);
  if (request.used_inputs_file) save_values_file(*request.used_inputs_file, inputs);
  return report;
}

}  // namespace exportlens::runtime
