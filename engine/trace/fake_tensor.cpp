#include "engine/trace/fake_tensor.h"

#include <c10/core/ScalarTypeToTypeMeta.h>

#include "engine/trace/tracer.h"

namespace exportlens::trace {

namespace {

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> s(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;) s[i - 1] = s[i] * std::max<int64_t>(sizes[i], 1);
  return s;
}

}  // namespace

FakeTensorImpl::FakeTensorImpl(uint64_t trace_id, ir::Node* node, ops::SymTensor sym,
                               const std::vector<int64_t>& hint_sizes, c10::ScalarType dtype)
    : c10::TensorImpl(c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), c10::scalarTypeToTypeMeta(dtype),
                      c10::Device(c10::DeviceType::PrivateUse1, 0)),
      trace_id_(trace_id),
      node_(node),
      sym_(std::move(sym)) {
  sizes_and_strides_.set_sizes(hint_sizes);
  sizes_and_strides_.set_strides(contiguous_strides(hint_sizes));
  refresh_numel();
  set_custom_sizes_strides(SizesStridesPolicy::CustomSizes);
  set_custom_device(true);
  set_custom_layout(true);
  set_storage_access_should_throw();
}

FakeTensorImpl* FakeTensorImpl::of(const at::Tensor& t) {
  if (!t.defined()) return nullptr;
  return dynamic_cast<FakeTensorImpl*>(t.unsafeGetTensorImpl());
}

void FakeTensorImpl::specialize(int64_t begin, int64_t end) const {
  Tracer* t = Tracer::current();
  if (!t || t->id() != trace_id_ || !t->in_model_code()) return;
  for (int64_t d = begin; d < end && size_t(d) < sym_.sizes.size(); ++d) t->specialize(sym_.sizes[size_t(d)]);
}

c10::IntArrayRef FakeTensorImpl::sizes_custom() const {
  specialize(0, int64_t(sym_.sizes.size()));
  return sizes_and_strides_.sizes_arrayref();
}

int64_t FakeTensorImpl::size_custom(int64_t d) const {
  d = c10::maybe_wrap_dim(d, int64_t(sym_.sizes.size()), /*wrap_scalar=*/false);
  specialize(d, d + 1);
  return sizes_and_strides_.size_at_unchecked(size_t(d));
}

c10::SymIntArrayRef FakeTensorImpl::sym_sizes_custom() const {
  if (sym_sizes_.size() != sym_.sizes.size()) {
    Tracer* t = Tracer::current();
    sym_sizes_.clear();
    for (size_t d = 0; d < sym_.sizes.size(); ++d) {
      const auto& e = sym_.sizes[d];
      if (auto v = e.as_integer(); v || !t || t->id() != trace_id_) {
        sym_sizes_.emplace_back(v.value_or(sizes_and_strides_.size_at_unchecked(d)));
        continue;
      }
      SymRecipe r;
      r.kind = SymRecipe::Kind::SizeOf;
      r.node = node_;
      r.dim = int64_t(d);
      sym_sizes_.push_back(t->sym_int(e, std::move(r)));
    }
  }
  return c10::SymIntArrayRef(sym_sizes_.data(), sym_sizes_.size());
}

c10::SymInt FakeTensorImpl::sym_size_custom(int64_t d) const {
  d = c10::maybe_wrap_dim(d, int64_t(sym_.sizes.size()), /*wrap_scalar=*/false);
  return sym_sizes_custom()[size_t(d)];
}

int64_t FakeTensorImpl::numel_custom() const {
  specialize(0, int64_t(sym_.sizes.size()));
  return numel_;
}

c10::SymInt FakeTensorImpl::sym_numel_custom() const {
  c10::SymInt n = 1;
  for (const auto& s : sym_sizes_custom()) n = n * s;
  return n;
}

int64_t FakeTensorImpl::dim_custom() const { return int64_t(sym_.sizes.size()); }
c10::IntArrayRef FakeTensorImpl::strides_custom() const { return sizes_and_strides_.strides_arrayref(); }

c10::SymIntArrayRef FakeTensorImpl::sym_strides_custom() const {
  // Contiguous strides from the symbolic sizes (products of the later sizes).
  if (sym_strides_.size() != sym_.sizes.size()) {
    const auto sizes = sym_sizes_custom();
    sym_strides_.assign(sizes.size(), c10::SymInt(1));
    for (size_t i = sizes.size(); i-- > 1;) sym_strides_[i - 1] = sym_strides_[i] * sizes[i];
  }
  return c10::SymIntArrayRef(sym_strides_.data(), sym_strides_.size());
}

int64_t FakeTensorImpl::storage_offset_custom() const { return 0; }
c10::SymInt FakeTensorImpl::sym_storage_offset_custom() const { return 0; }
c10::SymBool FakeTensorImpl::sym_is_contiguous_custom(at::MemoryFormat format) const {
  return format == at::MemoryFormat::Contiguous || format == at::MemoryFormat::Preserve;
}
bool FakeTensorImpl::is_strides_like_custom(at::MemoryFormat format) const {
  return format == at::MemoryFormat::Contiguous;
}
c10::SymBool FakeTensorImpl::sym_is_non_overlapping_and_dense_custom() const { return true; }

c10::Device FakeTensorImpl::device_custom() const {
  // Model code sees the device the program is for (CPU); the dispatcher sees PrivateUse1.
  return sym_.device.type == "cuda" ? c10::Device(c10::kCUDA, int8_t(sym_.device.index.value_or(0)))
                                    : c10::Device(c10::kCPU);
}
c10::Layout FakeTensorImpl::layout_custom() const { return c10::kStrided; }

c10::intrusive_ptr<FakeTensorImpl> FakeTensorImpl::copy() const {
  std::vector<int64_t> hint(sizes_and_strides_.sizes_arrayref().begin(), sizes_and_strides_.sizes_arrayref().end());
  return c10::make_intrusive<FakeTensorImpl>(trace_id_, node_, sym_, hint, dtype().toScalarType());
}

c10::intrusive_ptr<c10::TensorImpl> FakeTensorImpl::shallow_copy_and_detach(const c10::VariableVersion& version_counter,
                                                                             bool allow_tensor_metadata_change) const {
  auto impl = copy();
  impl->set_version_counter(version_counter);
  impl->set_allow_tensor_metadata_change(allow_tensor_metadata_change);
  return impl;
}

c10::intrusive_ptr<c10::TensorImpl> FakeTensorImpl::shallow_copy_and_detach(c10::VariableVersion&& version_counter,
                                                                             bool allow_tensor_metadata_change) const {
  auto impl = copy();
  impl->set_version_counter(std::move(version_counter));
  impl->set_allow_tensor_metadata_change(allow_tensor_metadata_change);
  return impl;
}

void FakeTensorImpl::shallow_copy_from(const c10::intrusive_ptr<c10::TensorImpl>& impl) {
  auto* other = dynamic_cast<FakeTensorImpl*>(impl.get());
  if (!other) throw std::runtime_error("ExportLens: cannot copy a real tensor into a traced (fake) tensor");
  trace_id_ = other->trace_id_;
  node_ = other->node_;
  sym_ = other->sym_;
  sym_sizes_.clear();
  sym_strides_.clear();
  sizes_and_strides_.set_sizes(other->sizes_and_strides_.sizes_arrayref());
  sizes_and_strides_.set_strides(other->sizes_and_strides_.strides_arrayref());
  refresh_numel();
}

}  // namespace exportlens::trace
