#pragma once
// torch.save without LibTorch, for the small values a .pt2 keeps pickled
// beside the program (the example inputs): tuples, lists, string-keyed dicts,
// None, bools, ints, floats, strings and tensors (raw bytes with their
// metadata). The archive is what torch.save writes (data.pkl at pickle
// protocol 2 with tensors as torch._utils._rebuild_tensor_v2 over storages,
// data/<i>, version, byteorder), so torch.load reads it with
// weights_only=True.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/ir/exported_program.h"

namespace exportlens::serde {

struct SaveValue;
using SaveList = std::vector<SaveValue>;
using SaveDict = std::vector<std::pair<std::string, SaveValue>>;

struct SaveValue {
  struct Tuple { SaveList items; };
  struct List { SaveList items; };
  struct Dict { SaveDict items; };
  std::variant<ir::None, bool, int64_t, double, std::string, ir::TensorPayload, std::shared_ptr<Tuple>,
               std::shared_ptr<List>, std::shared_ptr<Dict>>
      v;
  static SaveValue tuple(SaveList items) { return {std::make_shared<Tuple>(Tuple{std::move(items)})}; }
  static SaveValue list(SaveList items) { return {std::make_shared<List>(List{std::move(items)})}; }
  static SaveValue dict(SaveDict items) { return {std::make_shared<Dict>(Dict{std::move(items)})}; }
};

/// The bytes of torch.save(value). Tensors must be raw (not pickled) payloads.
std::vector<std::byte> torch_save(const SaveValue& value);

}  // namespace exportlens::serde
