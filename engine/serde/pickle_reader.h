#pragma once
// The unpickler of torch.save's data.pkl, run by our rules rather than the
// pickle's. Every pickled payload ExportLens reads (inputs files, pickled
// weights and constants, old torch's weight dicts, example inputs) goes
// through it; LibTorch's unpickler never sees a file's bytes, because it
// sizes its memo and its storages by the numbers in the pickle.
//
// It builds only what a tensor archive holds — None, bools, ints, floats,
// strings, tuples, lists, string-keyed dicts and tensors — and refuses, with
// the pickle offset and the limit:
//   * opcodes and globals a tensor archive does not need (no code runs: a
//     global is looked up in a fixed table of rebuild functions),
//   * more objects than ReadLimits::max_pickle_objects, memo indices beyond
//     the objects made so far (so the memo is no bigger than they are),
//   * containers nested deeper than ReadLimits::max_nesting, cycles included,
//   * tensor views reaching past their storage (checked int64 arithmetic).
// Storages are not read here: each persistent id is handed to a loader that
// checks the record and returns a source for its bytes.
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "engine/ir/exported_program.h"
#include "engine/serde/read_limits.h"
#include "engine/serde/torch_save_writer.h"

namespace exportlens::serde {

/// What a persistent id ('storage', torch.<T>Storage, key, location, numel) asks for.
struct StorageRequest {
  std::string key;         // the record is data/<key>
  ir::ScalarType dtype;    // Byte for an untyped storage (numel counts bytes)
  int64_t numel = 0;
};

/// One storage record of the archive, checked: its exact size and a source
/// for its bytes (shared by every tensor viewing that storage).
struct PickledStorage {
  std::shared_ptr<const ir::PayloadSource> source;
  uint64_t bytes = 0;
};

/// Checks the record a persistent id names; throws ArchiveError saying why
/// (the reader adds the payload and the offset).
using StorageLoader = std::function<PickledStorage(const StorageRequest&)>;

/// Runs the pickle and returns its value. Tensors are TensorPayloads whose
/// meta is the pickled view and whose source is their storage's; a tensor
/// that was a fake tensor when torch exported it (torch <= 2.8's
/// _reconstruct_fake_tensor) has empty bytes, as 2.13 writes one.
/// `where` names the payload ("in.pt: archive/data.pkl"). Throws ArchiveError.
SaveValue read_pickle(std::span<const std::byte> pickle, const std::string& where, const ReadLimits& limits,
                      const StorageLoader& storage);

}  // namespace exportlens::serde
