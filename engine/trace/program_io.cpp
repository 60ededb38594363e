#include "engine/trace/program_io.h"

#include "engine/serde/torch_save_writer.h"
#include "engine/trace/program_state.h"

namespace exportlens::trace {

ir::PyTreeSpec pytree_of(const c10::IValue& value) {
  if (value.isTuple()) {
    std::vector<ir::PyTreeSpec> children;
    for (const auto& item : value.toTupleRef().elements()) children.push_back(pytree_of(item));
    return ir::PyTreeSpec::tuple(std::move(children));
  }
  if (value.isList()) {
    std::vector<ir::PyTreeSpec> children;
    for (const auto& item : value.toListRef()) children.push_back(pytree_of(item));
    return ir::PyTreeSpec::list(std::move(children));
  }
  if (value.isGenericDict()) {
    std::vector<std::string> keys;
    std::vector<ir::PyTreeSpec> children;
    for (const auto& item : value.toGenericDict()) {
      keys.push_back(item.key().isString() ? item.key().toStringRef() : item.key().tagKind());
      children.push_back(pytree_of(item.value()));
    }
    return ir::PyTreeSpec::dict(std::move(keys), std::move(children));
  }
  return ir::PyTreeSpec::leaf();
}

// torch.save((args, {})): written by serde's torch_save (what torch.load reads
// with weights_only=True; LibTorch's own pickler tags its dicts with a global
// that weights_only refuses).
std::shared_ptr<const std::vector<std::byte>> pickled_example_inputs(const std::vector<c10::IValue>& inputs) {
  serde::SaveList args;
  for (const auto& v : inputs) {
    if (v.isTensor()) args.push_back({payload_of(v.toTensor().cpu(), false)});
    else if (v.isInt()) args.push_back({v.toInt()});
    else if (v.isDouble()) args.push_back({v.toDouble()});
    else if (v.isBool()) args.push_back({v.toBool()});
    else args.push_back({ir::None{}});
  }
  return std::make_shared<const std::vector<std::byte>>(
      serde::torch_save(serde::SaveValue::tuple({serde::SaveValue::tuple(std::move(args)), serde::SaveValue::dict({})})));
}

}  // namespace exportlens::trace
