#include "engine/serde/pickle_reader.h"

#include <cstring>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/ir/tensor_extent.h"
#include "engine/serde/zip_archive.h"
#include "engine/symbolic/utf8.h"

namespace exportlens::serde {
namespace {

// The globals a tensor archive needs, and nothing else: the rebuild
// functions torch.save and LibTorch's pickler name, the storage classes and
// dtypes they pass, and the containers they rebuild with.
enum class Global {
  RebuildTensorV2,       // torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, meta])
  RebuildTensorV3,       // ..._v3(storage, offset, size, stride, requires_grad, hooks, dtype[, meta]): untyped storage
  RebuildParameter,      // torch._utils._rebuild_parameter(data, requires_grad, hooks[, state])
  RebuildFromType,       // torch._tensor._rebuild_from_type_v2(func, type, args, state): a tensor with attributes
  TensorType,            // torch.Tensor / torch.nn.parameter.Parameter, as _rebuild_from_type_v2's type
  OrderedDict,           // collections.OrderedDict(): the hooks argument, weight dicts
  Set,                   // builtins.set(list): 2.5's _dynamo_dynamic_indices attribute
  Bytes,                 // _codecs.encode(text, 'latin1'): bytes at protocol 2
  FakeTensor,            // torch._export.serde.serialize._reconstruct_fake_tensor(meta): no data
  TypedList,             // torch.jit._pickle.build_intlist(list) and friends (LibTorch's pickler)
  RestoreTypeTag,        // torch.jit._pickle.restore_type_tag(value, type)
  Size,                  // torch.Size(tuple)
  Storage,               // torch.<T>Storage, torch.storage.UntypedStorage: in persistent ids
  Dtype,                 // torch.float32, ...: _rebuild_tensor_v3's dtype
};

struct KnownGlobal {
  std::string_view name;
  Global kind;
  ir::ScalarType dtype = ir::ScalarType::Unknown;  // Storage and Dtype
};

constexpr KnownGlobal kGlobals[] = {
    {"torch._utils._rebuild_tensor_v2", Global::RebuildTensorV2},
    {"torch._utils._rebuild_tensor_v3", Global::RebuildTensorV3},
    {"torch._utils._rebuild_parameter", Global::RebuildParameter},
    {"torch._utils._rebuild_parameter_with_state", Global::RebuildParameter},
    {"torch._tensor._rebuild_from_type_v2", Global::RebuildFromType},
    {"torch.Tensor", Global::TensorType},
    {"torch.nn.parameter.Parameter", Global::TensorType},
    {"collections.OrderedDict", Global::OrderedDict},
    {"builtins.set", Global::Set},
    {"__builtin__.set", Global::Set},
    {"_codecs.encode", Global::Bytes},
    {"torch._export.serde.serialize._reconstruct_fake_tensor", Global::FakeTensor},
    {"torch.jit._pickle.build_intlist", Global::TypedList},
    {"torch.jit._pickle.build_floatlist", Global::TypedList},
    {"torch.jit._pickle.build_doublelist", Global::TypedList},
    {"torch.jit._pickle.build_boollist", Global::TypedList},
    {"torch.jit._pickle.build_tensorlist", Global::TypedList},
    {"torch.jit._pickle.restore_type_tag", Global::RestoreTypeTag},
    {"torch.Size", Global::Size},
    {"torch.DoubleStorage", Global::Storage, ir::ScalarType::Double},
    {"torch.FloatStorage", Global::Storage, ir::ScalarType::Float},
    {"torch.HalfStorage", Global::Storage, ir::ScalarType::Half},
    {"torch.BFloat16Storage", Global::Storage, ir::ScalarType::BFloat16},
    {"torch.LongStorage", Global::Storage, ir::ScalarType::Long},
    {"torch.IntStorage", Global::Storage, ir::ScalarType::Int},
    {"torch.ShortStorage", Global::Storage, ir::ScalarType::Short},
    {"torch.CharStorage", Global::Storage, ir::ScalarType::Char},
    {"torch.ByteStorage", Global::Storage, ir::ScalarType::Byte},
    {"torch.BoolStorage", Global::Storage, ir::ScalarType::Bool},
    {"torch.ComplexFloatStorage", Global::Storage, ir::ScalarType::ComplexFloat},
    {"torch.ComplexDoubleStorage", Global::Storage, ir::ScalarType::ComplexDouble},
    {"torch.storage.UntypedStorage", Global::Storage, ir::ScalarType::Byte},
    {"torch.float64", Global::Dtype, ir::ScalarType::Double},
    {"torch.float32", Global::Dtype, ir::ScalarType::Float},
    {"torch.float16", Global::Dtype, ir::ScalarType::Half},
    {"torch.bfloat16", Global::Dtype, ir::ScalarType::BFloat16},
    {"torch.int64", Global::Dtype, ir::ScalarType::Long},
    {"torch.int32", Global::Dtype, ir::ScalarType::Int},
    {"torch.int16", Global::Dtype, ir::ScalarType::Short},
    {"torch.int8", Global::Dtype, ir::ScalarType::Char},
    {"torch.uint8", Global::Dtype, ir::ScalarType::Byte},
    {"torch.uint16", Global::Dtype, ir::ScalarType::UInt16},
    {"torch.bool", Global::Dtype, ir::ScalarType::Bool},
    {"torch.complex32", Global::Dtype, ir::ScalarType::ComplexHalf},
    {"torch.complex64", Global::Dtype, ir::ScalarType::ComplexFloat},
    {"torch.complex128", Global::Dtype, ir::ScalarType::ComplexDouble},
    {"torch.float8_e4m3fn", Global::Dtype, ir::ScalarType::Float8E4M3FN},
    {"torch.float8_e5m2", Global::Dtype, ir::ScalarType::Float8E5M2},
    {"torch.float8_e4m3fnuz", Global::Dtype, ir::ScalarType::Float8E4M3FNUZ},
    {"torch.float8_e5m2fnuz", Global::Dtype, ir::ScalarType::Float8E5M2FNUZ},
};

// One object the pickle builds. Containers know how deeply they nest
// (themselves included), so nesting is refused while the pickle runs.
struct Obj {
  enum class Kind : uint8_t { None, Bool, Int, BigInt, Float, Str, Bytes, Tuple, List, Dict, Set, Global, Storage, Tensor };
  Kind kind = Kind::None;
  int depth = 0;
  int64_t integer = 0;       // Bool, Int
  double real = 0;           // Float
  std::string text;          // Str, Bytes; a Global's "module.name"
  const KnownGlobal* global = nullptr;
  std::vector<std::shared_ptr<Obj>> items;  // Tuple, List, Set; a Dict's keys and values, alternating
  std::shared_ptr<const ir::TensorPayload> tensor;
  PickledStorage storage;
  ir::ScalarType storage_dtype = ir::ScalarType::Unknown;
  int64_t storage_numel = 0;
};
using ObjPtr = std::shared_ptr<Obj>;

// A name from the file, as a message can hold it: bytes that are not
// printable UTF-8 as \xNN.
std::string printable(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t n = symbolic::utf8_sequence_length(s, i);
    if (n > 1 || (n == 1 && s[i] >= 0x20 && s[i] < 0x7f)) {
      out.append(s, i, n);
      i += n;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(s[i++]));
      out += hex;
    }
  }
  return out;
}

