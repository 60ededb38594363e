// serde::torch_load (our unpickler) and runtime::to_ivalue against torch.load:
// every kind of value a torch.save archive holds (tests/engine/torch_load_cases.py
// writes them and what torch.load returns), written by torch.save at the
// default protocol and at 4 and 5, and by LibTorch's own pickler. Each value
// must be torch's: containers, scalars, every tensor's dtype, sizes, strides,
// offset and elements, and which tensors share a storage. Storages are read
// only when converted, once each; the limits refuse honest files set below them.
#include <ATen/ATen.h>

#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/runtime/saved_values.h"
#include "engine/runtime/torch_types.h"
#include "engine/serde/torch_save_reader.h"
#include "engine/serde/zip_archive.h"
#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;
using nlohmann::json;

namespace {

// Compares `v` with torch's description of the same value (torch_load_cases.py
// writes every field its kind has; a missing one reads as "" / 0 / [], unit/json.h); `where` names the
// place in the value, `storages` maps torch's storage numbers to ours.
class SameAsTorch {
 public:
  void check(const c10::IValue& v, const json& want, const std::string& where) {
    const std::string kind = as_string(field(want, "kind"));
    const auto fail = [&](const std::string& what) { FAIL(where + ": " + what); };
    if (kind == "none") {
      if (!v.isNone()) fail("expected None");
    } else if (kind == "bool") {
      if (!v.isBool() || v.toBool() != as_bool(field(want, "value")))
        fail("expected a bool");
    } else if (kind == "int") {
      if (!v.isInt() || v.toInt() != static_cast<int64_t>(as_double(field(want, "value")))) fail("expected an int");
    } else if (kind == "float") {
      if (!v.isDouble() || v.toDouble() != as_double(field(want, "value"))) fail("expected a float");
    } else if (kind == "str") {
      if (!v.isString() || v.toStringRef() != as_string(field(want, "value"))) fail("expected a str");
    } else if (kind == "tuple" || kind == "list") {
      if (kind == "tuple" ? !v.isTuple() : !v.isList()) fail("expected a " + kind);
      const auto items = v.isTuple() ? v.toTupleRef().elements().vec() : v.toListRef().vec();
      const json want_items = as_array(field(want, "items"));
      COMPARE(items.size(), size_t(want_items.size()));
      for (size_t i = 0; i < items.size(); ++i) check(items[i], want_items[i], where + "[" + std::to_string(i) + "]");
    } else if (kind == "dict") {
      if (!v.isGenericDict()) fail("expected a dict");
      const auto d = v.toGenericDict();
      const json want_items = as_array(field(want, "items"));
      COMPARE(d.size(), size_t(want_items.size()));
      size_t i = 0;
      for (const auto& entry : d) {  // insertion order, as Python's
        const json& kv = want_items[i++];
        const std::string key = as_string(kv.at(0));
        COMPARE(entry.key().toStringRef(), key);
        check(entry.value(), kv.at(1), where + "['" + key + "']");
      }
    } else {
      COMPARE(kind, std::string("tensor"));
      tensor(v, want, where);
    }
  }

 private:
  void tensor(const c10::IValue& v, const json& want, const std::string& where) {
    VERIFY_MSG(v.isTensor(), where + ": expected a tensor");
    const at::Tensor t = v.toTensor();
    COMPARE(std::string(ir::torch_name(runtime::from_torch(t.scalar_type()))), as_string(field(want, "dtype")));
    std::vector<int64_t> sizes, strides;
    for (const auto& s : as_array(field(want, "sizes"))) sizes.push_back(as_int(s));
    for (const auto& s : as_array(field(want, "strides"))) strides.push_back(as_int(s));
    COMPARE(t.sizes().vec(), sizes);
    COMPARE(t.strides().vec(), strides);
    COMPARE(t.storage_offset(), as_int(field(want, "offset")));
    const at::Tensor flat = (t.is_complex() ? at::view_as_real(t) : t).to(at::kDouble).reshape(-1).contiguous();
    std::vector<double> values;
    for (const auto& x : as_array(field(want, "values"))) {
      if (x.is_array())
        for (const auto& part : x) values.push_back(as_double(part));
      else
        values.push_back(as_double(x));
    }
    COMPARE(size_t(flat.numel()), values.size());
    for (size_t i = 0; i < values.size(); ++i)
      VERIFY_MSG(flat.data_ptr<double>()[i] == values[i], where + ": element " + std::to_string(i));
    // Sharing: torch's storage number k is one storage of ours, and no other number is.
    if (t.storage().nbytes() == 0) return;
    const void* ours = t.storage().data();
    const int theirs = int(as_int(field(want, "storage")));
    const auto [it, added] = by_number_.emplace(theirs, ours);
    VERIFY_MSG(it->second == ours, where + ": torch shares this tensor's storage, ExportLens does not");
    const auto [back, fresh] = by_storage_.emplace(ours, theirs);
    VERIFY_MSG(back->second == theirs, where + ": ExportLens shares a storage torch does not");
  }

