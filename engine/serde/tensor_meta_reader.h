#pragma once
// Tensor metadata outside a graph (a weights config's `tensor_meta`), read as
// the program reader reads it, with the expressions shared across calls.
#include <memory>

#include "engine/ir/tensor_meta.h"
#include "engine/serde/read_limits.h"

namespace exportlens::serde {

class JsonCursor;
struct ReadContext;

class TensorMetaReader {
 public:
  TensorMetaReader();
  ~TensorMetaReader();
  ir::TensorMeta read(const JsonCursor& tensor_meta);

 private:
  ReadLimits limits_;
  std::unique_ptr<ReadContext> context_;
};

}  // namespace exportlens::serde