const char* kind_name(Obj::Kind k) {
  switch (k) {
    case Obj::Kind::None: return "None";
    case Obj::Kind::Bool: return "a bool";
    case Obj::Kind::Int: return "an int";
    case Obj::Kind::BigInt: return "an int beyond the int64 range";
    case Obj::Kind::Float: return "a float";
    case Obj::Kind::Str: return "a string";
    case Obj::Kind::Bytes: return "bytes";
    case Obj::Kind::Tuple: return "a tuple";
    case Obj::Kind::List: return "a list";
    case Obj::Kind::Dict: return "a dict";
    case Obj::Kind::Set: return "a set";
    case Obj::Kind::Global: return "a class or function";
    case Obj::Kind::Storage: return "a storage";
    case Obj::Kind::Tensor: return "a tensor";
  }
  return "a value";
}

class Unpickler {
 public:
  Unpickler(std::span<const std::byte> pickle, const std::string& where, const ReadLimits& limits,
            const StorageLoader& storage)
      : p_(reinterpret_cast<const unsigned char*>(pickle.data())),
        size_(pickle.size()),
        where_(where),
        limits_(limits),
        storage_(storage) {}

  SaveValue run() {
    while (true) {
      if (at_ >= size_) fail("the pickle ends without a STOP opcode");
      op_at_ = at_;
      const unsigned char op = p_[at_++];
      if (op == '.') break;
      step(op);
    }
    if (stack_.empty()) fail("the pickle stops with nothing on its stack");
    return Convert(*this).value(*stack_.back(), 0);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ArchiveError(where_ + ": offset " + std::to_string(op_at_) + ": " + what);
  }

