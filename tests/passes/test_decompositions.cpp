// Lowering against torch: for every fixture that exports, ExportLens's
// functional program must equal torch's ep.run_decompositions({}) and its
// Core ATen program torch's ep.run_decompositions(), both as print(ep) text
// (byte for byte) and as op multisets. Where torch's retrace renumbers nodes,
// the fixture is listed in support/known_differences.h and its text is
// compared with the numbering normalised (and must still differ exactly).
// The lowering-only cases of the oracle (fixtures/lowering_cases) are
// compared the same way.
// Also: the Core ATen set and the functionalization rules against torch's,
// the seed's custom table, functionalization of hand-built programs,
// provenance, node expansion and the chained IR levels.
// Dead code goes by the dispatcher's schemas, as in the CLI and the GUI.
#include "engine/passes/decomp_helpers.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "engine/ir/printer.h"
#include "engine/ir/verifier.h"
#include "engine/passes/core_aten_ops.h"
#include "engine/passes/ir_levels.h"
#include "engine/passes/node_expansion.h"
#include "engine/passes/provenance.h"
#include "engine/passes/view_ops.h"
#include "engine/runtime/op_signatures.h"
#include "engine/serde/pt2_reader.h"
#include "passes/pass_program.h"
#include "support/known_differences.h"
#include "support/lowering_cases.h"
#include "support/program_text.h"
#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;
using nlohmann::json;

namespace {

/// What the QtTest suite's initTestCase did before every test: dead code goes by
/// the dispatcher's schemas. Every test calls it first (it runs once).
void use_dispatcher_schemas() {
  static const bool done = (runtime::use_dispatcher_schema_effects(), true);
  (void)done;
}

/// `text` with every match of `re` replaced by `with` (std::regex_replace's format).
std::string replaced(const std::string& text, const std::regex& re, const char* with) {
  return std::regex_replace(text, re, with);
}

/// "" when `text` is torch's print of the fixture at `level` ("functional",
/// "core"): byte for byte, or, for a fixture listed in known_differences.h,
/// equal once numbering is normalised and still different without that (so
/// the entry cannot go stale).
std::string text_difference(const std::string& fixture, const std::string& level, const std::string& text) {
  const std::string want = read_text(fixture_file(fixture, level + ".txt"));
  const KnownDifference* known = known_difference("decompositions", fixture + "/" + level);
  if (!known) return text == want ? std::string() : "print(ep) differs from torch's, " + first_difference(text, want);
  if (text == want) return fixture + "/" + level + " now prints like torch: drop it from known_differences.h";
  const std::string aspect = known->aspect;
  if (aspect == "generated-code file name") {  // <eval_with_key>.N: N is torch's module counter
    static const std::regex eval_key(R"(<eval_with_key>\.\d+)");
    const char* n = "<eval_with_key>.N";
    const std::string a = replaced(text, eval_key, n), b = replaced(want, eval_key, n);
    return a == b ? std::string()
                  : "print(ep) differs from torch's beyond the generated-code file name, " + first_difference(a, b);
  }
  if (aspect == "operand containers") {  // a HOP's (a, b) read back from the file as [a, b], a subgraph's [a, b] as (a, b)
    const std::string a = operand_containers_as_lists(text), b = operand_containers_as_lists(want);
    return a == b ? std::string() : "print(ep) differs from torch's beyond operand containers, " + first_difference(a, b);
  }
  const bool ranges = contains(aspect, "unbacked ranges");
  const std::string a = renumbered(ranges ? without_unbacked_ranges(text) : text, ranges);
  const std::string b = renumbered(ranges ? without_unbacked_ranges(want) : want, ranges);
  return a == b ? std::string() : "print(ep) differs from torch's beyond " + aspect + ", " + first_difference(a, b);
}

ir::ExportedProgram load(const std::string& fixture) { return serde::read_pt2(fixture_file(fixture, "program.pt2")); }

/// A list of strings in decomp_facts.json.
std::vector<std::string> fact_list(const char* key) {
  const json facts = read_json(fixtures_dir() + "/decomp_facts.json");
  std::vector<std::string> out;
  for (const auto& v : facts.value(key, json::array())) out.push_back(v.is_string() ? v.get<std::string>() : std::string());
  return out;
}

/// One row of matches_torch: a fixture at one level.
struct LevelRow {
  std::string name;  // fixture/level
  std::string fixture;
  std::string level;
};

}  // namespace

