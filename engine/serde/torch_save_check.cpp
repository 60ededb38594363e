#include "engine/serde/torch_save_check.h"

#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "engine/serde/zip_archive.h"

namespace exportlens::serde {
namespace {

// What the scan knows about one value on the pickle's stack: enough to read
// a storage's persistent id, and how deeply the value nests containers.
struct Item {
  enum class Kind { Mark, Other, Str, Int, Global, Tuple } kind = Kind::Other;
  int depth = 0;  // containers nested inside this value, itself included
  uint64_t id = 0;  // a container's identity: memo recalls alias it, and it may grow later
  std::string text;
  int64_t integer = 0;
  std::vector<Item> items;  // a Tuple's items, kept only while it is flat and short
};

std::optional<int64_t> storage_element_size(std::string_view type) {
  struct Known {
    std::string_view name;
    int64_t size;
  };
  static constexpr Known kTypes[] = {
      {"DoubleStorage", 8}, {"FloatStorage", 4},  {"HalfStorage", 2},          {"BFloat16Storage", 2},
      {"LongStorage", 8},   {"IntStorage", 4},    {"ShortStorage", 2},         {"CharStorage", 1},
      {"ByteStorage", 1},   {"BoolStorage", 1},   {"ComplexFloatStorage", 8},  {"ComplexDoubleStorage", 16},
      {"UntypedStorage", 1}, {"UInt16Storage", 2}, {"Float8_e4m3fnStorage", 1}, {"Float8_e5m2Storage", 1},
      {"Float8_e4m3fnuzStorage", 1}, {"Float8_e5m2fnuzStorage", 1}, {"ComplexHalfStorage", 4}};
  for (const auto& k : kTypes)
    if (type == "torch." + std::string(k.name) || type == k.name) return k.size;
  return std::nullopt;
}

class PickleScan {
 public:
  PickleScan(const std::vector<std::byte>& pickle, const ZipArchive& zip, std::string prefix, std::string where,
             const ReadLimits& limits)
      : p_(reinterpret_cast<const unsigned char*>(pickle.data())),
        size_(pickle.size()),
        zip_(zip),
        prefix_(std::move(prefix)),
        where_(std::move(where)),
        limits_(limits) {}

  void run() {
    while (true) {
      if (at_ >= size_) fail("the pickle ends without a STOP opcode");
      op_at_ = at_;
      const unsigned char op = p_[at_++];
      if (op == '.') return;
      step(op);
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ArchiveError(where_ + ": offset " + std::to_string(op_at_) + ": " + what);
  }

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
    const size_t start = at_;
    while (at_ < size_ && p_[at_] != '\n') ++at_;
    if (at_ >= size_) fail("unterminated GLOBAL name");
    return std::string(reinterpret_cast<const char*>(p_ + start), at_++ - start);
  }

  // Lists and dicts grow after they are made (APPEND, SETITEMS), also through
  // memo copies: their depth is kept per container, not per stack copy.
  int depth_of(const Item& item) const {
    if (item.id == 0) return item.depth;
    auto it = container_depth_.find(item.id);
    return it == container_depth_.end() ? item.depth : it->second;
  }

