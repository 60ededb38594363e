#include "engine/ir/dtype.h"

namespace exportlens::ir {
namespace {

struct DtypeInfo {
  ScalarType type;
  std::string_view short_name;
  std::string_view torch_name;
  int size;
  bool floating;
};

// One table so names, sizes and codes cannot drift apart.
constexpr DtypeInfo kDtypes[] = {
    {ScalarType::Byte, "u8", "torch.uint8", 1, false},
    {ScalarType::Char, "i8", "torch.int8", 1, false},
    {ScalarType::Short, "i16", "torch.int16", 2, false},
    {ScalarType::Int, "i32", "torch.int32", 4, false},
    {ScalarType::Long, "i64", "torch.int64", 8, false},
    {ScalarType::Half, "f16", "torch.float16", 2, true},
    {ScalarType::Float, "f32", "torch.float32", 4, true},
    {ScalarType::Double, "f64", "torch.float64", 8, true},
    {ScalarType::ComplexHalf, "c32", "torch.complex32", 4, false},
    {ScalarType::ComplexFloat, "c64", "torch.complex64", 8, false},
    {ScalarType::ComplexDouble, "c128", "torch.complex128", 16, false},
    {ScalarType::Bool, "b8", "torch.bool", 1, false},
    {ScalarType::BFloat16, "bf16", "torch.bfloat16", 2, true},
    {ScalarType::UInt16, "u16", "torch.uint16", 2, false},
    {ScalarType::Float8E4M3FN, "f8e4m3fn", "torch.float8_e4m3fn", 1, true},
    {ScalarType::Float8E5M2, "f8e5m2", "torch.float8_e5m2", 1, true},
    {ScalarType::Float8E4M3FNUZ, "f8e4m3fnuz", "torch.float8_e4m3fnuz", 1, true},
    {ScalarType::Float8E5M2FNUZ, "f8e5m2fnuz", "torch.float8_e5m2fnuz", 1, true},
};

const DtypeInfo* info(ScalarType t) {
  for (const auto& d : kDtypes)
    if (d.type == t) return &d;
  return nullptr;
}

}  // namespace

std::string_view short_name(ScalarType t) {
  const auto* d = info(t);
  return d ? d->short_name : "?";
}

std::string_view torch_name(ScalarType t) {
  const auto* d = info(t);
  return d ? d->torch_name : "torch.unknown";
}

int element_size(ScalarType t) {
  const auto* d = info(t);
  return d ? d->size : 0;
}

bool is_floating(ScalarType t) {
  const auto* d = info(t);
  return d && d->floating;
}

std::optional<ScalarType> scalar_type_from_code(int code) {
  const auto* d = info(static_cast<ScalarType>(code));
  if (!d) return std::nullopt;
  return d->type;
}

std::string_view torch_name(Layout l) {
  switch (l) {
    case Layout::SparseCoo: return "torch.sparse_coo";
    case Layout::SparseCsr: return "torch.sparse_csr";
    case Layout::SparseCsc: return "torch.sparse_csc";
    case Layout::SparseBsr: return "torch.sparse_bsr";
    case Layout::SparseBsc: return "torch.sparse_bsc";
    case Layout::_mkldnn: return "torch._mkldnn";
    case Layout::Strided: return "torch.strided";
    case Layout::Unknown: break;
  }
  return "torch.unknown_layout";
}

std::string_view torch_name(MemoryFormat m) {
  switch (m) {
    case MemoryFormat::ContiguousFormat: return "torch.contiguous_format";
    case MemoryFormat::ChannelsLast: return "torch.channels_last";
    case MemoryFormat::ChannelsLast3d: return "torch.channels_last_3d";
    case MemoryFormat::PreserveFormat: return "torch.preserve_format";
    case MemoryFormat::Unknown: break;
  }
  return "torch.unknown_memory_format";
}

std::string Device::str() const {
  return index ? type + ":" + std::to_string(*index) : type;
}

}  // namespace exportlens::ir
