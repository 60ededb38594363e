#pragma once
// One AOTInductor compiled model as its package stores it: the wrapper's
// metadata, its inputs, outputs and constants (read from the wrapper's C++,
// which is where inductor writes them), its sources, and the kernels the
// wrapper launches with the program nodes each was made from. Reading it never
// loads the shared library.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace exportlens::compiled {

/// A file of the compiled model, as the package stores it.
struct SourceFile {
  std::string entry;  // the archive entry, "model/data/aotinductor/model/c1x….wrapper.cpp"
  std::string role;   // "wrapper", "kernel", "metadata", "provenance", "library", "weights", "other"
  uint64_t size = 0;  // inflated bytes
  bool is_text() const { return role == "wrapper" || role == "kernel" || role == "metadata" || role == "provenance"; }
};

/// A constant (weight, buffer, lifted tensor) the compiled model holds.
struct ConstantInfo {
  std::string name;          // the wrapper's name, "l_weight"
  std::string original_fqn;  // the module's, "l.weight"
  std::string dtype;         // "float32"
  std::string type;          // "Parameter", "Buffer", "TensorConstant", "FoldedConstant", "Unknown"
  std::vector<int64_t> shape, stride;
  uint64_t data_size = 0;    // bytes
  bool from_folded = false;
};

/// A kernel the wrapper launches (an inductor-generated one: cpp_fused_*,
/// triton_*; or an ATen fallback: aoti_torch_cpu_addmm_out) and what it was made from.
struct Kernel {
  std::string name;    // "cpp_fused_add_relu_sin_1"
  std::string handle;  // inductor's provenance debug handle, "cpp_fused_add_relu_sin_1:3"; "" without one
  std::vector<std::string> nodes;            // the program's node names it computes (pre-grad nodes)
  std::vector<std::string> post_grad_nodes;  // inductor's post-grad graph names, as provenance says them
  std::vector<std::string> stack_traces;     // user stacks, as provenance says them
  /// How `nodes` is known: "provenance" (kernel_information.json), "source comment"
  /// (the wrapper's "Topologically Sorted Source Nodes" line), "" (not known).
  std::string mapped_by;
  std::string wrapper_entry;  // where the wrapper launches it, and on which line (1-based, 0 unknown)
  int wrapper_line = 0;
  std::string defined_in;     // the source entry defining it ("" for ATen fallbacks), and its line
  int definition_line = 0;
};

struct CompiledModel {
  std::string name;    // "model"
  std::string folder;  // "model/data/aotinductor/model/"
  /// wrapper_metadata.json: AOTI_DEVICE_KEY, AOTI_PLATFORM, AOTI_MACHINE, AOTI_CPU_ISA, AOTI_COMPUTE_CAPABILITY, ...
  std::map<std::string, std::string> metadata;
  std::string device;  // metadata's AOTI_DEVICE_KEY: "cpu", "cuda"
  std::vector<std::string> inputs, outputs;  // their names in the wrapper (inputs_info_, outputs_info_)
  std::string in_spec, out_spec;             // the pytree specs, as the wrapper stores them (JSON text)
  std::vector<ConstantInfo> constants;
  std::vector<SourceFile> files;
  std::vector<Kernel> kernels;  // in launch order (provenance order where there is no wrapper)
  bool has_provenance = false;  // kernel_information.json was present and read
  bool constants_in_library = true;  // weights live in the .so (no separate weights entries)
  /// What the reader could not read and left out, one line each (lenient reading).
  std::vector<std::string> notes;

  const SourceFile* wrapper() const;  // the wrapper .cpp, or nullptr
  std::vector<const SourceFile*> libraries() const;  // the shared libraries (never loaded by reading)
};

}  // namespace exportlens::compiled
