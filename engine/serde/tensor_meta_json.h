#pragma once
// Tensor metadata and symbolic values in the .pt2 schema's JSON form
// (schema.py TensorMeta, SymInt, SymBool, SymFloat), as torch writes them:
// shared by the program JSON and the weights/constants configs.
#include <nlohmann/json.hpp>

#include "engine/ir/value.h"

namespace exportlens::serde {

nlohmann::ordered_json sym_int_json(const ir::SymInt& s);
nlohmann::ordered_json sym_bool_json(const ir::SymBool& b);
nlohmann::ordered_json sym_float_json(const ir::SymFloat& f);
nlohmann::ordered_json tensor_meta_json(const ir::TensorMeta& m);

}  // namespace exportlens::serde
