#include "engine/runtime/declared_values.h"

#include <ATen/core/ivalue.h>

#include <cstdlib>

#include "engine/runtime/interpreter.h"
#include "engine/runtime/run_memory.h"
#include "engine/runtime/torch_types.h"

namespace exportlens::runtime {
namespace {

std::string where(const ir::Node& n) {
  if (n.op == ir::OpKind::Placeholder) return "input '" + n.name + "'";
  return "node '" + n.name + "' (" + n.target.qualified() + ")";
}

std::string shape_text(std::string_view dtype, const std::vector<int64_t>& sizes) {
  std::string s = std::string(dtype) + "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

}  // namespace

std::optional<int64_t> DeclaredValues::evaluate(const ir::SymInt& s) const {
  if (auto c = s.expr.as_integer()) return c;
  try {
    return s.expr.evaluate(symbols_);
  } catch (const std::exception&) {  // overflow or int_oo: not a size this check can use
    return std::nullopt;
  }
}

// The bytes of storage a declared tensor reaches (its view's extent, so an
// expanded view with zero strides counts once); nullopt when a size is not
// known yet; UINT64_MAX when the arithmetic passes int64.
std::optional<uint64_t> DeclaredValues::declared_bytes(const ir::ValueInfo& v) const {
  if (const auto* tuple = v.tuple()) {
    uint64_t total = 0;
    for (const auto& item : *tuple) {
      const auto b = declared_bytes(item);
      if (!b) return std::nullopt;
      total = *b > UINT64_MAX - total ? UINT64_MAX : total + *b;
    }
    return total;
  }
  const ir::TensorMeta* m = v.tensor();
  if (!m) return 0;
  // One pass, no allocation (it runs before every node): the extent the
  // strides reach (offset + sum((size - 1) * stride) + 1), and as many
  // elements as a contiguous tensor for when a stride is not known.
  const bool strided = m->strides.size() == m->sizes.size();
  bool strides_known = strided, strided_overflow = false, contiguous_overflow = false;
  int64_t extent = 1, elements = 1;
  if (strided)
    if (const auto offset = evaluate(m->storage_offset); offset && *offset > 0) extent += *offset;
  for (size_t d = 0; d < m->sizes.size(); ++d) {
    const auto size = evaluate(m->sizes[d]);
    if (!size) return std::nullopt;
    if (*size <= 0) return 0;
    contiguous_overflow = contiguous_overflow || __builtin_mul_overflow(elements, *size, &elements);
    if (!strides_known) continue;
    const auto stride = evaluate(m->strides[d]);
    if (!stride) {
      strides_known = false;
      continue;
    }
    int64_t step = 0;
    strided_overflow = strided_overflow || __builtin_mul_overflow(*size - 1, std::abs(*stride), &step) ||
                       __builtin_add_overflow(extent, step, &extent);
  }
  if (strides_known ? strided_overflow : contiguous_overflow) return UINT64_MAX;
  int64_t bytes = 0;
  if (__builtin_mul_overflow(strides_known ? extent : elements, static_cast<int64_t>(ir::element_size(m->dtype)), &bytes))
    return UINT64_MAX;
  return static_cast<uint64_t>(bytes);
}

void DeclaredValues::node_begin(const ir::Node& n) {
  const auto bytes = declared_bytes(n.value);
  if (!bytes || *bytes <= limit_) return;
  const ir::TensorMeta* m = n.value.tensor();
  throw RunError(where(n) + " declares " + (m ? "an output " + m->annotation() : std::string("outputs")) + " of " +
                 (*bytes == UINT64_MAX ? std::string("more bytes than int64 counts") : describe_bytes(*bytes)) +
                 ", over the run's memory limit of " + describe_bytes(limit_) +
                 " (raise it with --limit run-bytes=...)");
}

std::optional<std::string> DeclaredValues::disagreement(const ir::ValueInfo& declared, const c10::IValue& value) {
  if (const ir::SymInt* s = declared.sym_int(); s && value.isInt()) {
    const int64_t real = value.toInt();
    if (const auto want = evaluate(*s)) {
      if (*want != real) return "is " + std::to_string(real) + ", but the program declares " + s->str() + " = " + std::to_string(*want);
    } else if (s->expr.is_symbol()) {
      symbols_[s->expr.symbol_name()] = real;
    }
    return std::nullopt;
  }
  const ir::TensorMeta* m = declared.tensor();
  if (!m || !value.isTensor()) return std::nullopt;  // other kinds are not sized by the file
  const at::Tensor& t = value.toTensor();
  std::optional<ir::ScalarType> dtype;
  try {
    dtype = from_torch(t.scalar_type());
  } catch (const std::invalid_argument&) {
  }
  const auto real = [&] {
    return shape_text(dtype ? ir::short_name(*dtype) : std::string_view(c10::toString(t.scalar_type())), t.sizes().vec());
  };
  const bool recast = floats_recast_ && dtype && ir::is_floating(*dtype) && ir::is_floating(m->dtype);
  if (dtype && *dtype != m->dtype && !recast) return "is " + real() + ", but the program declares " + m->annotation();
  if (static_cast<size_t>(t.dim()) != m->sizes.size()) return "is " + real() + ", but the program declares " + m->annotation();
  for (size_t d = 0; d < m->sizes.size(); ++d) {
    const int64_t size = t.size(static_cast<int64_t>(d));
    if (const auto want = evaluate(m->sizes[d])) {
      if (*want != size) return "is " + real() + ", but the program declares " + m->annotation();
    } else if (m->sizes[d].expr.is_symbol()) {
      symbols_[m->sizes[d].expr.symbol_name()] = size;
    }
  }
  return std::nullopt;
}

void DeclaredValues::check(const ir::Node& n, const c10::IValue& value) {
  if (auto why = disagreement(n.value, value))
    throw RunError(where(n) + (n.op == ir::OpKind::Placeholder ? " " : " produced a value that ") + *why);
}

}  // namespace exportlens::runtime
