#include "engine/numerics/data_movement.h"

#include <string_view>
#include <unordered_map>

namespace exportlens::numerics {

Movement movement_of(const ir::Node& node) {
  if (node.op != ir::OpKind::CallFunction) return Movement::None;
  // A tuple's element (a split's piece, a getitem of a movement op's tuple).
  if (node.target.is_getitem()) return Movement::Selects;
  static const std::unordered_map<std::string_view, Movement> table = {
      // The row-major sequence stays: a new shape, a copy, an alias.
      {"aten.view.default", Movement::KeepsOrder},
      {"aten._unsafe_view.default", Movement::KeepsOrder},
      {"aten.view_copy.default", Movement::KeepsOrder},
      {"aten.reshape.default", Movement::KeepsOrder},
      {"aten._reshape_copy.default", Movement::KeepsOrder},
      {"aten.flatten.using_ints", Movement::KeepsOrder},
      {"aten.unflatten.int", Movement::KeepsOrder},
      {"aten.squeeze.default", Movement::KeepsOrder},
      {"aten.squeeze.dim", Movement::KeepsOrder},
      {"aten.squeeze.dims", Movement::KeepsOrder},
      {"aten.squeeze_copy.default", Movement::KeepsOrder},
      {"aten.squeeze_copy.dim", Movement::KeepsOrder},
      {"aten.squeeze_copy.dims", Movement::KeepsOrder},
      {"aten.unsqueeze.default", Movement::KeepsOrder},
      {"aten.unsqueeze_copy.default", Movement::KeepsOrder},
      {"aten.clone.default", Movement::KeepsOrder},
      {"aten.contiguous.default", Movement::KeepsOrder},
      {"aten.alias.default", Movement::KeepsOrder},
      {"aten.alias_copy.default", Movement::KeepsOrder},
      {"aten.detach.default", Movement::KeepsOrder},
      {"aten.detach_copy.default", Movement::KeepsOrder},
      {"aten.lift_fresh_copy.default", Movement::KeepsOrder},
      // Another order, a part, or repeats of the input's elements.
      {"aten.permute.default", Movement::Selects},
      {"aten.permute_copy.default", Movement::Selects},
      {"aten.transpose.int", Movement::Selects},
      {"aten.transpose_copy.int", Movement::Selects},
      {"aten.t.default", Movement::Selects},
      {"aten.t_copy.default", Movement::Selects},
      {"aten.movedim.int", Movement::Selects},
      {"aten.expand.default", Movement::Selects},
      {"aten.expand_copy.default", Movement::Selects},
      {"aten.slice.Tensor", Movement::Selects},
      {"aten.slice_copy.Tensor", Movement::Selects},
      {"aten.select.int", Movement::Selects},
      {"aten.select_copy.int", Movement::Selects},
      {"aten.narrow.default", Movement::Selects},
      {"aten.split.Tensor", Movement::Selects},
      {"aten.split_with_sizes.default", Movement::Selects},
      {"aten.split_copy.Tensor", Movement::Selects},
      {"aten.split_with_sizes_copy.default", Movement::Selects},
      {"aten.unbind.int", Movement::Selects},
      {"aten.chunk.default", Movement::Selects},
      {"aten.diagonal.default", Movement::Selects},
      {"aten.unfold.default", Movement::Selects},
  };
  // "torch.ops.aten.view.default": its op key after the prefix (ir::op_key, without building a string).
  constexpr std::string_view prefix = "torch.ops.";
  const std::string_view qualified = node.target.qualified();
  if (!qualified.starts_with(prefix)) return Movement::None;
  const auto it = table.find(qualified.substr(prefix.size()));
  return it == table.end() ? Movement::None : it->second;
}

}  // namespace exportlens::numerics
