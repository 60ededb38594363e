#pragma once
// The whole program: graph module, signature, weights and constants, range
// constraints, module call graph and the archive's provenance facts.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/ir/graph.h"
#include "engine/ir/graph_signature.h"
#include "engine/ir/op_signature.h"
#include "engine/ir/range_constraints.h"

namespace exportlens::ir {

/// A tensor's bytes as stored, with its metadata. It becomes a LibTorch
/// tensor only in the runtime; the IR never depends on LibTorch.
struct TensorPayload {
  TensorMeta meta;
  std::shared_ptr<const std::vector<std::byte>> bytes;
  /// true: `bytes` is a torch.save archive (the .pt2 stored it pickled);
  /// false: raw little-endian elements laid out by meta.strides.
  bool pickled = false;
  /// Non-empty: `bytes` is a torch.save'd dict of several tensors (the one
  /// weights file of torch <= 2.8's archives) and this is the payload's key in it.
  std::string pickled_key;
  bool is_parameter = false;
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

  const TensorPayload* find_state(std::string_view key) const;
  const TensorPayload* find_constant(std::string_view key) const;
  Graph& graph() { return graph_module.graph; }
  const Graph& graph() const { return graph_module.graph; }
};

}  // namespace exportlens::ir