  std::map<int, const void*> by_number_;
  std::map<const void*, int> by_storage_;
};

// What the QtTest suite's initTestCase made: the archives torch_load_cases.py
// writes, and its cases.json.
struct State {
  TempDir dir;
  json cases;

  std::string file(const std::string& name) const { return dir.file(name + ".pt"); }
};

void build(State& s) {
  const auto p = run_process(EXPORTLENS_PYTHON,
                             {std::string(EXPORTLENS_SOURCE_DIR) + "/tests/engine/torch_load_cases.py", s.dir.path()},
                             {}, 300);
  std::cout << p.out;  // the QtTest suite forwarded the script's output
  std::cerr << p.err;
  COMPARE(p.code, 0);
  s.cases = read_json(s.dir.file("cases.json"));
  VERIFY(s.cases.is_object());
  VERIFY(s.cases.size() >= 10);
}

// Built once, on first use; a failure building it fails every test that uses it
// (as a failed initTestCase did), without building it again.
const State& state() {
  static SetUp<State> once;
  return once.get(build);
}

std::string file(const std::string& name) { return state().file(name); }

}  // namespace

EL_TEST(values_are_torchs) {
  std::vector<std::string> rows;
  for (const auto& [name, value] : state().cases.items()) rows.push_back(name);  // sorted by name
  for_each_row(rows, [](const std::string& name) {
    const c10::IValue v = runtime::to_ivalue(serde::torch_load(file(name), {}));
    SameAsTorch().check(v, state().cases.at(name), name);
  });
}

// Five views of one storage: nothing is read until the value is converted,
// then the storage once, into one allocation they all view.
EL_TEST(storages_are_read_once_when_converted) {
  const serde::SaveValue value = serde::torch_load(file("views"), {});
  const auto& views = std::get<std::shared_ptr<serde::SaveValue::Tuple>>(value.v)->items;
  COMPARE(views.size(), size_t(5));
  const auto& first = std::get<ir::TensorPayload>(views[0].v);
  VERIFY(first.source);
  for (const auto& v : views) COMPARE(std::get<ir::TensorPayload>(v.v).source, first.source);
  COMPARE(first.source->bytes_read(), uint64_t(0));
  const c10::IValue converted = runtime::to_ivalue(value);
  COMPARE(first.source->bytes_read(), uint64_t(4 * 6 * sizeof(float)));
  const auto items = converted.toTupleRef().elements();
  for (const auto& t : items) COMPARE(t.toTensor().storage().data(), items[0].toTensor().storage().data());
}

// The limits hold on honest files too, named with the payload and the offset.
EL_TEST(limits_refuse_what_is_past_them) {
  serde::ReadLimits few;
  few.max_pickle_objects = 10;
  try {
    serde::torch_load(file("scalars_and_containers"), few);
    FAIL("10 objects should not hold this file");
  } catch (const serde::ArchiveError& e) {
    const std::string m = e.what();
    VERIFY_MSG(contains(m, "scalars_and_containers.pt: scalars_and_containers/data.pkl: offset ") &&
                   contains(m, "makes more than 10 objects"),
               m);
  }
  serde::ReadLimits shallow;
  shallow.max_nesting = 50;
  VERIFY_THROWS(serde::ArchiveError, serde::torch_load(file("nested_200"), shallow));
  serde::torch_load(file("nested_200"), {});  // the default limits hold them
  // The pickle and every storage record count toward the total before any storage is read.
  uint64_t pickle = 0;
  const serde::ZipArchive archive(file("views"));
  for (const auto& e : archive.entries())
    if (e.name.ends_with("/data.pkl")) pickle = e.uncompressed_size;
  VERIFY(pickle > 0);
  serde::ReadLimits exact;
  exact.max_total_bytes = pickle + 4 * 6 * sizeof(float);
  serde::torch_load(file("views"), exact);
  serde::ReadLimits one_less = exact;
  --one_less.max_total_bytes;
  try {
    serde::torch_load(file("views"), one_less);
    FAIL("a total one byte short should not hold this file");
  } catch (const serde::ArchiveError& e) {
    VERIFY_MSG(contains(e.what(), "inflate to more than the limit of"), e.what());
  }
}