  // ---- reading the opcode stream --------------------------------------------------
  const unsigned char* take(uint64_t n) {
    if (n > size_ - at_) fail("the pickle ends inside an opcode's argument");
    const unsigned char* q = p_ + at_;
    at_ += n;
    return q;
  }
  uint64_t uint_le(int n) {
    const unsigned char* q = take(n);
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | q[i];
    return v;
  }
  std::string bytes(uint64_t n) {
    const unsigned char* q = take(n);
    return std::string(reinterpret_cast<const char*>(q), n);
  }
  std::string line() {
    const unsigned char* end = static_cast<const unsigned char*>(std::memchr(p_ + at_, '\n', size_ - at_));
    if (!end) fail("a GLOBAL name without its newline");
    std::string s(reinterpret_cast<const char*>(p_ + at_), end - (p_ + at_));
    at_ = end - p_ + 1;
    return s;
  }

  // ---- objects ------------------------------------------------------------------------
  ObjPtr make(Obj::Kind kind) {
    auto o = std::make_shared<Obj>();
    o->kind = kind;
    return o;
  }
  ObjPtr integer(int64_t v) {
    auto o = make(Obj::Kind::Int);
    o->integer = v;
    return o;
  }
  ObjPtr text(Obj::Kind kind, std::string s) {
    if (kind == Obj::Kind::Str && symbolic::invalid_utf8_at(s) != std::string::npos)
      fail("a string that is not valid UTF-8");
    auto o = make(kind);
    o->text = std::move(s);
    return o;
  }
  void nest(Obj& container, int item_depth) {
    container.depth = std::max(container.depth, item_depth + 1);
    if (container.depth > limits_.max_nesting)
      fail("pickled containers nested more than " + std::to_string(limits_.max_nesting) +
           " levels deep (raise the limit with --limit nesting=...)");
  }
  ObjPtr container(Obj::Kind kind, std::vector<ObjPtr> items) {
    auto c = make(kind);
    c->depth = 1;
    for (const auto& i : items) nest(*c, i->depth);
    c->items = std::move(items);
    return c;
  }