// ---- torch's facts ------------------------------------------------------------

EL_TEST(core_aten_set_is_torchs) {
  use_dispatcher_schemas();
  const std::vector<std::string> torch_core = fact_list("core_aten_ops");
  COMPARE(passes::core_aten_ops(), torch_core);
}

EL_TEST(functionalization_rules_are_torchs_always_decomposed_ops) {
  use_dispatcher_schemas();
  std::set<std::string> always;
  for (const auto& op : fact_list("always_decomposed")) always.insert(op);
  // Not a composite op, but torch's functionalization turns it into clone at every level
  // (run_decompositions({}) prints clone: bad2_strict's and the corpus' falcon's functional programs).
  always.insert("aten.lift_fresh_copy.default");
  for (const auto& op : passes::functionalization_rules().ops())
    VERIFY_MSG(always.count(op), std::string(op) + " is not decomposed by torch's empty table");
}

EL_TEST(view_table_holds_torchs_view_overloads) {
  use_dispatcher_schemas();
  // Functionalization's view table names overloads: each one a view in torch's
  // schema (its result aliases an argument it does not write), so that an
  // overload that is no view, or another one (view.dtype), is not taken for it.
  std::set<std::string> views;
  for (const auto& op : fact_list("view_overloads")) views.insert(op);
  VERIFY_MSG(views.count("view.dtype") && views.count("split.Tensor"), "torch's view overloads look incomplete");
  for (std::string_view op : passes::view_op_overloads()) {
    // No alias in its schema, but torch's Core ATen makes it a view (torch._decomp
    // _unsafe_view) before functionalization sees it: the matmul fold's view of its mm.
    if (op == "_unsafe_view.default") continue;
    VERIFY_MSG(views.count(std::string(op)), std::string(op) + " is no view overload of torch's");
  }
}

// ---- every fixture against torch ----------------------------------------------------

