#include "engine/passes/core_aten_ops.h"

#include <algorithm>

#include "engine/passes/op_call.h"

namespace exportlens::passes {

namespace {

// The 191 overloads torch 2.13 tags torch.Tag.core, sorted (avg_pool1d and
// adaptive_avg_pool1d among them, though the default table decomposes them). Checked
// against torch by tests/passes (the oracle writes torch's list).
constexpr std::string_view kCoreAtenOps[] = {
    "aten._adaptive_avg_pool2d.default", "aten._adaptive_avg_pool2d_backward.default",
    "aten._adaptive_avg_pool3d.default", "aten._cdist_forward.default", "aten._embedding_bag.default",
    "aten._fft_c2r.default", "aten._fft_r2c.default", "aten._local_scalar_dense.default",
    "aten._log_softmax.default", "aten._native_batch_norm_legit.default",
    "aten._native_batch_norm_legit.no_stats", "aten._native_batch_norm_legit_no_training.default",
    "aten._pdist_forward.default", "aten._softmax.default", "aten._to_copy.default", "aten.abs.default",
    "aten.acos.default", "aten.acosh.default", "aten.adaptive_avg_pool1d.default", "aten.add.Scalar",
    "aten.add.Tensor", "aten.addmm.default", "aten.alias.default", "aten.amax.default", "aten.amin.default",
    "aten.any.default", "aten.any.dim", "aten.any.dims", "aten.arange.start_step", "aten.argmax.default",
    "aten.argmin.default", "aten.as_strided.default", "aten.asin.default", "aten.asinh.default",
    "aten.atan.default", "aten.atan2.default", "aten.atan2.out", "aten.atanh.default",
    "aten.avg_pool1d.default", "aten.avg_pool2d.default", "aten.avg_pool2d_backward.default",
    "aten.avg_pool3d.default", "aten.bitwise_and.Scalar", "aten.bitwise_and.Tensor",
    "aten.bitwise_not.default", "aten.bitwise_or.Scalar", "aten.bitwise_or.Tensor", "aten.bitwise_xor.Scalar",
    "aten.bitwise_xor.Tensor", "aten.bmm.default", "aten.cat.default", "aten.ceil.default",
    "aten.clamp.Tensor", "aten.clamp.default", "aten.clone.default", "aten.col2im.default",
    "aten.constant_pad_nd.default", "aten.convolution.default", "aten.convolution_backward.default",
    "aten.copy.default", "aten.cos.default", "aten.cosh.default", "aten.cumsum.default",
    "aten.diagonal.default", "aten.div.Scalar", "aten.div.Scalar_mode", "aten.div.Tensor",
    "aten.div.Tensor_mode", "aten.elu.default", "aten.embedding.default",
    "aten.embedding_dense_backward.default", "aten.empty.memory_format", "aten.empty_strided.default",
    "aten.eq.Scalar", "aten.eq.Tensor", "aten.erf.default", "aten.exp.default", "aten.expand.default",
    "aten.expm1.default", "aten.fill.Scalar", "aten.flip.default", "aten.floor.default", "aten.fmod.Scalar",
    "aten.fmod.Tensor", "aten.full.default", "aten.full_like.default", "aten.gather.default",
    "aten.ge.Scalar", "aten.ge.Tensor", "aten.gelu.default", "aten.grid_sampler_2d.default", "aten.gt.Scalar",
    "aten.gt.Tensor", "aten.hardtanh.default", "aten.index.Tensor", "aten.index_put.default",
    "aten.index_select.default", "aten.isinf.default", "aten.isnan.default", "aten.le.Scalar",
    "aten.le.Tensor", "aten.leaky_relu.default", "aten.log.default", "aten.log10.default",
    "aten.log1p.default", "aten.log2.default", "aten.logical_and.default", "aten.logical_not.default",
    "aten.logical_or.default", "aten.logical_xor.default", "aten.lt.Scalar", "aten.lt.Tensor",
    "aten.masked_scatter.default", "aten.max.dim", "aten.max_pool2d_with_indices.default",
    "aten.max_pool2d_with_indices_backward.default", "aten.max_pool3d_with_indices.default",
    "aten.maximum.default", "aten.mean.default", "aten.mean.dim", "aten.min.dim", "aten.minimum.default",
    "aten.mm.default", "aten.mul.Scalar", "aten.mul.Tensor", "aten.native_dropout.default",
    "aten.native_group_norm.default", "aten.native_group_norm_backward.default",
    "aten.native_layer_norm.default", "aten.native_layer_norm_backward.default", "aten.ne.Scalar",
    "aten.ne.Tensor", "aten.neg.default", "aten.nonzero.default", "aten.permute.default", "aten.pow.Scalar",
    "aten.pow.Tensor_Scalar", "aten.pow.Tensor_Tensor", "aten.prod.default", "aten.prod.dim_int",
    "aten.rand.default", "aten.randn.default", "aten.randperm.default", "aten.reciprocal.default",
    "aten.reflection_pad1d.default", "aten.reflection_pad2d.default", "aten.reflection_pad3d.default",
    "aten.relu.default", "aten.remainder.Scalar", "aten.remainder.Tensor", "aten.repeat.default",
    "aten.replication_pad2d.default", "aten.replication_pad3d.default", "aten.round.default",
    "aten.rsqrt.default", "aten.scalar_tensor.default", "aten.scatter.src", "aten.scatter.value",
    "aten.scatter_add.default", "aten.scatter_reduce.two", "aten.select.int", "aten.select_scatter.default",
    "aten.sigmoid.default", "aten.sign.default", "aten.sin.default", "aten.sinh.default", "aten.slice.Tensor",
    "aten.slice_scatter.default", "aten.sort.default", "aten.split_with_sizes.default", "aten.sqrt.default",
    "aten.squeeze.dim", "aten.squeeze.dims", "aten.sub.Scalar", "aten.sub.Tensor", "aten.sum.dim_IntList",
    "aten.sym_numel.default", "aten.sym_size.int", "aten.sym_storage_offset.default", "aten.sym_stride.int",
    "aten.tan.default", "aten.tanh.default", "aten.topk.default", "aten.trunc.default",
    "aten.unsqueeze.default", "aten.upsample_bilinear2d.vec", "aten.upsample_nearest2d.vec",
    "aten.var.correction", "aten.var.dim", "aten.view.default", "aten.where.self",
};

/// Functional forms of core ops that mutate, and what an exported graph
/// holds besides ATen ops: these stay in Core ATen programs too.
constexpr std::string_view kAlsoAllowed[] = {
    "aten._native_batch_norm_legit_functional.default",  // functional _native_batch_norm_legit
    "aten._assert_scalar.default",
    "aten._assert_tensor_metadata.default",
    "aten.sym_constrain_range_for_size.default",
    "aten.sym_constrain_range.default",
};

}  // namespace

const std::vector<std::string>& core_aten_ops() {
  static const std::vector<std::string> ops(std::begin(kCoreAtenOps), std::end(kCoreAtenOps));
  return ops;
}

bool is_core_aten_op(std::string_view key) {
  return std::binary_search(std::begin(kCoreAtenOps), std::end(kCoreAtenOps), key);
}

bool allowed_in_core_ir(const ir::Target& target) {
  if (!target.is_torch_op()) return true;  // getitem, operators on SymInts, higher-order ops
  const std::string key = op_key(target);
  if (target.op_namespace() != "aten") return true;  // custom ops are not decomposed
  if (is_core_aten_op(key)) return true;
  return std::find(std::begin(kAlsoAllowed), std::end(kAlsoAllowed), key) != std::end(kAlsoAllowed);
}

}  // namespace exportlens::passes