  void push(Item item) {
    item.depth = depth_of(item);
    if (item.depth > limits_.max_nesting)
      fail("pickled containers nested more than " + std::to_string(limits_.max_nesting) +
           " levels deep (raise the limit with --limit nesting=...)");
    stack_.push_back(std::move(item));
  }
  Item pop() {
    if (stack_.empty() || stack_.back().kind == Item::Kind::Mark) fail("the pickle pops from an empty stack");
    Item item = std::move(stack_.back());
    stack_.pop_back();
    return item;
  }
  std::vector<Item> pop_to_mark() {
    size_t mark = stack_.size();
    while (mark > 0 && stack_[mark - 1].kind != Item::Kind::Mark) --mark;
    if (mark == 0) fail("the pickle has no MARK to pop to");
    std::vector<Item> items(std::make_move_iterator(stack_.begin() + mark), std::make_move_iterator(stack_.end()));
    stack_.resize(mark - 1);
    return items;
  }
  Item container(Item::Kind kind, std::vector<Item> items) {
    Item c;
    c.kind = kind;
    c.id = ++containers_;
    int deepest = 0;
    bool flat = items.size() <= 8;
    for (const auto& i : items) {
      deepest = std::max(deepest, depth_of(i));
      flat = flat && i.items.empty();
    }
    c.depth = deepest + 1;
    container_depth_[c.id] = c.depth;
    if (kind == Item::Kind::Tuple && flat) c.items = std::move(items);
    return c;
  }
  // APPEND(S) / SETITEM(S) / BUILD: the target on the stack now holds `items`.
  void nest_into_top(const std::vector<Item>& items) {
    if (stack_.empty() || stack_.back().kind == Item::Kind::Mark) fail("no container to add to");
    int deepest = 0;
    for (const auto& i : items) deepest = std::max(deepest, depth_of(i));
    Item top = pop();
    top.depth = std::max(depth_of(top), deepest + 1);
    if (top.id) container_depth_[top.id] = top.depth;
    top.items.clear();
    push(std::move(top));
  }
  Item scalar(Item::Kind kind) {
    Item i;
    i.kind = kind;
    return i;
  }
  Item str(std::string s) {
    Item i = scalar(Item::Kind::Str);
    i.text = std::move(s);
    return i;
  }
  Item integer(int64_t v) {
    Item i = scalar(Item::Kind::Int);
    i.integer = v;
    return i;
  }

  // ('storage', torch.FloatStorage, key, location, numel): the record must hold numel elements.
  void persistent_id(const Item& pid) {
    const auto& f = pid.items;
    if (pid.kind != Item::Kind::Tuple || f.size() != 5 || f[0].kind != Item::Kind::Str || f[0].text != "storage" ||
        f[1].kind != Item::Kind::Global || f[2].kind != Item::Kind::Str || f[4].kind != Item::Kind::Int)
      fail("a persistent id that is not ('storage', type, key, location, numel)");
    const auto element = storage_element_size(f[1].text);
    if (!element) fail("unknown storage type '" + f[1].text + "'");
    int64_t needed = 0;
    if (f[4].integer < 0 || __builtin_mul_overflow(f[4].integer, *element, &needed))
      fail("storage '" + f[2].text + "' declares " + std::to_string(f[4].integer) + " elements");
    const std::string record = prefix_ + "data/" + f[2].text;
    const auto* entry = zip_.find(record);
    if (!entry) fail("storage '" + f[2].text + "' has no record " + record);
    if (entry->uncompressed_size < static_cast<uint64_t>(needed))
      fail("storage '" + f[2].text + "' declares " + std::to_string(f[4].integer) + " elements (" +
           std::to_string(needed) + " bytes) but its record holds " + std::to_string(entry->uncompressed_size));
  }

