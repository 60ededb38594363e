#pragma once
// Checks a torch.save archive (inputs files, pickled weights) before LibTorch
// unpickles it. LibTorch's unpickler runs no Python, but it trusts the
// pickle's numbers: a storage declaring more elements than its record holds,
// or 10^5 nested tuples, crash it or the code that walks the result. This
// scan reads the pickle's opcodes without building anything and refuses
//   * opcodes torch.save does not write,
//   * containers nested deeper than the read limits allow,
//   * storages whose record is missing or shorter than their element count
//     times the element size of their type (checked arithmetic).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/serde/read_limits.h"

namespace exportlens::serde {

/// Throws ArchiveError naming `label`, the entry and the pickle offset.
void check_torch_save(std::shared_ptr<const std::vector<std::byte>> bytes, const std::string& label,
                      const ReadLimits& limits = {});

}  // namespace exportlens::serde