  // ---- the stack ------------------------------------------------------------------
  // Every object pushed counts, a recalled one again: each copy takes a slot
  // on the stack or in a container, so the count bounds all of them.
  void push(ObjPtr o) {
    if (++objects_ > limits_.max_pickle_objects)
      fail("the pickle makes more than " + std::to_string(limits_.max_pickle_objects) +
           " objects (raise the limit with --limit pickle-objects=...)");
    stack_.push_back(std::move(o));
  }
  ObjPtr pop() {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("the pickle pops past its stack or a MARK");
    ObjPtr o = std::move(stack_.back());
    stack_.pop_back();
    return o;
  }
  Obj& top() {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("the pickle reads past its stack or a MARK");
    return *stack_.back();
  }
  void mark() {
    // Each open MARK is a container being built: more of them than the
    // nesting limit is deeper nesting than the limit allows.
    if (static_cast<int>(marks_.size()) >= limits_.max_nesting)
      fail("more than " + std::to_string(limits_.max_nesting) +
           " MARKs open at once (raise the limit with --limit nesting=...)");
    marks_.push_back(stack_.size());
  }
  std::vector<ObjPtr> pop_mark() {
    if (marks_.empty()) fail("the pickle has no MARK to pop to");
    const size_t mark = marks_.back();
    marks_.pop_back();
    std::vector<ObjPtr> items(std::make_move_iterator(stack_.begin() + mark), std::make_move_iterator(stack_.end()));
    stack_.resize(mark);
    return items;
  }

  // ---- the memo -------------------------------------------------------------------
  // A pickler stores each object at most once, so no honest memo index
  // reaches past the objects made so far: that bounds the memo by them.
  void memo_put(uint64_t index) {
    if (index > objects_)
      fail("memo index " + std::to_string(index) + " is beyond the " + std::to_string(objects_) +
           " objects made so far (the memo is bounded by them)");
    if (index >= memo_.size()) memo_.resize(index + 1);
    top();  // refuses an empty stack
    memo_[index] = stack_.back();
  }
  void memo_get(uint64_t index) {
    if (index >= memo_.size() || !memo_[index]) fail("the pickle recalls memo " + std::to_string(index) + ", never stored");
    push(memo_[index]);
  }

  // ---- containers growing in place ------------------------------------------------
  Obj& target(Obj::Kind kind, const char* op) {
    Obj& t = top();
    if (t.kind != kind) fail(std::string(op) + " on " + kind_name(t.kind));
    return t;
  }
  void add_items(Obj::Kind kind, const char* op, std::vector<ObjPtr> items) {
    Obj& t = target(kind, op);
    for (auto& i : items) {
      nest(t, i->depth);
      t.items.push_back(std::move(i));
    }
  }

  // ---- globals and REDUCE ---------------------------------------------------------
  ObjPtr global(std::string module, const std::string& name) {
    if (module == "__builtin__") module = "builtins";
    const std::string full = module + "." + name;
    for (const auto& g : kGlobals)
      if (g.name == full) {
        auto o = make(Obj::Kind::Global);
        o->global = &g;
        o->text = full;
        return o;
      }
    fail("global '" + printable(full) + "' is not one a tensor archive needs");
  }
  const Obj& arg(const Obj& args, size_t i, Obj::Kind kind, const char* what) const {
    if (i >= args.items.size() || args.items[i]->kind != kind)
      fail(std::string(what) + " should be " + kind_name(kind) +
           (i < args.items.size() ? std::string(", not ") + kind_name(args.items[i]->kind) : ""));
    return *args.items[i];
  }
  std::vector<int64_t> ints(const Obj& o, const char* what) const {
    std::vector<int64_t> out;
    out.reserve(o.items.size());
    for (const auto& i : o.items) {
      if (i->kind != Obj::Kind::Int) fail(std::string(what) + " holds " + kind_name(i->kind) + ", not an int");
      out.push_back(i->integer);
    }
    return out;
  }
  const Obj& sizes_arg(const Obj& args, size_t i, const char* what) const {
    if (i < args.items.size() && args.items[i]->kind == Obj::Kind::List) return *args.items[i];
    return arg(args, i, Obj::Kind::Tuple, what);
  }