EL_TEST(matches_torch) {
  use_dispatcher_schemas();
  std::vector<std::string> names = fixtures_with_status("ok");
  // The lowering-only cases (decomp_cases.py's LOWERING_CASES: the lowered
  // inputs' order, matmul folding), in a folder of the fixtures.
  for (auto& n : lowering_cases()) names.push_back(std::move(n));
  std::vector<LevelRow> rows;
  for (const auto& n : names) {
    rows.push_back({n + "/functional", n, "functional"});
    rows.push_back({n + "/core", n, "core"});
  }
  for_each_row(rows, [](const LevelRow& row) {
    const std::string& fixture = row.fixture;
    const std::string& level = row.level;
    VERIFY_MSG(exists(fixture_file(fixture, "decomp.json")), "the oracle wrote no decomp.json for this fixture");
    const json record = read_json(fixture_file(fixture, "decomp.json")).value(level, json::object());
    const auto ep = load(fixture);
    passes::LoweringReport report;
    std::optional<ir::ExportedProgram> ours;
    std::string error;
    try {
      ours = passes::lower_to(ep, *passes::parse_ir_level(level), nullptr, &report);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (known_difference("decompositions", fixture + "/" + level, "refused")) {  // known_differences.h says why
      VERIFY_MSG(!ours, "ExportLens now lowers this program: drop it from known_differences.h");
      VERIFY_MSG(error.find("view is not functionalized") != std::string::npos, error);
      return;
    }
    if (record.value("status", std::string()) == "error") {
      VERIFY_MSG(!ours, "torch refuses to lower this program; ExportLens lowered it");
      COMPARE(error, record.value("error", std::string()));
      return;
    }
    VERIFY_MSG(ours, error);
    for (const auto& w : report.warnings) std::fprintf(stderr, "%s\n", w.c_str());
    VERIFY_MSG(report.warnings.empty(), "a rule failed (see the warnings above)");
    const auto findings = ir::verify(*ours);
    VERIFY_MSG(findings.empty(), findings.empty() ? std::string() : findings[0].str());

    const std::string text = ir::print_program(*ours);
    if (const char* dump = std::getenv("EXPORTLENS_DECOMP_DUMP"); dump && *dump) {
      std::string file = fixture;
      std::replace(file.begin(), file.end(), '/', '_');
      std::ofstream f(std::string(dump) + "/" + file + "." + level + ".txt", std::ios::binary);  // for looking at a difference
      if (f) f << text;
    }
    std::multiset<std::string> our_ops;
    collect_ops(ours->graph_module, our_ops);
    const auto torch_ops = json_ops(record.value("ops", json::array()));
    VERIFY_MSG(our_ops == torch_ops, "op multisets differ\nours:\n" + describe(our_ops) + "torch:\n" + describe(torch_ops));

    const std::string difference = text_difference(fixture, level, text);
    VERIFY_MSG(difference.empty(), difference);
  });
}

EL_TEST(seed_custom_table_matches_torch) {
  use_dispatcher_schemas();
  const auto ep = load("decomp_example");
  const auto table = passes::decomposition_table("double_conv2d");
  const auto ours = passes::run_decompositions(ep, table);
  COMPARE(ir::print_program(ours), read_text(fixture_file("decomp_example", "core_double_conv2d.txt")));
}

// The lowering reports each top-level node and stops between nodes once cancelled.
EL_TEST(lowering_reports_progress_and_stops_when_cancelled) {
  use_dispatcher_schemas();
  const auto ep = load("decomp_example");
  const int nodes = int(ep.graph().size());
  std::vector<int> seen;
  CancelToken token;
  const Progress watch{[&](int done, int total) {
                         COMPARE(total, nodes);
                         seen.push_back(done);
                       },
                       &token};
  passes::run_decompositions(ep, passes::decomposition_table("core"), nullptr, watch);
  COMPARE(int(seen.size()), nodes);
  COMPARE(seen.back(), nodes - 1);
  int reported = 0;
  const Progress stop{[&](int, int) {
                        if (++reported == 3) token.cancel();
                      },
                      &token};
  VERIFY_THROWS(Cancelled, passes::run_decompositions(ep, passes::decomposition_table("core"), nullptr, stop));
  COMPARE(reported, 3);
}

EL_TEST(tables_are_registered) {
  use_dispatcher_schemas();
  const auto names = passes::decomposition_table_names();
  for (const char* n : {"core", "functional", "double_conv2d"})
    VERIFY(std::find(names.begin(), names.end(), n) != names.end());
  VERIFY(passes::decomposition_table("functional").empty());
  VERIFY_THROWS(std::invalid_argument, passes::decomposition_table("nope"));
  passes::DecompositionTable mine = passes::default_decompositions();
  mine.set_name("no_linear");
  mine.remove("aten.linear.default");
  passes::register_decomposition_table(mine);
  const auto ours = passes::run_decompositions(load("m_linear"), passes::decomposition_table("no_linear"));
  COMPARE(passes::op_histogram(ours), (std::map<std::string, int>{{"aten.linear.default", 1}}));
}

// ---- functionalization ---------------------------------------------------------------

EL_TEST(user_input_mutation_becomes_an_output) {
  use_dispatcher_schemas();
  testing::ProgramBuilder p = testing::pass_program();
  ir::Node* x = p.input("x", ir::InputKind::UserInput, {3, 4});
  ir::Node* m = p.call("mul_", "aten.mul_.Tensor", {x, int64_t{2}});
  p.output({m});
  const auto ours = passes::run_decompositions(p.ep, passes::decomposition_table("functional"));
  COMPARE(ours.signature.outputs.size(), size_t(2));
  COMPARE(ours.signature.outputs[0].kind, ir::OutputKind::UserInputMutation);
  COMPARE(ours.signature.outputs[0].target.value_or(""), std::string("x"));
  COMPARE(ours.signature.outputs[0].arg.name, std::string("mul"));
  COMPARE(ours.signature.outputs[1].arg.name, std::string("mul"));
  COMPARE(passes::op_histogram(ours), (std::map<std::string, int>{{"aten.mul.Tensor", 1}}));
}

EL_TEST(mutation_through_an_unfold_is_refused) {
  use_dispatcher_schemas();
  // One line: the mutating node, the view, its op (torch writes it back with unfold_backward).
  for (const char* level : {"functional", "core"}) {
    std::string error = "lowered";
    try {
      passes::lower_to(load("lowering_cases/unfold_of_intermediate"), *passes::parse_ir_level(level));
    } catch (const passes::DecompositionError& e) {
      error = e.what();
    }
    COMPARE(error, std::string("'mul_' mutates 'unfold', a view made by aten.unfold.default: "
                               "mutation through a unfold view is not functionalized"));
  }
}

EL_TEST(mutation_through_a_view_writes_back) {
  use_dispatcher_schemas();
  // y = x[0]; y.add_(1); return x + 0: x's new value is select_scatter(x, add, 0, 0)
  testing::ProgramBuilder p = testing::pass_program();
  ir::Node* x = p.input("b_buf", ir::InputKind::Buffer, {3, 4}, "buf");
  ir::Node* sel = p.call("select", "aten.select.int", {x, int64_t{0}, int64_t{0}});
  p.call("add_", "aten.add_.Tensor", {sel, int64_t{1}});
  ir::Node* out = p.call("add_1", "aten.add.Tensor", {x, int64_t{0}});
  p.output({out});
  const auto ours = passes::run_decompositions(p.ep, passes::decomposition_table("functional"));
  const auto h = passes::op_histogram(ours);
  COMPARE(h.at("aten.select_scatter.default"), 1);
  COMPARE(ours.signature.outputs[0].kind, ir::OutputKind::BufferMutation);
  COMPARE(ours.signature.outputs[0].target.value_or(""), std::string("buf"));
  // the later read of x sees the scattered value
  const ir::Node* add1 = ours.graph().find("add_1");
  VERIFY(add1);
  COMPARE(add1->args()[0].node()->target.qualified(), std::string("torch.ops.aten.select_scatter.default"));
}

EL_TEST(mutation_through_a_rules_view_of_its_view_reaches_its_intermediate) {
  use_dispatcher_schemas();
  // A rule makes exp(x) as unsqueeze(view(s, [12]), 0) of its own s = sigmoid(view(x, [3, 4])):
  // y = exp(x); y.add_(1); y * 2 writes the add back through both views into s
  // (squeeze.dim, then view to s's sizes), and y is read again through both.
  passes::DecompositionTable table = passes::decomposition_table("functional");
  table.set_name("rule_view_of_view");
  table.set(passes::DecompositionRule{
      "aten.exp.default", "test", "a rule's view of its own view", [](passes::Rewriter& b, const passes::OpCall& c) {
        ir::Node* rows = b.call1("aten.view.default", {c.tensor(0, "self"), passes::detail::ints({3, 4})});
        ir::Node* s = b.call1("aten.sigmoid.default", {rows});
        ir::Node* flat = b.call1("aten.view.default", {s, passes::detail::ints({12})});
        return b.call("aten.unsqueeze.default", {flat, int64_t{0}});
      }});
  testing::ProgramBuilder p = testing::pass_program();
  ir::Node* x = p.input("x", ir::InputKind::UserInput, {1, 12});
  ir::Node* y = p.call("exp", "aten.exp.default", {x});
  p.call("add_", "aten.add_.Tensor", {y, int64_t{1}});
  p.output({p.call("mul", "aten.mul.Tensor", {y, int64_t{2}})});
  const auto ours = passes::run_decompositions(p.ep, table);
  const ir::Node* mul = ours.graph().find("mul");
  VERIFY(mul);
  std::vector<std::string> chain;  // mul's first operand back to the input, each view with its sizes
  for (const ir::Node* n = mul->args()[0].node(); n && n->op == ir::OpKind::CallFunction; n = n->args()[0].node()) {
    std::string step = n->target.op_name();
    if (step == "view") {
      std::vector<std::string> sizes;
      for (const auto& d : n->args()[1].list()->items) sizes.push_back(std::to_string(std::get<int64_t>(d.v)));
      step += "[" + join(sizes, ", ") + "]";
    }
    chain.push_back(step);
  }
  COMPARE(chain, (std::vector<std::string>{"unsqueeze", "view[12]", "view[3, 4]", "squeeze", "add", "unsqueeze",
                                           "view[12]", "sigmoid", "view[3, 4]"}));
}

EL_TEST(mutated_constant_is_refused_like_torch) {
  use_dispatcher_schemas();
  testing::ProgramBuilder p = testing::pass_program();
  ir::Node* c = p.input("c_t", ir::InputKind::ConstantTensor, {2}, "t");
  ir::Node* m = p.call("add_", "aten.add_.Tensor", {c, int64_t{1}});
  p.output({m});
  VERIFY_THROWS(passes::DecompositionError, passes::run_decompositions(p.ep, passes::decomposition_table("functional")));
}

// ---- provenance, expansion, levels ---------------------------------------------------

EL_TEST(core_nodes_lead_back_to_the_user_op) {
  use_dispatcher_schemas();
  const auto ep = load("my_module");
  passes::ProgramLevels levels(ep);
  const auto& core = levels.at(passes::IrLevel::Core);
  const ir::Node* addmm = core.graph().find("addmm");
  VERIFY(addmm);
  const auto& chain = passes::lineage(*addmm);
  COMPARE(chain.size(), size_t(2));
  COMPARE(chain[0].pass, std::string("core"));
  COMPARE(chain[0].node, std::string("linear"));
  COMPARE(chain[1].pass, std::string("functional"));
  COMPARE(chain[1].target, std::string("aten.linear.default"));
  const ir::Node* relu = core.graph().find("relu");
  COMPARE(passes::exported_origin(*relu).target, std::string("aten.relu_.default"));
  const auto where = passes::source_location(*relu);
  VERIFY(where && where->line == 28);
  COMPARE(passes::descendants(core, "linear").size(), size_t(2));  // permute, addmm
}

// The GUI's chained levels (training -> functional -> core, each from the
// one before) print what torch's run_decompositions() prints.
EL_TEST(chained_levels_print_like_torch) {
  use_dispatcher_schemas();
  for (const char* name : {"my_module", "decomp_example", "transformer_block", "small_cnn_train",
                           "lowering_cases/lifted_state_order_strict", "lowering_cases/matmul_requires_grad"}) {
    const auto ep = load(name);
    passes::ProgramLevels levels(ep);
    for (const auto& [level, label] : {std::pair{passes::IrLevel::Functional, "functional"}, {passes::IrLevel::Core, "core"}}) {
      const std::string text = ir::print_program(levels.at(level));
      const std::string difference = text_difference(name, label, text);
      VERIFY_MSG(difference.empty(), std::string(name) + "/" + label + ": " + difference);
    }
  }
}

EL_TEST(expands_one_node) {
  use_dispatcher_schemas();
  const auto ep = load("m_linear");
  const ir::Node* linear = ep.graph().find("linear");
  const auto core = passes::decomposition_table("core");  // e.rule points into it
  const auto e = passes::expand_node(*linear, core);
  VERIFY(e.decomposed);
  COMPARE(e.rule->family, std::string("linear"));
  std::vector<std::string> ops;
  for (const ir::Node* n : e.graph.graph.nodes())
    if (n->op == ir::OpKind::CallFunction) ops.push_back(passes::op_key(n->target));
  COMPARE(ops, (std::vector<std::string>{"aten.permute.default", "aten.addmm.default"}));
  COMPARE(e.graph.graph.placeholders().size(), size_t(3));
}

EL_TEST(info_flags_ops_outside_the_core_set) {
  use_dispatcher_schemas();
  const auto ep = load("transformer_block");
  VERIFY(!passes::non_core_ops(ep).empty());  // linear, layer_norm, ... in the training IR
  VERIFY(passes::non_core_ops(passes::lower_to(ep, passes::IrLevel::Core)).empty());
}
