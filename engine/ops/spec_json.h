#pragma once
// The JSON form of a dynamic_shapes spec, for tools:
//   {"form": "dict", "dims": {"dx": {"min": 4, "max": 256}},   ("variable": the Python name, if not "dx")
//    "inputs": [{"name": "x", "form": "tuple",
//                "dims": [{"index": 0, "kind": "named", "dim": "dx"},
//                         {"index": 1, "kind": "derived", "dim": "dx", "coeff": 2, "offset": 1},
//                         {"index": 2, "kind": "auto", "min": 2}, {"index": 3, "kind": "int", "value": 4},
//                         {"index": 4, "kind": "static"}, {"index": 5, "kind": "none"}]}]}
// form: "none" (dynamic_shapes=None), "dict" (by argument name), "tuple"/"list"
// (by position); an input's form: "none", "tuple", "list", "dict"; kinds:
// none, static, auto, dynamic, int, named, derived.
// An input that is a tuple, list, dict or registered dataclass has "items"
// instead of "dims": one input object per part (with "key" in a dict), nested
// as deep as the input is:
//   {"name": "pair", "form": "tuple", "items": [{"form": "tuple", "dims": [...]}, {"form": "none"}]}
//   {"name": "cfg", "form": "dict", "items": [{"key": "a", "form": "tuple", "dims": [...]}]}
// and a bare dimension value where a shape was expected is {"form": "none",
// "scalar": {"kind": ...}} (refused against the inputs, as torch refuses it).
#include <string>
#include <string_view>

#include "engine/symbolic/dynamic_shapes_spec.h"

namespace exportlens::ops {

std::string spec_to_json(const symbolic::DynamicShapesSpec& spec);
/// Throws symbolic::SpecError (line 0) naming the field on malformed JSON.
symbolic::DynamicShapesSpec spec_from_json(std::string_view json);

}  // namespace exportlens::ops
