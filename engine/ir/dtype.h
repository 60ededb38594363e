#pragma once
// Element types, layouts and memory formats as torch.export's schema names
// them. Codes are the schema's enum values (what a .pt2 stores), so the
// serde layer converts nothing; names are what torch prints.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace exportlens::ir {

enum class ScalarType : int {
  Unknown = 0,
  Byte = 1,   // uint8
  Char = 2,   // int8
  Short = 3,  // int16
  Int = 4,    // int32
  Long = 5,   // int64
  Half = 6,
  Float = 7,
  Double = 8,
  ComplexHalf = 9,
  ComplexFloat = 10,
  ComplexDouble = 11,
  Bool = 12,
  BFloat16 = 13,
  UInt16 = 28,
  Float8E4M3FN = 29,
  Float8E5M2 = 30,
  Float8E4M3FNUZ = 31,
  Float8E5M2FNUZ = 32,
};

/// "f32", "i64", "b8", ... as in print(ep)'s shape annotations.
std::string_view short_name(ScalarType t);
/// "torch.float32", ... as in printed arguments.
std::string_view torch_name(ScalarType t);
/// Bytes per element; 0 for Unknown.
int element_size(ScalarType t);
bool is_floating(ScalarType t);
std::optional<ScalarType> scalar_type_from_code(int code);

enum class Layout : int {
  Unknown = 0,
  SparseCoo = 1,
  SparseCsr = 2,
  SparseCsc = 3,
  SparseBsr = 4,
  SparseBsc = 5,
  _mkldnn = 6,
  Strided = 7,
};
std::string_view torch_name(Layout l);

enum class MemoryFormat : int {
  Unknown = 0,
  ContiguousFormat = 1,
  ChannelsLast = 2,
  ChannelsLast3d = 3,
  PreserveFormat = 4,
};
std::string_view torch_name(MemoryFormat m);

struct Device {
  std::string type = "cpu";
  std::optional<int> index;
  /// "cpu", "cuda:0" (torch.device's str()).
  std::string str() const;
  friend bool operator==(const Device&, const Device&) = default;
};

}  // namespace exportlens::ir
