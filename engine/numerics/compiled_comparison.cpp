#include "engine/numerics/compiled_comparison.h"

#include <ATen/core/Tensor.h>
#include <c10/core/DeviceGuard.h>

#include <chrono>

#include "engine/numerics/tensor_error.h"
#include "engine/runtime/compiled_run_values.h"
#include "engine/runtime/interpreter.h"

namespace exportlens::numerics {
namespace {

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

}  // namespace

CompiledComparison compare_compiled(const CompiledComparisonRequest& request) {
  CompiledComparison result;
  runtime::CompiledRunValues compiled = runtime::run_compiled_values(request.run);
  result.compiled = std::move(compiled.report);
  const auto& program = request.run.program;
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
    if (request.run.cancel)
      interpreter.set_progress([&](int, int) { return !request.run.cancel->is_cancelled(); });
    const auto start = std::chrono::steady_clock::now();
    interpreted = interpreter.run(compiled.inputs);
    result.interpreted_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    if (request.run.cancel) request.run.cancel->check();
    const std::string what = e.what();
    throw Error(ErrorKind::Run, {}, "interpreting the program to compare with: " + what.substr(0, what.find('\n')));
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

}  // namespace exportlens::numerics
