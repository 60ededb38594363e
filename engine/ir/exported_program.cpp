#include "engine/ir/exported_program.h"

namespace exportlens::ir {
namespace {
const TensorPayload* find_in(const std::vector<std::pair<std::string, TensorPayload>>& list,
                             std::string_view key) {
  for (const auto& [k, v] : list)
    if (k == key) return &v;
  return nullptr;
}
}  // namespace

std::shared_ptr<const std::vector<std::byte>> TensorPayload::data() const {
  if (bytes) return bytes;
  return source ? source->read() : nullptr;
}

const TensorPayload* ExportedProgram::find_state(std::string_view key) const {
  return find_in(state_dict, key);
}
const TensorPayload* ExportedProgram::find_constant(std::string_view key) const {
  return find_in(constants, key);
}

}  // namespace exportlens::ir
