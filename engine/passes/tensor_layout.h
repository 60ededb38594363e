#pragma once
// Strides of the tensors the passes create. Decompositions branch on layout
// exactly where LibTorch's composite kernels do (linear takes the addmm path
// only for a contiguous 3-D input, reshape is a view only when the strides
// allow it, matmul folds only foldable batches), so the new nodes need the
// strides torch's fake tensors would have: views from computeStride, pointwise
// results from TensorIterator's dimension ordering, the rest contiguous.
//
// Sizes and strides may be symbolic; comparisons use the example values
// (hints), as the trace that made the program did.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/tensor_meta.h"

namespace exportlens::passes {

using symbolic::Expr;
using Dims = std::vector<ir::SymInt>;

/// The example value of every symbol the program's inputs carry.
class Hints {
 public:
  void learn(const ir::SymInt& s);
  void learn(const ir::TensorMeta& t);
  std::optional<int64_t> of(const Expr& e) const;
  /// `e` with its example value attached.
  ir::SymInt sym(const Expr& e) const { return ir::SymInt(e, of(e)); }

  // Comparisons as a trace decides them: structurally, else by example value.
  bool eq(const ir::SymInt& a, const ir::SymInt& b) const;
  bool lt(const ir::SymInt& a, const ir::SymInt& b) const;

 private:
  std::map<std::string, int64_t> values_;
};

ir::SymInt sym_mul(const ir::SymInt& a, const ir::SymInt& b);
ir::SymInt sym_add(const ir::SymInt& a, const ir::SymInt& b);

/// Row-major strides (a size of 0 counts as 1, as in torch).
Dims contiguous_strides(const Dims& sizes);
bool is_contiguous(const Dims& sizes, const Dims& strides, const Hints& h);
bool is_non_overlapping_and_dense(const Dims& sizes, const Dims& strides, const Hints& h);

/// at::detail::computeStride: the strides of `new_sizes` viewing the
/// (sizes, strides) tensor, or nullopt when no view exists (reshape copies).
std::optional<Dims> view_strides(const Dims& sizes, const Dims& strides, const Dims& new_sizes, const Hints& h);

/// A pointwise result's strides (TensorIterator / elementwise_meta): dense,
/// with the dimension order of the operands (broadcast to `out_sizes`).
Dims elementwise_strides(const Dims& out_sizes, const std::vector<const ir::TensorMeta*>& operands,
                         const Hints& h);

/// empty_like(t, memory_format=preserve): t's strides when dense, else the
/// pointwise order.
Dims preserve_format_strides(const ir::TensorMeta& t, const Hints& h);

/// Whether torch 2.13's CPU scaled_dot_product_attention goes through
/// _scaled_dot_product_flash_attention_for_cpu (sdp_utils_cpp's checks): 4-D
/// operands of one dtype and one head size, unit last-dim strides, no
/// dropout, and an attention mask (if any) of 2 or 4 dims that broadcasts
/// without expanding a 4-D mask's batch or heads from another size
/// (check_attn_mask_shape); else it takes the math kernel.
bool sdpa_takes_cpu_flash_path(const ir::TensorMeta& q, const ir::TensorMeta& k, const ir::TensorMeta& v,
                               const ir::TensorMeta* mask, double dropout_p, const Hints& h);
/// scaled_dot_product_attention's output strides when the op itself is kept
/// (the functional lowering): the flash path's meta kernel allocates
/// empty_like(query), so the output has query's layout; the math kernel's
/// matmul makes it contiguous. (Torch's Core ATen decomposition of the flash
/// path lays its output out as (L, N, H, E) instead: decomp_attention.cpp.)
Dims attention_output_strides(const ir::TensorMeta& q, const ir::TensorMeta& k, const ir::TensorMeta& v,
                              const ir::TensorMeta* mask, double dropout_p, const Dims& out_sizes, const Hints& h);

/// suggest_memory_format() == channels_last (c10's
/// is_channels_last_strides_2d): a 4-D tensor whose strides grow in the order
/// C, W, H, N.
bool suggests_channels_last(const ir::TensorMeta& t, const Hints& h);
/// The channels-last strides of 4-D `sizes` (N, C, H, W): HWC, 1, WC, C.
Dims channels_last_strides(const Dims& sizes);
/// A convolution's output strides on the CPU (fake_impls.conv through
/// _conv_determine_backend_memory_format): channels-last when the input or
/// the weight suggests it, else contiguous.
Dims convolution_output_strides(const ir::TensorMeta& input, const ir::TensorMeta* weight, const Dims& out_sizes,
                                const Hints& h);

/// A tensor of `sizes` laid out contiguously.
ir::TensorMeta contiguous_meta(const Dims& sizes, ir::ScalarType dtype, const ir::Device& device);

}  // namespace exportlens::passes
