#pragma once
// torch.export.AdditionalInputs: instead of a dynamic_shapes spec, more sets
// of example inputs. Every tensor dim (and int argument) whose value differs
// between the example and any additional set becomes Dim.DYNAMIC, everything
// else static; the program is then exported (or re-solved) with that spec,
// and each additional set is checked against the resulting program (its
// symbolic input shapes and range constraints), as AdditionalInputs.verify does.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/base/error.h"
#include "engine/symbolic/dynamic_shapes_spec.h"

namespace exportlens::symbolic {

/// One forward() argument of one example set.
struct ArgumentExample {
  enum class Kind { Tensor, Int, Other };
  std::string name;
  Kind kind = Kind::Tensor;
  std::vector<int64_t> sizes;  // Tensor
  int64_t value = 0;           // Int
  std::string text;            // Other (float, bool, None, ...): compared as text
};
using ExampleSet = std::vector<ArgumentExample>;

class AdditionalInputsError : public Error {
 public:
  explicit AdditionalInputsError(const std::string& message) : Error(ErrorKind::Input, {}, message) {}
};

/// AdditionalInputs.dynamic_shapes(m, args): a dict by argument name of a
/// tuple per tensor (Dim.DYNAMIC where the sizes differ, None where they
/// agree) and None per other argument. Throws AdditionalInputsError with
/// torch's message when a set has another count of arguments, another kind or
/// rank, or a differing value that cannot be dynamic (float, bool, ...); an
/// int that differs, which torch would make a SymInt input, is refused too
/// (ExportLens specializes int arguments).
DynamicShapesSpec infer_dynamic_shapes(const ExampleSet& example, const std::vector<ExampleSet>& additional);

}  // namespace exportlens::symbolic