  void step(unsigned char op) {
    switch (op) {
      case 0x80: take(1); return;                    // PROTO
      case 0x95: take(8); return;                    // FRAME
      case '(': push(scalar(Item::Kind::Mark)); return;
      case ')': push(container(Item::Kind::Tuple, {})); return;
      case ']':
      case '}': push(container(Item::Kind::Other, {})); return;
      case 't': push(container(Item::Kind::Tuple, pop_to_mark())); return;
      case 0x85:
      case 0x86:
      case 0x87: {                                   // TUPLE1..3
        std::vector<Item> items(op - 0x84);
        for (size_t i = items.size(); i-- > 0;) items[i] = pop();
        push(container(Item::Kind::Tuple, std::move(items)));
        return;
      }
      case 'l': push(container(Item::Kind::Other, pop_to_mark())); return;  // LIST
      case 'd': push(container(Item::Kind::Other, pop_to_mark())); return;  // DICT
      case 'a': nest_into_top({pop()}); return;
      case 's': {
        Item value = pop(), key = pop();
        nest_into_top({key, value});
        return;
      }
      case 'e':
      case 'u': nest_into_top(pop_to_mark()); return;
      case 'b': nest_into_top({pop()}); return;      // BUILD
      case 'N':
      case 0x88:
      case 0x89: push(scalar(Item::Kind::Other)); return;
      case 'K': push(integer(static_cast<int64_t>(uint_le(1)))); return;
      case 'M': push(integer(static_cast<int64_t>(uint_le(2)))); return;
      case 'J': push(integer(static_cast<int32_t>(uint_le(4)))); return;
      case 0x8a:
      case 0x8b: {                                   // LONG1 / LONG4: little-endian two's complement
        const uint64_t n = op == 0x8a ? uint_le(1) : uint_le(4);
        const unsigned char* q = take(n);
        if (n > 8) {
          push(scalar(Item::Kind::Other));  // beyond int64: never a valid element count
          return;
        }
        uint64_t v = 0;
        for (uint64_t i = n; i-- > 0;) v = (v << 8) | q[i];
        if (n > 0 && n < 8 && (q[n - 1] & 0x80)) v |= ~uint64_t(0) << (8 * n);
        push(integer(static_cast<int64_t>(v)));
        return;
      }
      case 'G': take(8); push(scalar(Item::Kind::Other)); return;
      case 'X': push(str(bytes(uint_le(4)))); return;
      case 0x8c: push(str(bytes(uint_le(1)))); return;
      case 0x8d: push(str(bytes(uint_le(8)))); return;
      case 'T': push(str(bytes(uint_le(4)))); return;
      case 'U': push(str(bytes(uint_le(1)))); return;
      case 'B': take(uint_le(4)); push(scalar(Item::Kind::Other)); return;
      case 'C': take(uint_le(1)); push(scalar(Item::Kind::Other)); return;
      case 'c': {
        Item g = scalar(Item::Kind::Global);
        const std::string module = line();
        g.text = module + "." + line();
        push(std::move(g));
        return;
      }
      case 0x93: {                                   // STACK_GLOBAL
        Item name = pop(), module = pop();
        Item g = scalar(Item::Kind::Global);
        g.text = module.text + "." + name.text;
        push(std::move(g));
        return;
      }
      case 'q': memo(uint_le(1)); return;
      case 'r': memo(uint_le(4)); return;
      case 0x94: memo(memo_.size()); return;         // MEMOIZE
      case 'h': recall(uint_le(1)); return;
      case 'j': recall(uint_le(4)); return;
      case 'R':
      case 0x81: {                                   // REDUCE / NEWOBJ: the object nests what its arguments nest
        Item args = pop();
        pop();
        Item out = scalar(Item::Kind::Other);
        out.depth = std::max(depth_of(args), 1);
        push(std::move(out));
        return;
      }
      case 'Q': {                                    // BINPERSID
        persistent_id(pop());
        push(scalar(Item::Kind::Other));
        return;
      }
      case '0': pop(); return;                       // POP
      default: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        fail(std::string("pickle opcode ") + hex + " is not one torch.save writes");
      }
    }
  }

  void memo(uint64_t key) {
    if (stack_.empty()) fail("the pickle memoizes an empty stack");
    memo_[key] = stack_.back();
  }
  void recall(uint64_t key) {
    auto it = memo_.find(key);
    if (it == memo_.end()) fail("the pickle recalls memo " + std::to_string(key) + ", which was never stored");
    push(it->second);
  }

  const unsigned char* p_;
  uint64_t size_;
  uint64_t at_ = 0, op_at_ = 0;
  const ZipArchive& zip_;
  std::string prefix_;
  std::string where_;
  const ReadLimits& limits_;
  std::vector<Item> stack_;
  std::unordered_map<uint64_t, Item> memo_;
  uint64_t containers_ = 0;
  std::unordered_map<uint64_t, int> container_depth_;
};

}  // namespace

void check_torch_save(std::shared_ptr<const std::vector<std::byte>> bytes, const std::string& label,
                      const ReadLimits& limits) {
  const ZipArchive zip(bytes, label, limits);
  const ZipArchive::Entry* pickle = nullptr;
  for (const auto& e : zip.entries()) {
    if (e.name == "data.pkl" || e.name.ends_with("/data.pkl")) {
      pickle = &e;
      break;
    }
  }
  if (!pickle) throw ArchiveError(label + ": not a torch.save archive (no data.pkl entry)");
  const std::string prefix = pickle->name.substr(0, pickle->name.size() - std::string("data.pkl").size());
  PickleScan(zip.read(pickle->name), zip, prefix, label + ": " + pickle->name, limits).run();
}

}  // namespace exportlens::serde
