// The one purity rule (engine/ir/purity.h) against torch 2.13's
// Node.is_impure, with the dispatcher's schemas: every node of every program
// the suites' oracles exported (purity_oracle.py loads each with
// torch.export.load), and graphs built by hand in torch.fx from ops decided
// each way (written schemas, seeded ops, asserts, effectful ops, higher-order
// ops), whose dead code both eliminate.
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/ir/graph.h"
#include "engine/ir/purity.h"
#include "engine/runtime/op_signatures.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "support/unit/files.h"
#include "support/unit/json.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using exportlens::unit::as_array;
using exportlens::unit::as_bool;
using exportlens::unit::as_string;
using exportlens::unit::as_strings;
using exportlens::unit::field;
using exportlens::unit::for_each_row;
using json = nlohmann::json;

namespace {

const json& oracle() {
  static const json o = unit::read_json(EXPORTLENS_PURITY_ORACLE);
  return o;
}

ir::OpKind op_kind(const std::string& op) {
  if (op == "placeholder") return ir::OpKind::Placeholder;
  if (op == "get_attr") return ir::OpKind::GetAttr;
  if (op == "output") return ir::OpKind::Output;
  return ir::OpKind::CallFunction;
}

// A hand-made graph's argument as the IR holds it: nodes by name, an op
// argument as serde reads `as_operator`: an OperatorRef to its qualified name.
ir::Argument argument(const json& v, const std::map<std::string, ir::Node*>& made) {
  if (v.is_object() && v.contains("node")) return made.at(as_string(field(v, "node")));
  if (v.is_object() && v.contains("op")) return ir::OperatorRef{as_string(field(v, "op"))};
  if (v.is_array()) {
    ir::ArgumentList list;
    for (const auto& item : v) list.items.push_back(argument(item, made));
    return list;
  }
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return v.get<double>();  // every JSON number, as a double
  return ir::None{};
}

std::unique_ptr<ir::Graph> build(const json& record) {
  auto g = std::make_unique<ir::Graph>();
  std::map<std::string, ir::Node*> made;
  for (const auto& o : as_array(field(record, "nodes"))) {
    auto n = std::make_unique<ir::Node>();
    n->op = op_kind(as_string(field(o, "op")));
    n->name = as_string(field(o, "name"));
    if (n->op == ir::OpKind::CallFunction) n->target = ir::Target(as_string(field(o, "target")));
    std::vector<ir::Argument> args;
    for (const auto& a : as_array(field(o, "args"))) args.push_back(argument(a, made));
    n->set_args(std::move(args));
    made[as_string(field(o, "name"))] = g->append(std::move(n));
  }
  return g;
}

const ir::Graph* graph_at(const ir::GraphModule& gm, const std::string& path) {
  const ir::GraphModule* at = &gm;
  if (!path.empty())
    for (const std::string& part : unit::split(path, '.')) {
      at = at ? at->submodule(part) : nullptr;
    }
  return at ? &at->graph : nullptr;
}

struct HandmadeRow {
  std::string name;
  size_t index;
};

}  // namespace

