#pragma once
// Fake tensors: TensorImpls without storage on the PrivateUse1 backend, so
// every op on them reaches the tracer's kernels and nothing is computed. Each
// carries the graph node that produced it and its symbolic shape; LibTorch
// sees concrete example ("hint") sizes, model code asking for sym_sizes()
// gets symbolic ints, and model code reading sizes() as plain integers
// specializes those dimensions (reported with the model's source line).
#include <ATen/core/Tensor.h>
#include <c10/core/TensorImpl.h>

#include <vector>

#include "engine/ir/node.h"
#include "engine/ops/sym_value.h"

namespace exportlens::trace {

class Tracer;

class FakeTensorImpl final : public c10::TensorImpl {
 public:
  /// `hint_sizes` are what LibTorch sees; `sym` is the symbolic truth.
  FakeTensorImpl(uint64_t trace_id, ir::Node* node, ops::SymTensor sym, const std::vector<int64_t>& hint_sizes,
                 c10::ScalarType dtype);

  uint64_t trace_id() const { return trace_id_; }
  ir::Node* node() const { return node_; }
  void set_node(ir::Node* n) { node_ = n; }
  const ops::SymTensor& sym() const { return sym_; }

  /// The fake behind `t`, or nullptr for real (or undefined) tensors.
  static FakeTensorImpl* of(const at::Tensor& t);

  // Sizes as model code sees them.
  c10::IntArrayRef sizes_custom() const override;
  int64_t size_custom(int64_t d) const override;
  c10::SymIntArrayRef sym_sizes_custom() const override;
  c10::SymInt sym_size_custom(int64_t d) const override;
  int64_t numel_custom() const override;
  c10::SymInt sym_numel_custom() const override;
  int64_t dim_custom() const override;
  c10::IntArrayRef strides_custom() const override;
  c10::SymIntArrayRef sym_strides_custom() const override;
  int64_t storage_offset_custom() const override;
  c10::SymInt sym_storage_offset_custom() const override;
  c10::SymBool sym_is_contiguous_custom(at::MemoryFormat format) const override;
  bool is_strides_like_custom(at::MemoryFormat format) const override;
  c10::SymBool sym_is_non_overlapping_and_dense_custom() const override;
  c10::Device device_custom() const override;
  c10::Layout layout_custom() const override;

  c10::intrusive_ptr<c10::TensorImpl> shallow_copy_and_detach(const c10::VariableVersion& version_counter,
                                                              bool allow_tensor_metadata_change) const override;
  c10::intrusive_ptr<c10::TensorImpl> shallow_copy_and_detach(c10::VariableVersion&& version_counter,
                                                              bool allow_tensor_metadata_change) const override;
  void shallow_copy_from(const c10::intrusive_ptr<c10::TensorImpl>& impl) override;

 private:
  const char* tensorimpl_type_name() const override { return "exportlens::trace::FakeTensorImpl"; }
  /// Model code read dims [begin, end) as plain integers.
  void specialize(int64_t begin, int64_t end) const;
  c10::intrusive_ptr<FakeTensorImpl> copy() const;

  uint64_t trace_id_;
  ir::Node* node_;
  ops::SymTensor sym_;
  mutable std::vector<c10::SymInt> sym_sizes_;    // built on first request
  mutable std::vector<c10::SymInt> sym_strides_;
};

}  // namespace exportlens::trace
