#include "engine/trace/program_state.h"

#include <cstring>

#include "engine/runtime/torch_types.h"

namespace exportlens::trace {

ir::TensorPayload payload_of(const at::Tensor& t, bool is_parameter) {
  const at::Tensor c = t.detach().contiguous();
  ir::TensorPayload p;
  p.meta.dtype = runtime::from_torch(c.scalar_type());
  const auto sizes = c.sizes();
  int64_t stride = 1;
  p.meta.sizes.resize(sizes.size());
  p.meta.strides.resize(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    p.meta.sizes[i] = ir::SymInt(sizes[i]);
    p.meta.strides[i] = ir::SymInt(stride);
    stride *= std::max<int64_t>(sizes[i], 1);
  }
  p.meta.requires_grad = is_parameter;
  auto bytes = std::make_shared<std::vector<std::byte>>(c.nbytes());
  if (c.nbytes() > 0) std::memcpy(bytes->data(), c.data_ptr(), c.nbytes());
  p.bytes = std::move(bytes);
  p.is_parameter = is_parameter;
  return p;
}

void fill_state(ir::ExportedProgram& ep, const std::vector<StateTensor>& state,
                const std::vector<Tracer::LiftedConstant>& constants) {
  for (const auto& s : state) ep.state_dict.emplace_back(s.name, payload_of(s.tensor, s.is_parameter));
  for (const auto& c : constants) ep.constants.emplace_back(c.target, payload_of(c.tensor, false));
}

}  // namespace exportlens::trace
