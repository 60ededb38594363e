#include "engine/runtime/torch_types.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/zeros.h>

#include <stdexcept>

#include "engine/ir/tensor_extent.h"

namespace exportlens::runtime {
namespace {

struct DtypePair {
  ir::ScalarType ir;
  c10::ScalarType torch;
};
constexpr DtypePair kDtypes[] = {
    {ir::ScalarType::Byte, c10::ScalarType::Byte},
    {ir::ScalarType::Char, c10::ScalarType::Char},
    {ir::ScalarType::Short, c10::ScalarType::Short},
    {ir::ScalarType::Int, c10::ScalarType::Int},
    {ir::ScalarType::Long, c10::ScalarType::Long},
    {ir::ScalarType::Half, c10::ScalarType::Half},
    {ir::ScalarType::Float, c10::ScalarType::Float},
    {ir::ScalarType::Double, c10::ScalarType::Double},
    {ir::ScalarType::ComplexHalf, c10::ScalarType::ComplexHalf},
    {ir::ScalarType::ComplexFloat, c10::ScalarType::ComplexFloat},
    {ir::ScalarType::ComplexDouble, c10::ScalarType::ComplexDouble},
    {ir::ScalarType::Bool, c10::ScalarType::Bool},
    {ir::ScalarType::BFloat16, c10::ScalarType::BFloat16},
    {ir::ScalarType::UInt16, c10::ScalarType::UInt16},
    {ir::ScalarType::Float8E4M3FN, c10::ScalarType::Float8_e4m3fn},
    {ir::ScalarType::Float8E5M2, c10::ScalarType::Float8_e5m2},
    {ir::ScalarType::Float8E4M3FNUZ, c10::ScalarType::Float8_e4m3fnuz},
    {ir::ScalarType::Float8E5M2FNUZ, c10::ScalarType::Float8_e5m2fnuz},
};

}  // namespace

c10::ScalarType to_torch(ir::ScalarType t) {
  for (const auto& p : kDtypes)
    if (p.ir == t) return p.torch;
  throw std::invalid_argument("dtype code " + std::to_string(static_cast<int>(t)) + " has no LibTorch equivalent");
}

ir::ScalarType from_torch(c10::ScalarType t) {
  for (const auto& p : kDtypes)
    if (p.torch == t) return p.ir;
  throw std::invalid_argument(std::string("LibTorch dtype ") + c10::toString(t) + " is not supported");
}

c10::Layout to_torch(ir::Layout l) {
  switch (l) {
    case ir::Layout::Strided: return c10::kStrided;
    case ir::Layout::SparseCoo: return c10::kSparse;
    case ir::Layout::SparseCsr: return c10::kSparseCsr;
    case ir::Layout::SparseCsc: return c10::kSparseCsc;
    case ir::Layout::SparseBsr: return c10::kSparseBsr;
    case ir::Layout::SparseBsc: return c10::kSparseBsc;
    case ir::Layout::_mkldnn: return c10::kMkldnn;
    case ir::Layout::Unknown: break;
  }
  throw std::invalid_argument("unknown layout");
}

c10::MemoryFormat to_torch(ir::MemoryFormat m) {
  switch (m) {
    case ir::MemoryFormat::ContiguousFormat: return c10::MemoryFormat::Contiguous;
    case ir::MemoryFormat::PreserveFormat: return c10::MemoryFormat::Preserve;
    case ir::MemoryFormat::ChannelsLast: return c10::MemoryFormat::ChannelsLast;
    case ir::MemoryFormat::ChannelsLast3d: return c10::MemoryFormat::ChannelsLast3d;
    case ir::MemoryFormat::Unknown: break;
  }
  throw std::invalid_argument("unknown memory format");
}

c10::Device to_torch(const ir::Device& d) {
  c10::Device dev(d.type);
  if (d.index) dev.set_index(static_cast<c10::DeviceIndex>(*d.index));
  return dev;
}

namespace {

// torch writes some lifted constants as an empty file: they read as zeros,
// but an empty file must not make us allocate gigabytes.
constexpr int64_t kMaxImpliedZeroBytes = int64_t(16) << 20;

}  // namespace

at::Tensor payload_to_tensor(const ir::TensorPayload& p, const std::string& name, const c10::Device& device) {
  // Read now when the program was opened without its weights.
  const std::shared_ptr<const std::vector<std::byte>> bytes = p.data();
  if (!bytes) throw std::runtime_error("weight '" + name + "' has no data");
  const auto dtype = to_torch(p.meta.dtype);
  if (auto problem = ir::layout_problem(p.meta)) throw std::runtime_error("weight '" + name + "': tensor metadata " + *problem);
  const auto extent = ir::storage_extent(p.meta);  // elements the view reaches, overflow-checked
  const auto needed = extent ? ir::byte_size(*extent, p.meta.dtype) : std::nullopt;
  if (!needed) throw std::runtime_error("weight '" + name + "': its sizes and strides have no example values");
  std::vector<int64_t> sizes, strides;
  for (const auto& s : p.meta.sizes) sizes.push_back(*ir::example_value(s));
  for (const auto& s : p.meta.strides) strides.push_back(*ir::example_value(s));
  if (bytes->empty() && *needed <= kMaxImpliedZeroBytes)
    return at::zeros(sizes, at::TensorOptions().dtype(dtype).device(device));
  if (static_cast<uint64_t>(*needed) > bytes->size())
    throw std::runtime_error("weight '" + name + "': its view needs " + std::to_string(*needed) +
                             " bytes but the archive stores " + std::to_string(bytes->size()));
  if (*extent == 0) return at::empty(sizes, at::TensorOptions().dtype(dtype).device(device));
  auto flat = at::from_blob(const_cast<std::byte*>(bytes->data()), {*extent}, at::TensorOptions().dtype(dtype));
  return flat.as_strided(sizes, strides, *ir::example_value(p.meta.storage_offset)).clone().to(device);
}

}  // namespace exportlens::runtime
