#include "engine/serde/torch_save_writer.h"

#include <cstring>
#include <stdexcept>

#include "engine/serde/zip_writer.h"

namespace exportlens::serde {
namespace {

// torch's storage class per dtype, as torch.save names it in data.pkl.
const char* storage_class(ir::ScalarType t) {
  switch (t) {
    case ir::ScalarType::Float: return "FloatStorage";
    case ir::ScalarType::Double: return "DoubleStorage";
    case ir::ScalarType::Half: return "HalfStorage";
    case ir::ScalarType::BFloat16: return "BFloat16Storage";
    case ir::ScalarType::Long: return "LongStorage";
    case ir::ScalarType::Int: return "IntStorage";
    case ir::ScalarType::Short: return "ShortStorage";
    case ir::ScalarType::Char: return "CharStorage";
    case ir::ScalarType::Byte: return "ByteStorage";
    case ir::ScalarType::Bool: return "BoolStorage";
    case ir::ScalarType::ComplexFloat: return "ComplexFloatStorage";
    case ir::ScalarType::ComplexDouble: return "ComplexDoubleStorage";
    default: break;
  }
  throw std::invalid_argument(std::string("torch_save: no storage class for ") + std::string(ir::torch_name(t)));
}

class Pickler {
 public:
  std::string out;
  std::vector<const ir::TensorPayload*> storages;

  void value(const SaveValue& v) {
    std::visit([this](const auto& x) { write(x); }, v.v);
  }

 private:
  void op(char c) { out += c; }
  void u32(uint32_t n) {
    for (int i = 0; i < 4; ++i) out += char((n >> (8 * i)) & 0xff);
  }
  void text(const std::string& s) {  // BINUNICODE
    op('X');
    u32(uint32_t(s.size()));
    out += s;
  }
  void global(const char* module, const char* name) {
    op('c');
    out += module;
    out += '\n';
    out += name;
    out += '\n';
  }
  void integer(int64_t i) {
    if (i >= 0 && i < 256) {
      op('K');
      out += char(i);
    } else if (i >= INT32_MIN && i <= INT32_MAX) {
      op('J');
      u32(uint32_t(int32_t(i)));
    } else {  // LONG1: little-endian two's complement
      op('\x8a');
      out += char(8);
      for (int k = 0; k < 8; ++k) out += char((uint64_t(i) >> (8 * k)) & 0xff);
    }
  }
  void ints_tuple(const std::vector<ir::SymInt>& xs) {
    op('(');
    for (const auto& x : xs) {
      const auto v = x.expr.as_integer();
      if (!v) throw std::invalid_argument("torch_save: a tensor with symbolic sizes");
      integer(*v);
    }
    op('t');
  }

  void write(const ir::None&) { op('N'); }
  void write(bool b) { op(b ? '\x88' : '\x89'); }
  void write(int64_t i) { integer(i); }
  void write(double d) {  // BINFLOAT: big-endian IEEE double
    op('G');
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    for (int k = 7; k >= 0; --k) out += char((bits >> (8 * k)) & 0xff);
  }
  void write(const std::string& s) { text(s); }
  void write(const ir::TensorPayload& p) {
    if (!p.bytes) throw std::invalid_argument("torch_save: tensors must be raw bytes");
    const int64_t element = ir::element_size(p.meta.dtype);
    global("torch._utils", "_rebuild_tensor_v2");
    op('(');
    // The storage, by persistent id: ('storage', torch.<T>Storage, key, 'cpu', numel).
    op('(');
    text("storage");
    global("torch", storage_class(p.meta.dtype));
    text(std::to_string(storages.size()));
    text("cpu");
    integer(element ? int64_t(p.bytes->size()) / element : 0);
    op('t');
    op('Q');
    storages.push_back(&p);
    const auto offset = p.meta.storage_offset.expr.as_integer();
    integer(offset.value_or(0));
    ints_tuple(p.meta.sizes);
    ints_tuple(p.meta.strides);
    write(p.meta.requires_grad);
    global("collections", "OrderedDict");
    op(')');
    op('R');
    op('t');
    op('R');
  }
  void write(const std::shared_ptr<SaveValue::Tuple>& t) {
    op('(');
    for (const auto& x : t->items) value(x);
    op('t');
  }
  void write(const std::shared_ptr<SaveValue::List>& l) {
    op(']');
    if (l->items.empty()) return;
    op('(');
    for (const auto& x : l->items) value(x);
    op('e');
  }
  void write(const std::shared_ptr<SaveValue::Dict>& d) {
    op('}');
    if (d->items.empty()) return;
    op('(');
    for (const auto& [k, x] : d->items) {
      text(k);
      value(x);
    }
    op('u');
  }
};

}  // namespace

std::vector<std::byte> torch_save(const SaveValue& value) {
  Pickler p;
  p.out = "\x80\x02";  // PROTO 2
  p.value(value);
  p.out += '.';
  std::vector<std::byte> bytes;
  {
    ZipWriter zip(&bytes);
    zip.add("archive/data.pkl", p.out);
    zip.add("archive/.format_version", std::string_view("1"));
    zip.add("archive/.storage_alignment", std::string_view("64"));
    zip.add("archive/byteorder", std::string_view("little"));
    for (size_t i = 0; i < p.storages.size(); ++i)
      zip.add("archive/data/" + std::to_string(i), std::span<const std::byte>(*p.storages[i]->bytes));
    zip.add("archive/version", std::string_view("3\n"));
    zip.finish();
  }
  return bytes;
}

}  // namespace exportlens::serde