EL_TEST(everyFixtureNodeAsTorch) {
  const ir::SchemaEffectsLookup schemas = runtime::dispatcher_schema_effects();
  serde::ReadOptions options = runtime::pt2_read_options();
  options.load_weights = false;
  int programs = 0, nodes = 0, impure = 0;
  std::vector<std::string> disagreements, unread;
  for (const auto& p : as_array(field(oracle(), "programs"))) {
    const std::string file = as_string(field(p, "file"));
    if (p.contains("error")) {  // torch itself cannot load it: nothing to compare with
      unread.push_back(file + ": torch: " + as_string(field(p, "error")));
      continue;
    }
    const ir::ExportedProgram ep = serde::read_pt2(file, "", options);
    const ir::SchemaEffectsLookup program_schemas = ir::with_file_signatures(schemas, ep.file_signatures);
    ++programs;
    for (const auto& g : as_array(field(p, "graphs"))) {
      const ir::Graph* graph = graph_at(ep.graph_module, as_string(field(g, "path")));
      VERIFY_MSG(graph, file + ": no subgraph '" + as_string(field(g, "path")) + "'");
      const json torch_nodes = as_array(field(g, "nodes"));
      COMPARE(graph->size(), size_t(torch_nodes.size()));
      for (const auto& tn : torch_nodes) {
        const ir::Node* n = graph->find(as_string(field(tn, "name")));
        VERIFY_MSG(n, file + ": no node '" + as_string(field(tn, "name")) + "'");
        ++nodes;
        const bool torch_says = as_bool(field(tn, "impure"));
        impure += torch_says;
        if (ir::is_impure(*n, program_schemas) != torch_says)
          disagreements.push_back(file + " [" + as_string(field(g, "path")) + "] " + as_string(field(tn, "name")) +
                                  " (" + as_string(field(tn, "target")) + "): torch says " +
                                  (torch_says ? "impure" : "pure"));
      }
    }
  }
  std::fprintf(stderr, "%d programs, %d nodes (%d impure by torch) compared\n", programs, nodes, impure);
  for (const auto& u : unread) std::fprintf(stderr, "not compared: %s\n", u.c_str());
  VERIFY_MSG(disagreements.empty(), unit::join(disagreements, "\n"));
  VERIFY(programs >= 150);  // the corpus, the oracle's programs, the check and lowering cases, ...
  VERIFY(impure > 0);
}

EL_TEST(handmadeGraphsAsTorch) {
  std::vector<HandmadeRow> rows;
  const json graphs = as_array(field(oracle(), "handmade"));
  for (size_t i = 0; i < graphs.size(); ++i) rows.push_back({as_string(field(graphs[i], "name")), i});
  for_each_row(rows, [](const HandmadeRow& row) {
    const json& record = oracle().at("handmade").at(row.index);
    const ir::SchemaEffectsLookup schemas = runtime::dispatcher_schema_effects();
    auto graph = build(record);
    std::vector<std::string> disagreements;
    for (const auto& tn : as_array(field(record, "nodes"))) {
      const ir::Node* n = graph->find(as_string(field(tn, "name")));
      if (ir::is_impure(*n, schemas) != as_bool(field(tn, "impure")))
        disagreements.push_back(as_string(field(tn, "name")) + " (" + as_string(field(tn, "target")) +
                                "): torch says " + (as_bool(field(tn, "impure")) ? "impure" : "pure"));
    }
    VERIFY_MSG(disagreements.empty(), unit::join(disagreements, "\n"));

    // Graph.eliminate_dead_code(): the same nodes survive.
    const int removed = ir::eliminate_dead_code(*graph, schemas);
    std::vector<std::string> survivors;
    for (const ir::Node* n : graph->nodes()) survivors.push_back(n->name);
    const std::vector<std::string> torch_survivors = as_strings(field(record, "survivors"));
    COMPARE(survivors, torch_survivors);
    COMPARE(removed, int(as_array(field(record, "nodes")).size() - torch_survivors.size()));
  });
}

// Without a schema source (a LibTorch-free process) only the tables
// decide: asserts and effectful ops stay, a written argument is not seen.
EL_TEST(withoutSchemasTheTablesDecide) {
  const json graphs = as_array(field(oracle(), "handmade"));
  int checked = 0;
  for (const auto& gv : graphs) {
    auto graph = build(gv);
    for (const auto& tn : as_array(field(gv, "nodes"))) {
      const ir::Node* n = graph->find(as_string(field(tn, "name")));
      if (n->op != ir::OpKind::CallFunction || !n->target.is_torch_op()) continue;
      const auto effects = runtime::dispatcher_schema_effects()(n->target.schema_name());
      VERIFY_MSG(effects, as_string(field(tn, "target")) + " is not in the dispatcher");
      const bool schema_decides = effects->writes_argument || effects->nondeterministic_seeded;
      if (schema_decides) continue;
      COMPARE(ir::is_impure(*n, {}), as_bool(field(tn, "impure")));
      ++checked;
    }
  }
  VERIFY(checked > 10);
}
