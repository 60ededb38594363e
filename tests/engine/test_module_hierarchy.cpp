// The module hierarchy and weight folding against torch's own record of the
// browsing programs (oracle/browse_models.py): the same module calls in the
// same order, with the same classes, op counts, children and boundary
// values, for the program as exported and for its Core ATen lowering (where
// ExportLens's lowered nodes inherit their origin's module stack, as torch's do).
#include <algorithm>
#include <string>
#include <vector>

#include "engine/ir/module_hierarchy.h"
#include "engine/ir/weight_folding.h"
#include "engine/passes/ir_levels.h"
#include "engine/serde/pt2_reader.h"
#include "support/browse_fixtures.h"
#include "support/known_differences.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;
using exportlens::testing::browse_fixture;
using exportlens::testing::browse_fixture_names;
using exportlens::testing::browse_hierarchy;
using nlohmann::json;

namespace {

ir::ExportedProgram read(const std::string& fixture) {
  serde::ReadOptions options;
  options.load_weights = false;
  return serde::read_pt2(browse_fixture(fixture, "program.pt2"), "", options);
}

std::vector<std::string> names(const ir::Graph& graph, const std::vector<int>& indices) {
  const auto nodes = graph.nodes();
  std::vector<std::string> out;
  for (int i : indices) out.push_back(nodes[i]->name);
  std::sort(out.begin(), out.end());
  return out;
}

// The chain of nn_module_stack keys from the outermost call down to `scope`.
std::vector<std::string> chain(const ir::ModuleHierarchy& h, int scope) {
  std::vector<std::string> out;
  for (int s : h.path_to(scope))
    if (s != ir::ModuleHierarchy::kRoot) out.push_back(h[s].key);
  return out;
}

struct LevelRow {
  std::string name;  // "<fixture>/<level>"
  std::string fixture, level;
};

}  // namespace

EL_TEST(matches_torch) {
  std::vector<LevelRow> rows;
  for (const std::string& name : browse_fixture_names())
    for (const char* level : {"training", "core"}) rows.push_back({name + "/" + level, name, level});
  for_each_row(rows, [](const LevelRow& row) {
    const std::string& fixture = row.fixture;
    const std::string& level = row.level;
    const ir::ExportedProgram exported = read(fixture);
    const ir::ExportedProgram lowered =
        level == "core" ? passes::lower_to(exported, passes::IrLevel::Core) : ir::ExportedProgram{};
    const ir::Graph& graph = level == "core" ? lowered.graph() : exported.graph();
    const json torch = browse_hierarchy(fixture).at(level);
    COMPARE(int(graph.size()), torch.at("nodes").get<int>());

    const ir::ModuleHierarchy h = ir::module_hierarchy(graph);
    COMPARE(h.scope_of.size(), graph.size());
    COMPARE(int(h.root().op_count), torch.at("ops").get<int>());
    COMPARE(h.root().node_count, graph.size());
    const json& scopes = torch.at("scopes");
    COMPARE(int(h.size()) - 1, int(scopes.size()));
    const bool renamed = testing::known_difference("module_hierarchy", fixture + "/" + level, "boundary names");
    bool names_differ = false;
    for (int i = 1; i < int(h.size()); ++i) {
      const auto& scope = h[i];
      const json& expected = scopes.at(i - 1);
      const std::string where = fixture + "/" + level + " " + scope.label();
      VERIFY_MSG(chain(h, i) == expected.at("chain").get<std::vector<std::string>>(), where);
      VERIFY_MSG(scope.path == expected.at("path").get<std::string>(), where);
      VERIFY_MSG(scope.class_name() == expected.at("class").get<std::string>(), where);
      VERIFY_MSG(scope.depth == expected.at("depth").get<int>(), where);
      VERIFY_MSG(int(scope.op_count) == expected.at("ops").get<int>(), where);
      VERIFY_MSG(int(scope.node_count) == expected.at("nodes").get<int>(), where);
      std::vector<std::string> children;
      for (int c : scope.children) children.push_back(join(chain(h, c), "/"));
      std::vector<std::string> expected_children;
      for (const auto& c : expected.at("children"))
        expected_children.push_back(join(c.get<std::vector<std::string>>(), "/"));
      VERIFY_MSG(children == expected_children, where);
      const std::vector<std::string> inputs = names(graph, scope.inputs), outputs = names(graph, scope.outputs);
      const std::vector<std::string> torch_inputs = expected.at("inputs").get<std::vector<std::string>>();
      const std::vector<std::string> torch_outputs = expected.at("outputs").get<std::vector<std::string>>();
      if (renamed) {
        VERIFY_MSG(inputs.size() == torch_inputs.size() && outputs.size() == torch_outputs.size(), where);
        names_differ = names_differ || inputs != torch_inputs || outputs != torch_outputs;
      } else {
        VERIFY_MSG(inputs == torch_inputs, where);
        VERIFY_MSG(outputs == torch_outputs, where);
      }
      // The node sets nest: a scope holds its own nodes and its children's.
      size_t inside = scope.nodes.size();
      for (int c : scope.children) inside += h[c].node_count;
      VERIFY_MSG(inside == scope.node_count, where);
      VERIFY_MSG(h.nodes_within(i).size() == scope.node_count, where);
    }
    VERIFY_MSG(!renamed || names_differ,
               "the boundary names agree with torch now: drop the entry in known_differences.h");
  });
}

