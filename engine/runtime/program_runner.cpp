#include "engine/runtime/program_runner.h"

#include <ATen/Context.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <c10/core/DeviceType.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <fstream>
#include <sstream>

#include "engine/ir/tensor_extent.h"
#include "engine/runtime/input_check.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/torch_types.h"
#include "engine/serde/torch_save_check.h"
#include "engine/serde/zip_archive.h"

namespace exportlens::runtime {
namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::vector<char> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error(p.string() + ": cannot open inputs file");
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::filesystem::path& p, const std::vector<char>& bytes) {
  std::ofstream out(p, std::ios::binary);
  if (!out) throw std::runtime_error(p.string() + ": cannot write");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<c10::IValue> load_inputs(const std::filesystem::path& p) {
  const std::vector<char> data = read_file(p);
  const std::string not_inputs = p.string() + ": not a torch.save file of inputs: ";
  try {  // LibTorch's unpickler trusts the file's numbers: scan it first
    serde::check_torch_save(std::make_shared<const std::vector<std::byte>>(
                                reinterpret_cast<const std::byte*>(data.data()),
                                reinterpret_cast<const std::byte*>(data.data()) + data.size()),
                            p.string());
  } catch (const serde::ArchiveError& e) {
    const std::string what = e.what();
    throw std::runtime_error(not_inputs + (what.rfind(p.string() + ": ", 0) == 0 ? what.substr(p.string().size() + 2) : what));
  }
  c10::IValue v;
  try {
    v = torch::jit::pickle_load(data);
  } catch (const c10::Error& e) {
    throw std::runtime_error(not_inputs + first_line(e.what_without_backtrace()));
  } catch (const std::bad_alloc&) {
    throw std::runtime_error(p.string() + ": out of memory reading the inputs file");
  }
  if (v.isTuple()) return v.toTupleRef().elements().vec();
  if (v.isList()) return v.toListRef().vec();
  return {v};
}

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

ValueSummary summarize(const c10::IValue& v) {
  ValueSummary s;
  std::ostringstream text;
  if (v.isTensor()) {
    const auto& t = v.toTensor();
    s.kind = "tensor";
    s.dtype = std::string(ir::torch_name(from_torch(t.scalar_type())));
    s.shape = t.sizes().vec();
    if (t.numel() > 0 && (t.is_floating_point() || c10::isIntegralType(t.scalar_type(), true))) {
      const auto f = t.detach().to(c10::kCPU).to(c10::kDouble);
      s.min = f.min().item<double>();
      s.max = f.max().item<double>();
      s.mean = f.mean().item<double>();
    }
    text << s.dtype << "[";
    for (size_t i = 0; i < s.shape.size(); ++i) text << (i ? ", " : "") << s.shape[i];
    text << "]";
    if (t.numel() > 0) text << " min " << s.min << " max " << s.max << " mean " << s.mean;
  } else if (v.isInt()) {
    s.kind = "int";
    text << v.toInt();
  } else if (v.isDouble()) {
    s.kind = "float";
    text << v.toDouble();
  } else if (v.isBool()) {
    s.kind = "bool";
    text << (v.toBool() ? "True" : "False");
  } else if (v.isNone()) {
    s.kind = "none";
    text << "None";
  } else {
    s.kind = "other";
    text << v.tagKind();
  }
  s.text = text.str();
  return s;
}

c10::IValue as_tuple(const std::vector<c10::IValue>& values) {
  std::vector<c10::IValue> cpu;
  for (const auto& v : values) cpu.push_back(v.isTensor() ? c10::IValue(v.toTensor().to(c10::kCPU)) : v);
  return c10::ivalue::Tuple::create(std::move(cpu));
}

}  // namespace

std::vector<InputDescription> describe_inputs_file(const std::filesystem::path& path, std::vector<ValueSummary>* values) {
  std::vector<InputDescription> out;
  for (const auto& v : load_inputs(path)) {
    out.push_back(describe(v));
    if (values) values->push_back(summarize(v));
  }
  return out;
}

bool device_available(const std::string& device, std::string* why) {
  try {
    const c10::Device d(device);
    if (d.is_cpu()) return true;
    if (d.is_cuda()) {
      if (!at::globalContext().hasCUDA()) {
        if (why) *why = "this build of LibTorch has no CUDA support, or no CUDA driver/GPU is present";
        return false;
      }
      return true;
    }
    if (why) *why = "device type '" + device + "' is not supported";
    return false;
  } catch (const c10::Error& e) {
    if (why) *why = "bad device '" + device + "': " + e.what_without_backtrace();
    return false;
  }
}

std::vector<std::string> unavailable_operators(const ir::ExportedProgram& ep) { return missing_operators(ep); }

RunReport run_program(const ir::ExportedProgram& ep, const RunRequest& request) {
  std::string why;
  if (!device_available(request.device, &why)) throw std::runtime_error("cannot run on " + request.device + ": " + why);
  std::vector<c10::IValue> inputs;
  if (request.inputs_file) {
    inputs = load_inputs(*request.inputs_file);
  } else if (request.random_inputs) {
    at::manual_seed(request.seed);
    const auto user = ep.signature.user_inputs();
    uint64_t budget = request.max_input_bytes;
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

  Interpreter interp(ep, c10::Device(request.device));
  interp.set_allowed_ops(request.allowed_ops);
  interp.set_memory_limit(request.max_run_bytes);
  interp.set_timing(request.time_nodes);
  if (request.progress) interp.set_progress(request.progress);
  const auto start = std::chrono::steady_clock::now();
  const auto outputs = interp.run(inputs);
  RunReport report;
  report.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  report.device = request.device;
  for (const auto& v : inputs) report.inputs.push_back(summarize(v));
  for (const auto& v : outputs) report.outputs.push_back(summarize(v));
  for (const auto& t : interp.timings()) report.node_times.push_back({t.node, t.milliseconds});
  if (request.outputs_file) write_file(*request.outputs_file, torch::jit::pickle_save(as_tuple(outputs)));
  if (request.used_inputs_file) write_file(*request.used_inputs_file, torch::jit::pickle_save(as_tuple(inputs)));
  return report;
}

}  // namespace exportlens::runtime
