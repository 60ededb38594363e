#include "engine/runtime/torch_types.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/from_blob.h>
#include <ATen/ops/zeros.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <map>
#include <mutex>
#include <stdexcept>

#include "engine/ir/tensor_extent.h"
#include "engine/serde/torch_save_check.h"

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

constexpr int64_t kMaxImpliedZeroBytes = int64_t(16) << 20;

c10::IValue load_pickle(const std::shared_ptr<const std::vector<std::byte>>& bytes, const std::string& name) {
  serde::check_torch_save(bytes, "weight '" + name + "'");
  const std::vector<char> data(reinterpret_cast<const char*>(bytes->data()),
                               reinterpret_cast<const char*>(bytes->data()) + bytes->size());
  try {
    return torch::jit::pickle_load(data);
  } catch (const c10::Error& e) {
    throw std::runtime_error("weight '" + name + "': unreadable pickled tensor: " + e.what_without_backtrace());
  }
}

// torch <= 2.8 stored every weight in one torch.save'd dict: unpickled once
// per file (while its bytes live), not once per weight.
c10::IValue pickled_dict(const std::shared_ptr<const std::vector<std::byte>>& bytes, const std::string& name) {
  static std::mutex mutex;
  static std::map<const void*, std::pair<std::weak_ptr<const std::vector<std::byte>>, c10::IValue>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  for (auto it = cache.begin(); it != cache.end();) it = it->second.first.expired() ? cache.erase(it) : std::next(it);
  if (auto it = cache.find(bytes.get()); it != cache.end()) return it->second.second;
  c10::IValue v = load_pickle(bytes, name);
  cache[bytes.get()] = {bytes, v};
  return v;
}

// A constant with no data (a fake tensor when it was exported): zeros, as
// torch reads the empty file it writes for one, within the same bound.
at::Tensor fake_constant(const ir::TensorPayload& p, const std::string& name) {
  if (ir::layout_problem(p.meta)) throw std::runtime_error("weight '" + name + "': bad tensor metadata");
  std::vector<int64_t> sizes;
  int64_t numel = 1;
  for (const auto& s : p.meta.sizes) {
    const auto v = ir::example_value(s);
    if (!v || __builtin_mul_overflow(numel, *v, &numel))
      throw std::runtime_error("weight '" + name + "': a fake constant without usable example sizes");
    sizes.push_back(*v);
  }
  const auto bytes = ir::byte_size(numel, p.meta.dtype);
  if (!bytes || *bytes > kMaxImpliedZeroBytes)
    throw std::runtime_error("weight '" + name + "': a fake constant too large to stand in for with zeros");
  return at::zeros(sizes, at::TensorOptions().dtype(to_torch(p.meta.dtype)));
}

// A torch.save'd tensor inside the archive (alone, or under its key in the
// weights dict): it must be a tensor, and the one the weight's metadata
// declares (dtype and sizes).
at::Tensor unpickle_payload(const ir::TensorPayload& p, const std::shared_ptr<const std::vector<std::byte>>& bytes,
                            const std::string& name) {
  c10::IValue v;
  if (p.pickled_key.empty()) {
    v = load_pickle(bytes, name);
  } else {
    c10::IValue dict;
    try {
      dict = pickled_dict(bytes, name);
    } catch (const std::runtime_error& e) {
      // torch <= 2.8 pickled a lifted constant that was a fake tensor at export as
      // _reconstruct_fake_tensor(meta): it holds no data, as 2.13's empty file for it.
      if (std::string(e.what()).find("_reconstruct_fake_tensor") == std::string::npos) throw;
      return fake_constant(p, name);
    }
    if (!dict.isGenericDict()) throw std::runtime_error("weight '" + name + "': the weights file is not a dict");
    const auto d = dict.toGenericDict();
    const auto it = d.find(c10::IValue(p.pickled_key));
    if (it == d.end()) throw std::runtime_error("weight '" + name + "' is missing from the weights file");
    v = it->value();
  }
  if (!v.isTensor()) throw std::runtime_error("weight '" + name + "' is pickled but is not a tensor");
  at::Tensor t = v.toTensor();
  if (t.scalar_type() != to_torch(p.meta.dtype))
    throw std::runtime_error("weight '" + name + "': the pickled tensor is " + c10::toString(t.scalar_type()) +
                             " but its metadata says " + std::string(ir::torch_name(p.meta.dtype)));
  bool same_sizes = static_cast<size_t>(t.dim()) == p.meta.sizes.size();
  for (size_t d = 0; same_sizes && d < p.meta.sizes.size(); ++d)
    same_sizes = ir::example_value(p.meta.sizes[d]) == t.size(static_cast<int64_t>(d));
  if (!same_sizes) throw std::runtime_error("weight '" + name + "': the pickled tensor's sizes differ from its metadata");
  return t;
}

}  // namespace

at::Tensor payload_to_tensor(const ir::TensorPayload& p, const std::string& name, const c10::Device& device) {
  // Read now when the program was opened without its weights.
  const std::shared_ptr<const std::vector<std::byte>> bytes = p.data();
  if (!bytes) throw std::runtime_error("weight '" + name + "' has no data");
  if (p.pickled) return unpickle_payload(p, bytes, name).to(device);
  const auto dtype = to_torch(p.meta.dtype);
  if (auto problem = ir::layout_problem(p.meta)) throw std::runtime_error("weight '" + name + "': tensor metadata " + *problem);
  const auto extent = ir::storage_extent(p.meta);  // elements the view reaches, overflow-checked
  const auto needed = extent ? ir::byte_size(*extent, p.meta.dtype) : std::nullopt;
  if (!needed) throw std::runtime_error("weight '" + name + "': its sizes and strides have no example values");
  std::vector<int64_t> sizes, strides;
  for (const auto& s : p.meta.sizes) sizes.push_back(*ir::example_value(s));
  for (const auto& s : p.meta.strides) strides.push_back(*ir::example_value(s));
  // torch writes some lifted constants as an empty file: they read as zeros,
  // but an empty file must not make us allocate gigabytes.
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
