#include "engine/runtime/pt2_torch_options.h"

#include <cstring>

#include "engine/runtime/op_signatures.h"
#include "engine/runtime/torch_types.h"

namespace exportlens::runtime {

ir::TensorPayload raw_payload(const ir::TensorPayload& pickled, const std::string& key) {
  const at::Tensor t = payload_to_tensor(pickled, key, c10::Device(c10::kCPU)).detach().contiguous();
  ir::TensorPayload p;
  p.meta = pickled.meta;
  p.meta.dtype = from_torch(t.scalar_type());
  p.meta.sizes.clear();
  p.meta.strides.clear();
  for (int64_t d = 0; d < t.dim(); ++d) {
    p.meta.sizes.emplace_back(t.size(d));
    p.meta.strides.emplace_back(t.stride(d));
  }
  p.meta.storage_offset = ir::SymInt(0);
  auto bytes = std::make_shared<std::vector<std::byte>>(t.nbytes());
  if (t.nbytes() > 0) std::memcpy(bytes->data(), t.data_ptr(), t.nbytes());
  p.bytes = std::move(bytes);
  p.is_parameter = pickled.is_parameter;
  return p;
}

serde::ReadOptions pt2_read_options() {
  serde::ReadOptions o;
  o.signatures = dispatcher_signatures();
  return o;
}

serde::WriteOptions pt2_write_options() {
  serde::WriteOptions o;
  o.signatures = dispatcher_signatures();
  o.raw_payload = raw_payload;
  return o;
}

}  // namespace exportlens::runtime