  // torch._utils._rebuild_tensor_v2/v3: a view of a storage. The view must lie
  // inside the storage before anything is read or allocated.
  ObjPtr rebuild_tensor(const Obj& args, bool untyped) {
    const char* fn = untyped ? "_rebuild_tensor_v3" : "_rebuild_tensor_v2";
    const size_t arity = untyped ? 7 : 6;
    if (args.items.size() != arity && args.items.size() != arity + 1)
      fail(std::string(fn) + " takes " + std::to_string(arity) + " or " + std::to_string(arity + 1) + " arguments, got " +
           std::to_string(args.items.size()));
    const Obj& storage = arg(args, 0, Obj::Kind::Storage, "its storage");
    const int64_t offset = arg(args, 1, Obj::Kind::Int, "its storage offset").integer;
    ir::TensorMeta meta;
    meta.dtype = untyped ? arg(args, 6, Obj::Kind::Global, "its dtype").global->dtype : storage.storage_dtype;
    if (untyped && args.items[6]->global->kind != Global::Dtype) fail("its dtype is " + args.items[6]->text);
    const auto sizes = ints(sizes_arg(args, 2, "its size"), "its size");
    const auto strides = ints(sizes_arg(args, 3, "its stride"), "its stride");
    meta.requires_grad = arg(args, 4, Obj::Kind::Bool, "its requires_grad").integer != 0;
    meta.sizes.assign(sizes.begin(), sizes.end());
    meta.strides.assign(strides.begin(), strides.end());
    meta.storage_offset = offset;
    if (auto problem = ir::layout_problem(meta)) fail("a tensor whose layout " + *problem);
    const int64_t element = ir::element_size(meta.dtype);
    if (element == 0) fail("a tensor of dtype " + std::string(ir::torch_name(meta.dtype)));
    if (untyped && storage.storage_numel % element != 0)
      fail("an untyped storage of " + std::to_string(storage.storage_numel) + " bytes viewed as " +
           std::string(ir::torch_name(meta.dtype)));
    const int64_t available = untyped ? storage.storage_numel / element : storage.storage_numel;
    const auto extent = ir::storage_extent(meta);
    if (!extent || *extent > available)
      fail("a tensor view (rank " + std::to_string(sizes.size()) + ", offset " + std::to_string(offset) +
           ") reaches " + (extent ? std::to_string(*extent) : std::string("past int64")) +
           " elements into a storage of " + std::to_string(available));
    auto t = std::make_shared<ir::TensorPayload>();
    t->meta = std::move(meta);
    t->source = storage.storage.source;
    t->stored_size = storage.storage.bytes;
    auto o = make(Obj::Kind::Tensor);
    o->tensor = std::move(t);
    return o;
  }

  ObjPtr call(const Obj& callable, const Obj& args) {
    if (callable.kind != Obj::Kind::Global) fail("REDUCE calls " + std::string(kind_name(callable.kind)));
    if (args.kind != Obj::Kind::Tuple) fail("REDUCE's arguments are " + std::string(kind_name(args.kind)) + ", not a tuple");
    const auto& items = args.items;
    switch (callable.global->kind) {
      case Global::RebuildTensorV2: return rebuild_tensor(args, false);
      case Global::RebuildTensorV3: return rebuild_tensor(args, true);
      case Global::RebuildParameter: {
        const Obj& data = arg(args, 0, Obj::Kind::Tensor, "a parameter's data");
        auto t = std::make_shared<ir::TensorPayload>(*data.tensor);
        t->is_parameter = true;
        t->meta.requires_grad = arg(args, 1, Obj::Kind::Bool, "a parameter's requires_grad").integer != 0;
        auto o = make(Obj::Kind::Tensor);
        o->tensor = std::move(t);
        return o;
      }
      case Global::RebuildFromType: {
        // (func, type, args, state): func(*args); the state holds Python
        // attributes (2.5's _dynamo_dynamic_indices), which a tensor here has not.
        const Obj& func = arg(args, 0, Obj::Kind::Global, "_rebuild_from_type_v2's function");
        if (arg(args, 1, Obj::Kind::Global, "_rebuild_from_type_v2's type").global->kind != Global::TensorType)
          fail("_rebuild_from_type_v2 of " + items[1]->text + ", not a plain tensor");
        if (func.global->kind != Global::RebuildTensorV2 && func.global->kind != Global::RebuildTensorV3 &&
            func.global->kind != Global::RebuildParameter)
          fail("_rebuild_from_type_v2 with " + func.text + ", not a tensor's rebuild function");
        return call(func, arg(args, 2, Obj::Kind::Tuple, "_rebuild_from_type_v2's arguments"));
      }
      case Global::OrderedDict:
        if (!items.empty()) fail("OrderedDict with arguments");
        return container(Obj::Kind::Dict, {});
      case Global::Set:
        return container(Obj::Kind::Set, items.empty() ? std::vector<ObjPtr>{}
                                                       : arg(args, 0, Obj::Kind::List, "set's argument").items);
      case Global::Bytes:
        return text(Obj::Kind::Bytes, arg(args, 0, Obj::Kind::Str, "_codecs.encode's text").text);
      case Global::FakeTensor: {
        // No data: what torch 2.13 writes as an empty file. Its metadata is the placeholder's.
        auto t = std::make_shared<ir::TensorPayload>();
        t->bytes = std::make_shared<const std::vector<std::byte>>();
        auto o = make(Obj::Kind::Tensor);
        o->tensor = std::move(t);
        return o;
      }
      case Global::TypedList:
        if (items.size() != 1 || items[0]->kind != Obj::Kind::List) fail(callable.text + " expects one list");
        return items[0];
      case Global::RestoreTypeTag:
        if (items.empty()) fail("restore_type_tag without a value");
        return items[0];
      case Global::Size: return container(Obj::Kind::Tuple, arg(args, 0, Obj::Kind::Tuple, "torch.Size's argument").items);
      case Global::TensorType:
      case Global::Storage:
      case Global::Dtype: break;
    }
    fail("REDUCE calls " + callable.text + ", which is not a function");
  }

