#include "engine/runtime/saved_values.h"

#include <ATen/ops/empty.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <fstream>

#include <unordered_map>

#include "engine/ir/tensor_extent.h"
#include "engine/runtime/torch_types.h"
#include "engine/serde/torch_save_reader.h"
#include "engine/serde/zip_archive.h"

namespace exportlens::runtime {
namespace {

// Converts each shared container and each storage once: what the pickle
// shares stays shared, and nothing is walked or read twice. The unpickler
// bounded the nesting, so the recursion is bounded too.
class ToIValue {
 public:
  c10::IValue operator()(const serde::SaveValue& v) {
    return std::visit([this](const auto& x) { return convert(x); }, v.v);
  }

 private:
  c10::IValue convert(const ir::None&) { return c10::IValue(); }
  c10::IValue convert(bool b) { return b; }
  c10::IValue convert(int64_t i) { return i; }
  c10::IValue convert(double d) { return d; }
  c10::IValue convert(const std::string& s) { return s; }
  c10::IValue convert(const ir::TensorPayload& p) {
    std::vector<int64_t> sizes, strides;
    sizes.reserve(p.meta.sizes.size());
    strides.reserve(p.meta.strides.size());
    for (const auto& s : p.meta.sizes) sizes.push_back(*ir::example_value(s));
    for (const auto& s : p.meta.strides) strides.push_back(*ir::example_value(s));
    return storage(p).as_strided(sizes, strides, *ir::example_value(p.meta.storage_offset));
  }
  c10::IValue convert(const std::shared_ptr<serde::SaveValue::Tuple>& t) {
    return shared(t.get(), [&] {
      std::vector<c10::IValue> items;
      items.reserve(t->items.size());
      for (const auto& x : t->items) items.push_back((*this)(x));
      return c10::IValue(c10::ivalue::Tuple::create(std::move(items)));
    });
  }
  c10::IValue convert(const std::shared_ptr<serde::SaveValue::List>& l) {
    return shared(l.get(), [&] {
      c10::impl::GenericList items(c10::AnyType::get());
      items.reserve(l->items.size());
      for (const auto& x : l->items) items.push_back((*this)(x));
      return c10::IValue(std::move(items));
    });
  }
  c10::IValue convert(const std::shared_ptr<serde::SaveValue::Dict>& d) {
    return shared(d.get(), [&] {
      c10::impl::GenericDict items(c10::StringType::get(), c10::AnyType::get());
      for (const auto& [k, x] : d->items) items.insert_or_assign(k, (*this)(x));
      return c10::IValue(std::move(items));
    });
  }

  template <class Make>
  c10::IValue shared(const void* container, Make make) {
    if (auto it = containers_.find(container); it != containers_.end()) return it->second;
    return containers_.emplace(container, make()).first->second;
  }

  // The storage as a flat tensor, allocated at the record's size and filled from it.
  at::Tensor storage(const ir::TensorPayload& p) {
    const auto dtype = to_torch(p.meta.dtype);
    if (!p.source) throw std::runtime_error("a tensor without data (a fake tensor) cannot be an input");
    auto& flat = storages_[p.source.get()];
    if (!flat.defined()) {
      const int64_t element = ir::element_size(p.meta.dtype);
      flat = at::empty({static_cast<int64_t>(p.stored_size) / element}, at::TensorOptions().dtype(dtype));
      p.source->read_into(std::span<std::byte>(static_cast<std::byte*>(flat.data_ptr()), p.stored_size));
    }
    return flat.scalar_type() == dtype ? flat : flat.view(dtype);
  }

  std::unordered_map<const void*, c10::IValue> containers_;
  std::unordered_map<const ir::PayloadSource*, at::Tensor> storages_;
};

}  // namespace

c10::IValue to_ivalue(const serde::SaveValue& value) { return ToIValue()(value); }

c10::IValue load_saved_value(const std::filesystem::path& path, const std::string& what, const serde::ReadLimits& limits) {
  const std::string file = path.string();
  try {
    return to_ivalue(serde::torch_load(path, limits));
  } catch (const serde::ArchiveError& e) {
    const std::string why = e.what();
    throw std::runtime_error(file + ": not a torch.save file of " + what + ": " +
                             (why.rfind(file + ": ", 0) == 0 ? why.substr(file.size() + 2) : why));
  } catch (const std::bad_alloc&) {
    throw std::runtime_error(file + ": out of memory reading the " + what + " file");
  }
}

std::vector<c10::IValue> load_inputs_file(const std::filesystem::path& path, const serde::ReadLimits& limits) {
  const c10::IValue v = load_saved_value(path, "inputs", limits);
  if (v.isTuple()) return v.toTupleRef().elements().vec();
  if (v.isList()) return v.toListRef().vec();
  return {v};
}

void save_values_file(const std::filesystem::path& path, const std::vector<c10::IValue>& values) {
  std::vector<c10::IValue> cpu;  // tensors on the CPU, as torch.load gives them back
  for (const auto& v : values) cpu.push_back(v.isTensor() ? c10::IValue(v.toTensor().to(c10::kCPU)) : v);
  const std::vector<char> bytes = torch::jit::pickle_save(c10::ivalue::Tuple::create(std::move(cpu)));
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace exportlens::runtime
