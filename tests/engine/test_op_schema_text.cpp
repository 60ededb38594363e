// The schema text reader (ir/op_schema_text.h), which reads the schemas
// ExportLens' Python helpers record for Python-registered ops: every schema
// LibTorch's dispatcher registers, printed as torch prints it, reads as the
// dispatcher's own FunctionSchema says (argument names, keyword-only,
// list kinds, defaults, alias writes, returns); texts that are no schema are refused.
#include <ATen/core/dispatch/Dispatcher.h>

#include <sstream>
#include <string>
#include <vector>

#include "engine/ir/op_schema_text.h"
#include "engine/runtime/op_signatures.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;

namespace {

std::string default_text(const std::optional<ir::Argument>& v) { return v ? ir::argument_text(*v) : "(none)"; }

/// What differs between the dispatcher's signature and the parsed one (empty: nothing).
std::string difference(const ir::OpSignature& want, const ir::OpSignature& got, const c10::FunctionSchema& schema) {
  if (want.arguments.size() != got.arguments.size())
    return std::to_string(got.arguments.size()) + " arguments, want " + std::to_string(want.arguments.size());
  for (size_t i = 0; i < want.arguments.size(); ++i) {
    const auto &w = want.arguments[i], &g = got.arguments[i];
    const std::string at = "argument " + w.name + ": ";
    if (w.name != g.name) return at + "named " + g.name;
    if (w.kwarg_only != g.kwarg_only) return at + "keyword-only differs";
    if (w.list != g.list) return at + "list kind differs";
    if (w.writes != g.writes) return at + "alias write differs";
    if (w.has_default != g.has_default) return at + "has_default differs";
    // A default the dispatcher holds as an enum's number (contiguous_format,
    // long, strided) is no plain value to the text reader: left out.
    const c10::TypePtr type = schema.arguments()[i].real_type();
    const bool enum_typed = type->str().find("ScalarType") != std::string::npos ||
                            type->str().find("MemoryFormat") != std::string::npos ||
                            type->str().find("Layout") != std::string::npos;
    if (enum_typed && !g.default_value) continue;
    if (default_text(w.default_value) != default_text(g.default_value))
      return at + "default " + default_text(g.default_value) + ", want " + default_text(w.default_value);
  }
  if (want.returns != got.returns) return "returns differ";
  return {};
}

}  // namespace

EL_TEST(every_registered_schema_reads_as_the_dispatcher_says) {
  const auto lookup = runtime::dispatcher_signatures();
  int read = 0;
  std::vector<std::string> wrong;
  for (const auto& name : c10::Dispatcher::singleton().getAllOpNames()) {
    const auto op = c10::Dispatcher::singleton().findOp(name);
    if (!op || !op->hasSchema()) continue;
    const c10::FunctionSchema& schema = op->schema();
    if (schema.is_vararg() || schema.is_varret()) continue;  // `...`: static_runtime's, no op a program calls
    std::ostringstream text;
    text << schema;
    const std::string dispatcher_name = name.overload_name.empty() ? name.name : name.name + "." + name.overload_name;
    const auto want = lookup(dispatcher_name);
    if (!want) continue;
    const auto parsed = ir::parse_op_schema(text.str());
    std::string why;
    if (!parsed) why = "not read";
    else if (parsed->name != dispatcher_name) why = "named " + parsed->name;
    else why = difference(*want, parsed->signature, schema);
    if (!why.empty()) wrong.push_back(text.str() + ": " + why);
    ++read;
  }
  info(std::to_string(read) + " schemas read, " + std::to_string(wrong.size()) + " differ");
  for (size_t i = 0; i < wrong.size() && i < 8; ++i) info(wrong[i]);
  VERIFY(read > 2000);
  VERIFY(wrong.empty());
}

EL_TEST(custom_op_schemas_as_torch_library_prints_them) {
  // torch.library.custom_op("mylib::scale_", mutates_args=("state",)): str(op._schema).
  auto scale = ir::parse_op_schema("exportlens_corpus::scale_(Tensor(a0!) state, float factor) -> ()");
  VERIFY(scale);
  COMPARE(scale->name, std::string("exportlens_corpus::scale_"));
  COMPARE(scale->signature.arguments.size(), size_t(2));
  VERIFY(scale->signature.arguments[0].writes);
  VERIFY(!scale->signature.arguments[1].writes);
  VERIFY(scale->signature.returns.empty());

  auto lists = ir::parse_op_schema(
      "mylib::accumulate.out(Tensor(a0!)[] totals, Tensor x, *, float weight=1., str mode=\"sum\", int[2] k=3) -> "
      "(Tensor values, Tensor(a0!)[] totals)");
  VERIFY(lists);
  COMPARE(lists->name, std::string("mylib::accumulate.out"));
  const auto& a = lists->signature.arguments;
  COMPARE(a.size(), size_t(5));
  VERIFY(a[0].writes && a[0].list == ir::ListKind::Tensor && !a[0].kwarg_only);
  VERIFY(!a[1].writes && a[1].list == ir::ListKind::Unknown);
  VERIFY(a[2].kwarg_only && a[2].has_default);
  COMPARE(default_text(a[2].default_value), std::string("1.0"));
  COMPARE(default_text(a[3].default_value), std::string("'sum'"));
  COMPARE(default_text(a[4].default_value), std::string("[3, 3]"));
  VERIFY((lists->signature.returns == std::vector{ir::ReturnKind::Tensor, ir::ReturnKind::TensorList}));
}

EL_TEST(texts_that_are_no_schema_are_refused) {
  for (const char* text : {"", "mylib::f", "mylib::f(Tensor x", "mylib::f(Tensor x) ->", "mylib::f(Tensor x)",
                           "f(Tensor x) -> Tensor", "mylib::f(Tensor) -> Tensor", "mylib::f(Tensor x]) -> Tensor",
                           "mylib::f(Tensor x, str s=\"a) -> Tensor", "mylib::f(Tensor 1x) -> Tensor"})
    VERIFY_MSG(!ir::parse_op_schema(text), std::string("read: ") + text);
}
