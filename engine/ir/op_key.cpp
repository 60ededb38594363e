#include "engine/ir/op_key.h"

namespace exportlens::ir {

std::string op_key(const Target& target) {
  const std::string& q = target.qualified();
  if (target.is_torch_op()) return op_packet_key(target) + "." + target.overload();
  if (q.rfind("torch.ops.", 0) == 0) return q.substr(10);
  return q;
}

std::string op_packet_key(const Target& target) {
  return target.is_torch_op() ? target.op_namespace() + "." + target.op_name() : std::string();
}

Target op_target(std::string_view key) { return Target("torch.ops." + std::string(key)); }

}  // namespace exportlens::ir
