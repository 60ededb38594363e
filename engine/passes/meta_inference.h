#pragma once
// What a node the passes create holds (FX's meta["val"]): sizes and dtype
// from the op's symbolic shape rule (engine/ops), strides from the op's
// layout (tensor_layout.h), the device of its tensor inputs.
#include <stdexcept>
#include <string>

#include "engine/base/error.h"
#include "engine/ir/node.h"
#include "engine/passes/tensor_layout.h"

namespace exportlens::passes {

/// The op has no shape rule, or its rule rejects the arguments.
class MetaInferenceError : public Error {
 public:
  explicit MetaInferenceError(const std::string& message) : Error(ErrorKind::Unsupported, {}, message) {}
};

class MetaInference {
 public:
  explicit MetaInference(const Hints& hints) : hints_(hints) {}

  /// The value of `node` (a call_function whose inputs already carry values).
  ir::ValueInfo infer(const ir::Node& node);

 private:
  ir::ValueInfo infer_strides(const ir::Node& node, ir::ValueInfo value) const;
  const Hints& hints_;
};

}  // namespace exportlens::passes
