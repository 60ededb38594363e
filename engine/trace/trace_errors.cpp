#include "engine/trace/trace_errors.h"

#include "engine/trace/source_locator.h"

namespace exportlens::trace {

std::string call_site_text(const std::optional<ir::SourceLocation>& site) {
  if (!site) return "";
  std::string s = "\n\nThe following call raised this error:\n  File \"" + site->file + "\", line " +
                  std::to_string(site->line) + ", in " + site->function;
  if (!site->code.empty()) s += "\n    " + site->code;
  return s;
}

void raise(Tracer& t, const TraceError& error) {
  t.remember_error(std::make_exception_ptr(error));
  throw error;
}

void raise_data_dependent(Tracer& t, const symbolic::DataDependentError& e,
                          const std::optional<ir::SourceLocation>& site, bool from_tensor_value) {
  if (from_tensor_value && t.options().strict) {
    std::string m =
        "Dynamic control flow is not supported at the moment.\n"
        "Data-dependent branching\n"
        "  Explanation: Detected data-dependent branching (e.g. `if (x.sum().gt(0).item<bool>())`): the condition "
        "depends on a tensor's value (" +
        e.expr().str() +
        "), which tracing with fake tensors does not know.\n"
        "  Hint: Use `torch.cond` (exportlens::sdk::cond in C++) to express dynamic control flow.";
    if (site) {
      m += "\n\nfrom user code:\n   File \"" + site->file + "\", line " + std::to_string(site->line) + ", in " +
           site->function;
      if (!site->code.empty()) m += "\n    " + site->code;
    }
    raise(t, TraceError("dynamic_control_flow", "torch._dynamo.exc.Unsupported", m));
  }
  // torch's "Caused by: (file.py:12 in forward)" names the model line.
  std::string m = e.what();
  if (const auto at = m.find("\nCaused by: "); at != std::string::npos && site) {
    const auto end = m.find('\n', at + 1);
    m = m.substr(0, at) + "\nCaused by: (" + SourceLocator::describe(*site) + ")" +
        (end == std::string::npos ? "" : m.substr(end));
  }
  m += call_site_text(site);
  if (from_tensor_value)
    m += "\n\nThe condition depends on a tensor's value (dynamic control flow): use torch.cond "
         "(exportlens::sdk::cond in C++) to keep both branches.";
  raise(t, TraceError("data_dependent", "torch.fx.experimental.symbolic_shapes.GuardOnDataDependentSymNode", m));
}

void raise_check_failed(Tracer& t, const symbolic::CheckFailedError& e, const std::optional<ir::SourceLocation>& site) {
  raise(t, TraceError("check", "RuntimeError", std::string(e.what()) + call_site_text(site)));
}

}  // namespace exportlens::trace
