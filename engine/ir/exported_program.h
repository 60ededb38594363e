#pragma once
// The whole program: graph module, signature, weights and constants, range
// constraints, module call graph and the archive's provenance facts.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/ir/graph.h"
#include "engine/ir/graph_signature.h"
#include "engine/ir/op_schema_text.h"
#include "engine/ir/op_signature.h"
#include "engine/ir/range_constraints.h"

namespace exportlens::ir {

/// Where a payload's bytes can be read from when they are needed (an entry
/// of the .pt2 the program was opened from without reading its weights).
class PayloadSource {
 public:
  virtual ~PayloadSource() = default;
  /// The stored bytes, read now; throws std::runtime_error naming the file and entry.
  virtual std::shared_ptr<const std::vector<std::byte>> read() const = 0;
  /// The same into `out`, which holds exactly the stored size: a source that
  /// can fill a buffer the caller allocated (a tensor) reads no copy.
  virtual void read_into(std::span<std::byte> out) const;
  /// Bytes read so far from the file this source reads (all its sources together).
  virtual uint64_t bytes_read() const = 0;
};

/// A tensor's bytes as stored, with its metadata. It becomes a LibTorch
/// tensor only in the runtime; the IR never depends on LibTorch.
struct TensorPayload {
  TensorMeta meta;
  /// The storage's raw little-endian elements, which meta's sizes, strides
  /// and offset view (a pickled payload is read into this form by serde),
  /// when they were read with the program; else null and `source` reads them.
  std::shared_ptr<const std::vector<std::byte>> bytes;
  std::shared_ptr<const PayloadSource> source;
  /// The stored size in bytes, known without reading them (0 when unknown).
  uint64_t stored_size = 0;
  bool is_parameter = false;

  /// The bytes: those read with the program, else read from `source` now
  /// (what a run, a value preview or a save calls). Null when there are none.
  std::shared_ptr<const std::vector<std::byte>> data() const;
  /// The bytes into `out` (exactly the stored size), without a copy where the source can.
  void read_into(std::span<std::byte> out) const;
  /// Whether the bytes can be had (read already or readable on demand).
  bool has_data() const { return bytes || source; }
};

struct ModuleCallEntry {
  std::string fqn;
  bool has_signature = false;
  std::vector<std::string> forward_arg_names;
  std::string in_spec;   // pytree spec text as stored
  std::string out_spec;
};

struct ExportedProgram {
  std::string name = "model";  // the archive's model name
  GraphModule graph_module;
  GraphSignature signature;
  std::vector<std::pair<std::string, TensorPayload>> state_dict;  // parameters and buffers
  std::vector<std::pair<std::string, TensorPayload>> constants;   // lifted tensor constants
  RangeConstraints range_constraints;
  std::vector<ModuleCallEntry> module_call_graph;
  std::vector<std::string> verifiers;  // "TRAINING", ...
  std::vector<std::string> guards_code;
  int schema_major = 0;
  int schema_minor = 0;
  std::string torch_version;
  /// torch.save((args, kwargs)) of the example inputs (ep.example_inputs), as
  /// the archive held them or the tracer made them; null when unknown.
  std::shared_ptr<const std::vector<std::byte>> example_inputs;
  /// What the file's nodes said about each op they call (argument names,
  /// returns): writing the program back needs it for ops this process lacks.
  OpSignatureMap file_signatures;
  /// Schemas of Python-registered ops that ExportLens' Python helpers recorded
  /// beside the program (serde/recorded_op_schemas.h), as text; their
  /// signatures are in file_signatures.
  std::vector<RecordedOpSchema> recorded_op_schemas;

  const TensorPayload* find_state(std::string_view key) const;
  const TensorPayload* find_constant(std::string_view key) const;
  Graph& graph() { return graph_module.graph; }
  const Graph& graph() const { return graph_module.graph; }
};

}  // namespace exportlens::ir
