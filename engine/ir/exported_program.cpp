#include "engine/ir/exported_program.h"

#include <algorithm>
#include <stdexcept>

namespace exportlens::ir {
namespace {
// Stored bytes into a buffer sized for them: a mismatch is a file that changed under us.
void copy_exactly(const std::shared_ptr<const std::vector<std::byte>>& bytes, std::span<std::byte> out) {
  if (!bytes || bytes->size() != out.size())
    throw std::runtime_error("a stored payload holds " + std::to_string(bytes ? bytes->size() : 0) + " bytes, not " +
                             std::to_string(out.size()));
  std::copy(bytes->begin(), bytes->end(), out.begin());
}

const TensorPayload* find_in(const std::vector<std::pair<std::string, TensorPayload>>& list,
                             std::string_view key) {
  for (const auto& [k, v] : list)
    if (k == key) return &v;
  return nullptr;
}
}  // namespace

void PayloadSource::read_into(std::span<std::byte> out) const { copy_exactly(read(), out); }

std::shared_ptr<const std::vector<std::byte>> TensorPayload::data() const {
  if (bytes) return bytes;
  return source ? source->read() : nullptr;
}

void TensorPayload::read_into(std::span<std::byte> out) const {
  if (!bytes && source) return source->read_into(out);
  copy_exactly(bytes, out);
}

const TensorPayload* ExportedProgram::find_state(std::string_view key) const {
  return find_in(state_dict, key);
}
const TensorPayload* ExportedProgram::find_constant(std::string_view key) const {
  return find_in(constants, key);
}

}  // namespace exportlens::ir
