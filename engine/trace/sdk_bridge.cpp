#include "engine/trace/sdk_bridge.h"

#include "engine/trace/control_flow.h"
#include "engine/trace/source_locator.h"
#include "engine/trace/sym_node.h"
#include "engine/trace/trace_errors.h"
#include "engine/trace/tracer.h"

namespace exportlens::trace {

namespace {

Tracer& active() {
  Tracer* t = Tracer::current();
  if (!t) throw std::logic_error("ExportLens SDK hook called outside a trace");
  return *t;
}

ir::SourceLocation site_location(const sdk::Site& s) {
  return SourceLocator::at(s.file, int(s.line), s.function);
}

bool hook_active() { return Tracer::current() != nullptr; }

void hook_enter_module(const torch::nn::Module& m, sdk::Site) { active().enter_module(&m); }
void hook_exit_module() { active().exit_module(); }

/// torch._check: a guard when the condition has example values, a runtime
/// assert (and range refinement) when it is data-dependent.
void check_expr(Tracer& t, const symbolic::Expr& e, const std::string& message, const ir::SourceLocation& loc,
                const std::string& rule) {
  try {
    t.env().check(e, t.user_origin(rule, loc), message);
  } catch (const symbolic::CheckFailedError& err) {
    raise_check_failed(t, err, loc);
  }
}

void hook_check(const c10::SymBool& condition, const std::string& message, sdk::Site site) {
  Tracer& t = active();
  Tracer::Internal internal(t);
  const auto loc = site_location(site);
  if (!condition.is_heap_allocated()) {
    if (!condition.as_bool_unchecked())
      raise(t, TraceError("check", "RuntimeError",
                          (message.empty() ? std::string("check failed") : message) + call_site_text(loc)));
    return;
  }
  auto* n = TraceSymNode::of(condition.toSymNodeImpl());
  if (!n) raise(t, TraceError("internal", "RuntimeError", "check() got a symbolic bool from outside the trace"));
  check_expr(t, n->expr(), message, loc, "torch._check");
}

void hook_check_is_size(const c10::SymInt& value, sdk::Site site) {
  Tracer& t = active();
  Tracer::Internal internal(t);
  const auto loc = site_location(site);
  if (!value.is_heap_allocated()) {
    if (value.as_int_unchecked() < 0)
      raise(t, TraceError("check", "RuntimeError", "check_is_size: negative size" + call_site_text(loc)));
    return;
  }
  auto* n = TraceSymNode::of(value.toSymNode());
  if (!n) raise(t, TraceError("internal", "RuntimeError", "check_is_size() got a symbolic int from outside the trace"));
  check_expr(t, symbolic::Expr::ge(n->expr(), symbolic::Expr(0)), "", loc, "torch._check_is_size");
}

sdk::Tensors hook_cond(const c10::IValue& pred, const sdk::BranchFn& on_true, const sdk::BranchFn& on_false,
                       const sdk::Tensors& operands, sdk::Site site) {
  Tracer& t = active();
  Tracer::Internal internal(t);
  return trace_cond(t, pred, on_true, on_false, operands, site_location(site));
}

sdk::Tensors hook_map(const sdk::MapBodyFn& body, const sdk::Tensors& xs, const sdk::Tensors& args, sdk::Site site) {
  Tracer& t = active();
  Tracer::Internal internal(t);
  return trace_map(t, body, xs, args, site_location(site));
}

}  // namespace

sdk::TracerHooks* tracer_hooks_table() {
  static sdk::TracerHooks hooks = [] {
    sdk::TracerHooks h;
    h.active = &hook_active;
    h.enter_module = &hook_enter_module;
    h.exit_module = &hook_exit_module;
    h.check = &hook_check;
    h.check_is_size = &hook_check_is_size;
    h.cond = &hook_cond;
    h.map = &hook_map;
    return h;
  }();
  sdk::tracer_hooks() = &hooks;  // this binary's own SDK copy (the gallery)
  return &hooks;
}

}  // namespace exportlens::trace