EL_TEST(scopes_are_the_models_modules) {
  for (const std::string& fixture : browse_fixture_names()) {
    const json modules = browse_hierarchy(fixture).at("modules");
    const ir::ModuleHierarchy h = ir::module_hierarchy(read(fixture).graph());
    for (int i = 1; i < int(h.size()); ++i) {
      const std::string& path = h[i].path;
      VERIFY_MSG(modules.contains(path), fixture + ": " + path);
      COMPARE(h[i].class_name(), modules.at(path).get<std::string>());
    }
  }
}

EL_TEST(placeholders_and_output_belong_to_the_root) {
  const ir::ExportedProgram ep = read("nested_cnn");
  const ir::ModuleHierarchy h = ir::module_hierarchy(ep.graph());
  for (const ir::Node* node : ep.graph().nodes())
    if (node->op == ir::OpKind::Placeholder || node->op == ir::OpKind::Output)
      COMPARE(h.scope_of[node->index()], ir::ModuleHierarchy::kRoot);
  COMPARE(h.root().depth, 0);
  COMPARE(h.root().parent, -1);
}

EL_TEST(a_second_call_is_its_own_scope) {
  // BasicBlock calls its one ReLU module twice: torch keys the second call "...relu@1".
  const ir::ModuleHierarchy h = ir::module_hierarchy(read("nested_cnn").graph());
  const int first = h.find_path("layer1.0.relu");
  VERIFY(first > 0);
  int second = -1;
  for (int s : h[h[first].parent].children)
    if (h[s].path == "layer1.0.relu" && s != first) second = s;
  VERIFY(second > 0);
  COMPARE(h[first].call, 0);
  COMPARE(h[second].call, 1);
  COMPARE(h[second].label(), std::string("layer1.0.relu: ReLU (call 2)"));
  COMPARE(h[first].label(), std::string("layer1.0.relu: ReLU"));
}

EL_TEST(tree_queries) {
  const ir::ModuleHierarchy h = ir::module_hierarchy(read("transformer_stack").graph());
  // A ModuleList is never called: its blocks are top-level calls.
  COMPARE(h.find_path("blocks"), -1);
  const int block = h.find_path("blocks.3");
  const int mlp = h.find_path("blocks.3.mlp");
  const int fc1 = h.find_path("blocks.3.mlp.fc1");
  const int qkv = h.find_path("blocks.3.attn.qkv");
  VERIFY(block > 0 && mlp > 0 && fc1 > 0 && qkv > 0);
  COMPARE(h[block].parent, ir::ModuleHierarchy::kRoot);
  COMPARE(h.common_ancestor(fc1, qkv), block);
  COMPARE(h.child_toward(block, fc1), mlp);
  COMPARE(h.child_toward(ir::ModuleHierarchy::kRoot, fc1), block);
  VERIFY(h.encloses(block, fc1));
  VERIFY(!h.encloses(fc1, block));
  const std::vector<int> path = h.path_to(fc1);
  COMPARE(int(path.size()), h[fc1].depth + 1);
  COMPARE(path.front(), ir::ModuleHierarchy::kRoot);
  COMPARE(path.back(), fc1);
  COMPARE(h.max_depth(), 3);  // blocks.N > attn/mlp > qkv/fc1
  COMPARE(h.relative_path(block), std::string("blocks.3"));
  COMPARE(h.relative_path(fc1), std::string("fc1"));
  COMPARE(h[fc1].name(), std::string("fc1"));
}

EL_TEST(weights_fold_into_their_users) {
  for (const std::string& fixture : browse_fixture_names()) {
    const ir::ExportedProgram ep = read(fixture);
    const ir::WeightFolding folding = ir::fold_weights(ep);
    const json weights = browse_hierarchy(fixture).at("weights");
    COMPARE(int(folding.folded_count()), int(weights.size()));
    for (const auto& [key, value] : weights.items()) {
      const ir::Node* weight = ep.graph().find(key);
      VERIFY_MSG(weight && folding.is_folded(weight->index()), key);
      for (const auto& user : value.at("users")) {
        const ir::Node* reader = ep.graph().find(user.get<std::string>());
        VERIFY(reader);
        const auto& list = folding.weights_of[reader->index()];
        VERIFY_MSG(std::find(list.begin(), list.end(), weight->index()) != list.end(),
                   user.get<std::string>() + " reads " + key);
      }
    }
    // User inputs never fold.
    for (const ir::InputSpec* input : ep.signature.user_inputs())
      VERIFY(!folding.is_folded(ep.graph().find(input->arg.name)->index()));
  }
}