  // ('storage', torch.<T>Storage, key, location, numel): the loader checks the record.
  ObjPtr persistent_load(const Obj& pid) {
    const auto& f = pid.items;
    if (pid.kind != Obj::Kind::Tuple || f.size() != 5 || f[0]->kind != Obj::Kind::Str || f[0]->text != "storage" ||
        f[1]->kind != Obj::Kind::Global || f[1]->global->kind != Global::Storage || f[2]->kind != Obj::Kind::Str ||
        f[3]->kind != Obj::Kind::Str || f[4]->kind != Obj::Kind::Int)
      fail("a persistent id that is not ('storage', torch.<T>Storage, key, location, numel)");
    StorageRequest request{f[2]->text, f[1]->global->dtype, f[4]->integer};
    if (request.numel < 0) fail("storage '" + request.key + "' declares " + std::to_string(request.numel) + " elements");
    auto o = make(Obj::Kind::Storage);
    try {
      o->storage = storage_(request);
    } catch (const ArchiveError& e) {
      fail(e.what());
    }
    o->storage_dtype = request.dtype;
    o->storage_numel = request.numel;
    return o;
  }

  void step(unsigned char op) {
    switch (op) {
      case 0x80: take(1); return;                             // PROTO
      case 0x95: take(8); return;                             // FRAME
      case '(': mark(); return;
      case '0': pop(); return;                                // POP
      case '1': pop_mark(); return;                           // POP_MARK
      case '2': top(); push(stack_.back()); return;          // DUP
      case 'N': push(make(Obj::Kind::None)); return;
      case 0x88:
      case 0x89: {                                            // NEWTRUE / NEWFALSE
        auto o = make(Obj::Kind::Bool);
        o->integer = op == 0x88;
        push(std::move(o));
        return;
      }
      case 'K': push(integer(static_cast<int64_t>(uint_le(1)))); return;
      case 'M': push(integer(static_cast<int64_t>(uint_le(2)))); return;
      case 'J': push(integer(static_cast<int32_t>(uint_le(4)))); return;
      case 0x8a:
      case 0x8b: {                                            // LONG1 / LONG4: little-endian two's complement
        const uint64_t n = op == 0x8a ? uint_le(1) : uint_le(4);
        const unsigned char* q = take(n);
        if (n > 8) {
          push(make(Obj::Kind::BigInt));
          return;
        }
        uint64_t v = 0;
        for (uint64_t i = n; i-- > 0;) v = (v << 8) | q[i];
        if (n > 0 && n < 8 && (q[n - 1] & 0x80)) v |= ~uint64_t(0) << (8 * n);
        push(integer(static_cast<int64_t>(v)));
        return;
      }
      case 'G': {                                             // BINFLOAT: big-endian IEEE double
        const unsigned char* q = take(8);
        uint64_t bits = 0;
        for (int i = 0; i < 8; ++i) bits = (bits << 8) | q[i];
        auto o = make(Obj::Kind::Float);
        std::memcpy(&o->real, &bits, 8);
        push(std::move(o));
        return;
      }
      case 'X': push(text(Obj::Kind::Str, bytes(uint_le(4)))); return;       // BINUNICODE
      case 0x8c: push(text(Obj::Kind::Str, bytes(uint_le(1)))); return;      // SHORT_BINUNICODE
      case 0x8d: push(text(Obj::Kind::Str, bytes(uint_le(8)))); return;      // BINUNICODE8
      case 'B': push(text(Obj::Kind::Bytes, bytes(uint_le(4)))); return;     // BINBYTES
      case 'C': push(text(Obj::Kind::Bytes, bytes(uint_le(1)))); return;     // SHORT_BINBYTES
      case 0x8e:
      case 0x96: push(text(Obj::Kind::Bytes, bytes(uint_le(8)))); return;    // BINBYTES8 / BYTEARRAY8
      case ')': push(container(Obj::Kind::Tuple, {})); return;
      case 't': push(container(Obj::Kind::Tuple, pop_mark())); return;
      case 0x85:
      case 0x86:
      case 0x87: {                                            // TUPLE1..3
        std::vector<ObjPtr> items(op - 0x84);
        for (size_t i = items.size(); i-- > 0;) items[i] = pop();
        push(container(Obj::Kind::Tuple, std::move(items)));
        return;
      }
      case ']': push(container(Obj::Kind::List, {})); return;
      case 'l': push(container(Obj::Kind::List, pop_mark())); return;
      case '}': push(container(Obj::Kind::Dict, {})); return;
      case 'd': {
        auto items = pop_mark();
        if (items.size() % 2) fail("DICT with an odd number of items");
        push(container(Obj::Kind::Dict, std::move(items)));
        return;
      }
      case 0x8f: push(container(Obj::Kind::Set, {})); return;               // EMPTY_SET
      case 0x91: push(container(Obj::Kind::Set, pop_mark())); return;       // FROZENSET
      case 'a': add_items(Obj::Kind::List, "APPEND", {pop()}); return;
      case 'e': add_items(Obj::Kind::List, "APPENDS", pop_mark()); return;
      case 0x90: add_items(Obj::Kind::Set, "ADDITEMS", pop_mark()); return;
      case 's': {
        ObjPtr value = pop(), key = pop();
        add_items(Obj::Kind::Dict, "SETITEM", {std::move(key), std::move(value)});
        return;
      }
      case 'u': {
        auto items = pop_mark();
        if (items.size() % 2) fail("SETITEMS with an odd number of items");
        add_items(Obj::Kind::Dict, "SETITEMS", std::move(items));
        return;
      }
      case 'c': {                                             // GLOBAL
        std::string module = line();
        push(global(std::move(module), line()));
        return;
      }
      case 0x93: {                                            // STACK_GLOBAL
        ObjPtr name = pop(), module = pop();
        if (name->kind != Obj::Kind::Str || module->kind != Obj::Kind::Str) fail("STACK_GLOBAL of non-strings");
        push(global(module->text, name->text));
        return;
      }
      case 'R': {
        ObjPtr args = pop(), callable = pop();
        push(call(*callable, *args));
        return;
      }
      case 'Q': {
        ObjPtr pid = pop();
        push(persistent_load(*pid));
        return;
      }
      case 'q': memo_put(uint_le(1)); return;                 // BINPUT
      case 'r': memo_put(uint_le(4)); return;                 // LONG_BINPUT
      case 0x94: memo_put(memo_.size()); return;              // MEMOIZE
      case 'h': memo_get(uint_le(1)); return;                 // BINGET
      case 'j': memo_get(uint_le(4)); return;                 // LONG_BINGET
      default: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        fail(std::string("pickle opcode ") + hex + " is not one a tensor archive needs");
      }
    }
  }

  // The value the pickle built, as SaveValue: each object converted once
  // (shared objects stay shared, so a pickle of repeated references is not
  // walked exponentially) and the walk's depth bounded, which also refuses
  // cycles and containers that grew after they were nested.
  class Convert {
   public:
    explicit Convert(const Unpickler& u) : u_(u) {}
    SaveValue value(const Obj& o, int depth) {
      if (depth > u_.limits_.max_nesting)
        u_.fail("pickled containers nested more than " + std::to_string(u_.limits_.max_nesting) +
                " levels deep, or containing themselves (raise the limit with --limit nesting=...)");
      if (auto it = done_.find(&o); it != done_.end()) return it->second;
      SaveValue v = make(o, depth);
      done_.emplace(&o, v);
      return v;
    }

   private:
    SaveList items(const std::vector<ObjPtr>& objs, int depth) {
      SaveList out;
      out.reserve(objs.size());
      for (const auto& i : objs) out.push_back(value(*i, depth + 1));
      return out;
    }
    SaveValue make(const Obj& o, int depth) {
      switch (o.kind) {
        case Obj::Kind::None: return {ir::None{}};
        case Obj::Kind::Bool: return {o.integer != 0};
        case Obj::Kind::Int: return {o.integer};
        case Obj::Kind::Float: return {o.real};
        case Obj::Kind::Str: return {o.text};
        case Obj::Kind::Tensor: return {*o.tensor};
        case Obj::Kind::Tuple: return SaveValue::tuple(items(o.items, depth));
        case Obj::Kind::List: return SaveValue::list(items(o.items, depth));
        case Obj::Kind::Dict: {
          // Python keeps the last value of a repeated key, in the first one's place.
          SaveDict entries;
          std::unordered_map<std::string, size_t> at;
          for (size_t i = 0; i + 1 < o.items.size(); i += 2) {
            const Obj& key = *o.items[i];
            if (key.kind != Obj::Kind::Str)
              u_.fail(std::string("a dict keyed by ") + kind_name(key.kind) + ", not by strings");
            SaveValue v = value(*o.items[i + 1], depth + 1);
            if (auto it = at.find(key.text); it != at.end()) {
              entries[it->second].second = std::move(v);
            } else {
              at.emplace(key.text, entries.size());
              entries.emplace_back(key.text, std::move(v));
            }
          }
          return SaveValue::dict(std::move(entries));
        }
        case Obj::Kind::BigInt:
        case Obj::Kind::Bytes:
        case Obj::Kind::Set:
        case Obj::Kind::Global:
        case Obj::Kind::Storage: break;
      }
      u_.fail(std::string("the pickle holds ") + kind_name(o.kind) + ", which is not a value ExportLens reads");
    }
    const Unpickler& u_;
    std::unordered_map<const Obj*, SaveValue> done_;
  };

  const unsigned char* p_;
  uint64_t size_;
  uint64_t at_ = 0, op_at_ = 0;
  const std::string& where_;
  const ReadLimits& limits_;
  const StorageLoader& storage_;
  std::vector<ObjPtr> stack_;
  std::vector<size_t> marks_;
  std::vector<ObjPtr> memo_;
  uint64_t objects_ = 0;
};

}  // namespace

SaveValue read_pickle(std::span<const std::byte> pickle, const std::string& where, const ReadLimits& limits,
                      const StorageLoader& storage) {
  return Unpickler(pickle, where, limits, storage).run();
}

}  // namespace exportlens::serde
