#pragma once
// How much a file may make ExportLens read, inflate, nest and allocate. A
// downloaded .pt2 is untrusted input: every bound here is checked before the
// memory or the recursion it guards is spent. The defaults are far above what
// torch.export writes; a user with a bigger honest file raises them
// (`--limit KEY=VALUE` on the command line, see set_limit()).
#include <cstdint>
#include <string>

namespace exportlens::serde {

struct ReadLimits {
  /// Inflated size of one archive entry (a weight file, the program JSON).
  uint64_t max_entry_bytes = uint64_t(8) << 30;
  /// Inflated size of all entries read from one archive together.
  uint64_t max_total_bytes = uint64_t(32) << 30;
  /// Inflated / compressed size of a deflated entry (deflate's own maximum is
  /// about 1032; torch stores entries uncompressed).
  uint64_t max_compression_ratio = 200;
  /// Nesting of JSON arrays/objects, of subgraphs inside subgraphs, and of
  /// pickled tuples/lists/dicts.
  int max_nesting = 256;
  /// Objects one pickle may make (values, containers, tensors; its memo is
  /// bounded by them too): a tensor archive makes a few per tensor.
  uint64_t max_pickle_objects = 1'000'000;
  /// Nodes over the program's graph and all its subgraphs.
  uint64_t max_nodes = 2'000'000;
  /// Bytes `run --random` may allocate for inputs it makes from the signature.
  uint64_t max_input_bytes = uint64_t(4) << 30;
  /// Bytes a run may hold on the CPU at once (what its ops allocate), and the
  /// most one node's declared outputs may reach: 3/4 of this machine's memory.
  uint64_t max_run_bytes = default_run_bytes();
  /// Inflated size of one source file of a compiled model (its wrapper or
  /// kernel C++, read to list its kernels or to show it).
  uint64_t max_source_bytes = uint64_t(256) << 20;

  static uint64_t default_run_bytes();
};

/// Sets one limit from `key=value` text (keys: entry-bytes, total-bytes, ratio,
/// nesting, pickle-objects, nodes, input-bytes, run-bytes, source-bytes; byte values take K/M/G suffixes). Throws
/// std::invalid_argument naming the key or value that is wrong.
void set_limit(ReadLimits& limits, const std::string& key_equals_value);

/// The keys set_limit() accepts, with their defaults, one per line (for --help).
std::string describe_limits();

}  // namespace exportlens::serde
