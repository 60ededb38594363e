#pragma once
// Checks concrete user inputs against the program before running it: count,
// kind, dtype, rank, static sizes, symbolic relations between sizes and the
// range constraints — with messages in the style of torch's guards
// ("Guard failed: x.size()[0] == 8 (got 10)"). No LibTorch: inputs are
// described by shapes and dtypes.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"

namespace exportlens::runtime {

/// What the runtime knows about one concrete input value.
struct InputDescription {
  bool is_tensor = true;
  ir::ScalarType dtype = ir::ScalarType::Float;
  std::vector<int64_t> sizes;
  std::optional<int64_t> int_value;  // for non-tensor int inputs
};

struct InputCheckResult {
  std::vector<std::string> errors;  // empty: inputs are valid
  std::map<std::string, int64_t> symbol_values;  // bound from the inputs' sizes
  bool ok() const { return errors.empty(); }
  std::string message() const;  // all errors, one per line
};

InputCheckResult check_inputs(const ir::ExportedProgram& ep, const std::vector<InputDescription>& inputs);

}  // namespace exportlens::runtime
