#pragma once
// Weights and constants a .pt2 stores pickled: one torch.save'd tensor per
// entry (`use_pickle` in a payload config) or, up to torch 2.8, every weight
// in one torch.save'd dict. Each is read with torch_load (our unpickler, the
// .pt2's limits) and becomes a raw payload: the declared metadata over the
// pickled tensor's storage, whose source reads the storage record. The
// runtime, the writer and value previews see raw payloads only, and no
// pickle reaches LibTorch.
#include <memory>
#include <string>

#include "engine/ir/exported_program.h"
#include "engine/serde/archive_weights.h"
#include "engine/serde/read_limits.h"
#include "engine/serde/torch_save_writer.h"

namespace exportlens::serde {

/// `declared` (the payload config's or the placeholder's metadata) stored as
/// the pickled `value`: it must be a tensor with the declared dtype, sizes,
/// strides and storage offset. A fake tensor (no data) keeps `declared` and
/// reads as empty, as torch 2.13 writes one. `what` names it ("weight 'w'")
/// in the ArchiveError thrown otherwise.
ir::TensorPayload pickled_payload(const SaveValue& value, const ir::TensorPayload& declared, const std::string& what);

/// The source of a `use_pickle` entry of a program opened without its
/// weights: reads the entry, unpickles it and reads its storage when asked.
std::shared_ptr<const ir::PayloadSource> pickled_entry_source(std::shared_ptr<ArchiveWeights> weights,
                                                              std::string entry, ir::TensorPayload declared,
                                                              std::string what, const ReadLimits& limits);

}  // namespace exportlens::serde
