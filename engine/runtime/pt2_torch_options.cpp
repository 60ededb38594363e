#include "engine/runtime/pt2_torch_options.h"

#include "engine/runtime/op_signatures.h"

namespace exportlens::runtime {

serde::ReadOptions pt2_read_options() {
  serde::ReadOptions o;
  o.signatures = dispatcher_signatures();
  return o;
}

serde::WriteOptions pt2_write_options() {
  serde::WriteOptions o;
  o.signatures = dispatcher_signatures();
  return o;
}

}  // namespace exportlens::runtime
