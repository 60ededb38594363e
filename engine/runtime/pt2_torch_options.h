#pragma once
// What reading and writing a .pt2 take from LibTorch, in one place for the
// CLI, the GUI and the tests: op schemas from the dispatcher (argument names
// and defaults, returns), and weights stored pickled in an older archive
// (torch <= 2.8's one torch.save'd dict) turned into the raw bytes torch 2.13
// writes. The serde layer itself stays LibTorch-free.
#include "engine/ir/exported_program.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/pt2_writer.h"

namespace exportlens::runtime {

/// serde::ReadOptions with `signatures` set from the dispatcher (how files
/// without argument kinds, torch <= 2.6's, bind their arguments).
serde::ReadOptions pt2_read_options();

/// serde::WriteOptions with `signatures` and `raw_payload` set from LibTorch.
serde::WriteOptions pt2_write_options();

/// A pickled payload as raw, contiguous little-endian bytes with matching
/// metadata (sizes kept, strides contiguous). Throws std::runtime_error.
ir::TensorPayload raw_payload(const ir::TensorPayload& pickled, const std::string& key);

}  // namespace exportlens::runtime
