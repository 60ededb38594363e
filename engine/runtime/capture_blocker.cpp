// Ops that cannot be part of one CUDA graph: they read a device value on the
// host (a sync, which stream capture forbids) or give shapes that depend on
// data, so a replay could not reuse the captured launches.
#include <array>
#include <string_view>

#include "engine/ir/op_key.h"
#include "engine/runtime/run_probes.h"

namespace exportlens::runtime {
namespace {

struct Blocker {
  std::string_view op;  // op packet key ("aten.nonzero") or op key ("aten.repeat_interleave.Tensor")
  std::string_view why;
};

constexpr std::array kBlockers = {
    Blocker{"aten._local_scalar_dense", "reads a tensor's value on the host (.item()), a device synchronization"},
    Blocker{"aten.item", "reads a tensor's value on the host (.item()), a device synchronization"},
    Blocker{"aten.is_nonzero", "reads a tensor's value on the host, a device synchronization"},
    Blocker{"aten.equal", "returns a Python bool computed on the device, a device synchronization"},
    Blocker{"aten.allclose", "returns a Python bool computed on the device, a device synchronization"},
    Blocker{"aten.nonzero", "makes a data-dependent shape (the number of nonzeros is read on the host)"},
    Blocker{"aten.masked_select", "makes a data-dependent shape (the number of selected elements)"},
    Blocker{"aten._unique", "makes a data-dependent shape (the number of unique values)"},
    Blocker{"aten._unique2", "makes a data-dependent shape (the number of unique values)"},
    Blocker{"aten.unique_dim", "makes a data-dependent shape (the number of unique values)"},
    Blocker{"aten.unique_consecutive", "makes a data-dependent shape (the number of unique values)"},
    Blocker{"aten.bincount", "makes a data-dependent shape (its length is the largest value)"},
    Blocker{"aten.repeat_interleave.Tensor", "makes a data-dependent shape (repeats given as a tensor)"},
    Blocker{"aten.repeat_interleave.self_Tensor", "makes a data-dependent shape (repeats given as a tensor)"},
};

std::string blocker_in(const ir::GraphModule& gm, const std::string& prefix) {
  for (const ir::Node* n : gm.graph.nodes()) {
    if (n->op != ir::OpKind::CallFunction) continue;
    const auto& t = n->target;
    const std::string where = prefix + "node '" + n->name + "' (" + t.qualified() + ")";
    const ir::Node* pred = t.is_higher_order() && t.op_name() == "cond" && !n->args().empty() ? n->args()[0].node() : nullptr;
    if (pred && pred->value.tensor())
      return where + " chooses a branch on the host from a device value (torch.cond's predicate), a device synchronization";
    if (!t.is_torch_op()) continue;
    const std::string packet = ir::op_packet_key(t), key = ir::op_key(t);
    for (const auto& b : kBlockers)
      if (packet == b.op || key == b.op) return where + " " + std::string(b.why);
  }
  for (const auto& [name, sub] : gm.submodules)
    if (auto why = blocker_in(*sub, prefix + name + "/"); !why.empty()) return why;
  return {};
}

}  // namespace

std::string capture_blocker(const ir::ExportedProgram& ep) { return blocker_in(ep.graph_module, ""); }

}  // namespace exportlens::runtime
