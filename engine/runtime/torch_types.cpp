#include "engine/runtime/torch_types.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/zeros.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <stdexcept>

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

at::Tensor payload_to_tensor(const ir::TensorPayload& p, const std::string& name, const c10::Device& device) {
  if (!p.bytes) throw std::runtime_error("weight '" + name + "' has no data");
  if (p.pickled) {
    std::vector<char> data(reinterpret_cast<const char*>(p.bytes->data()),
                           reinterpret_cast<const char*>(p.bytes->data()) + p.bytes->size());
    auto v = torch::jit::pickle_load(data);
    if (!v.isTensor()) throw std::runtime_error("weight '" + name + "' is pickled but is not a tensor");
    return v.toTensor().to(device);
  }
  const auto dtype = to_torch(p.meta.dtype);
  std::vector<int64_t> sizes, strides;
  for (const auto& s : p.meta.sizes) sizes.push_back(s.hint.value_or(0));
  for (const auto& s : p.meta.strides) strides.push_back(s.hint.value_or(0));
  const int64_t offset = p.meta.storage_offset.hint.value_or(0);
  const int64_t elem = static_cast<int64_t>(c10::elementSize(dtype));
  const int64_t stored = static_cast<int64_t>(p.bytes->size()) / elem;
  if (static_cast<int64_t>(p.bytes->size()) % elem != 0)
    throw std::runtime_error("weight '" + name + "': " + std::to_string(p.bytes->size()) +
                             " bytes is not a whole number of " + c10::toString(dtype) + " elements");
  // The highest element the view reaches must lie inside the stored bytes.
  int64_t reach = offset;
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) empty = true;
    reach += (sizes[i] - 1) * strides[i];
  }
  if (empty || stored == 0) return at::zeros(sizes, at::TensorOptions().dtype(dtype).device(device));
  if (reach >= stored)
    throw std::runtime_error("weight '" + name + "': its view needs " + std::to_string(reach + 1) +
                             " elements but the archive stores " + std::to_string(stored));
  auto flat = at::from_blob(const_cast<std::byte*>(p.bytes->data()), {stored}, at::TensorOptions().dtype(dtype));
  return flat.as_strided(sizes, strides, offset).clone().to(device);
}

}  // namespace exportlens::runtime
