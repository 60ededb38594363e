#include "engine/ir/weight_folding.h"

#include <algorithm>

namespace exportlens::ir {
namespace {

bool is_weight(InputKind kind) {
  return kind == InputKind::Parameter || kind == InputKind::Buffer || kind == InputKind::ConstantTensor;
}

}  // namespace

size_t WeightFolding::folded_count() const { return static_cast<size_t>(std::count(folded.begin(), folded.end(), true)); }

WeightFolding fold_weights(const ExportedProgram& program) {
  const Graph& graph = program.graph();
  const std::vector<Node*> nodes = graph.nodes();
  WeightFolding out;
  out.folded.assign(nodes.size(), false);
  out.weights_of.resize(nodes.size());
  for (const Node* node : nodes) {
    if (node->op != OpKind::Placeholder) continue;
    const InputSpec* spec = program.signature.input_named(node->name);
    if (spec && is_weight(spec->kind)) out.folded[node->index()] = true;
  }
  for (const Node* node : nodes) {
    auto& list = out.weights_of[node->index()];
    node->for_each_input([&](const Node* input) {
      if (!input || input->graph() != &graph) return;
      const int i = input->index();
      if (out.is_folded(i) && std::find(list.begin(), list.end(), i) == list.end()) list.push_back(i);
    });
  }
  return out;
}

}  // namespace exportlens::ir
