// Decomposition tables from a model library (EXPORTLENS_DECOMPOSITIONS): the
// seed's doubling conv2d written as a LibTorch function in
// custom_table_model.cpp must lower decomp_example exactly as torch does
// with the same table (print(ep) and ops of the oracle's decomp.json), and
// compute what torch's program lowered with that table computes. The
// CLI's `decompose --load` reaches the same table.
#include <torch/csrc/jit/serialization/pickle.h>

#include <ATen/ops/allclose.h>
#include <ATen/ops/equal.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/ir/printer.h"
#include "engine/passes/decomposition_table.h"
#include "engine/passes/ir_levels.h"
#include "engine/runtime/interpreter.h"
#include "engine/serde/pt2_reader.h"
#include "engine/trace/trace_facade.h"
#include "support/torch_values.h"
#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/json.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;
using nlohmann::json;

namespace {

const char* kTable = "my_double_conv2d";

/// torch's str(node.target) of every call_function node, in graph order.
std::vector<std::string> op_sequence(const ir::ExportedProgram& ep) {
  std::vector<std::string> out;
  for (const ir::Node* n : ep.graph().nodes()) {
    if (n->op != ir::OpKind::CallFunction) continue;
    out.push_back(n->target.is_getitem() ? std::string("<built-in function getitem>") : passes::op_key(n->target));
  }
  return out;
}

ir::ExportedProgram lowered(const std::string& table) {
  const auto ep = serde::read_pt2(fixture_file("decomp_example", "program.pt2"));
  return passes::run_decompositions(ep, passes::decomposition_table(table));
}

}  // namespace

EL_TEST(library_registers_its_table) {
  const auto tables = trace::library_tables(EXPORTLENS_CUSTOM_TABLE_MODEL);
  COMPARE(tables, (std::vector<std::string>{kTable, "broken_conv2d"}));
  VERIFY(passes::has_decomposition_table(kTable));
  const auto t = passes::decomposition_table(kTable);
  // The default table with conv2d overridden: every core rule is still there.
  COMPARE(t.ops(), passes::default_decompositions().ops());
  COMPARE(t.find("aten.conv2d.default")->family, std::string("custom"));
  // A library with tables only has no model to trace.
  VERIFY_THROWS(std::runtime_error, trace::trace_library_model(EXPORTLENS_CUSTOM_TABLE_MODEL, ""));
}

EL_TEST(lowering_matches_torch) {
  trace::library_tables(EXPORTLENS_CUSTOM_TABLE_MODEL);
  const auto ours = lowered(kTable);
  const json oracle =
      field(field(read_json(fixture_file("decomp_example", "decomp.json")), "custom"), "double_conv2d");
  const std::vector<std::string> want = as_strings(field(oracle, "ops"));
  VERIFY(!want.empty());
  COMPARE(op_sequence(ours), want);
  COMPARE(ir::print_program(ours), read_text(fixture_file("decomp_example", "core_double_conv2d.txt")));
}

// The library's table computes what torch's program lowered with the same
// custom table computes, and not what the unlowered program computes.
EL_TEST(outputs_match_torchs_custom_lowering) {
  trace::library_tables(EXPORTLENS_CUSTOM_TABLE_MODEL);
  const auto inputs = load_tuple(fixture_file("decomp_example", "inputs.pt"));
  const auto got = runtime::Interpreter(lowered(kTable), c10::kCPU).run(inputs);
  const auto want = load_tuple(fixture_file("decomp_example", "core_double_conv2d_outputs.pt"));
  const auto plain = load_tuple(fixture_file("decomp_example", "outputs.pt"));
  COMPARE(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    const std::string diff = compare_values(got[i], want[i]);
    VERIFY_MSG(diff.empty(), "output " + std::to_string(i) + ": " + diff);
    VERIFY_MSG(!compare_values(got[i], plain[i]).empty(), "the custom conv2d was not applied");
  }
}

EL_TEST(failing_rule_keeps_the_op_and_says_why) {
  trace::library_tables(EXPORTLENS_CUSTOM_TABLE_MODEL);
  const auto ep = serde::read_pt2(fixture_file("decomp_example", "program.pt2"));
  const auto table = passes::decomposition_table("broken_conv2d");
  passes::LoweringReport report;
  const auto lowered = passes::lower_to(ep, passes::IrLevel::Core, &table, &report);
  const auto ops = op_sequence(lowered);
  COMPARE(std::count(ops.begin(), ops.end(), "aten.conv2d.default"), 1);
  COMPARE(report.warnings.size(), size_t{1});
  const std::string& warning = report.warnings[0];
  VERIFY_MSG(contains(warning, "aten.conv2d.default") && contains(warning, "this rule always fails"), warning);
}

EL_TEST(cli_decompose_loads_the_library) {
  const auto listed = run_exportlens({"decompose", "--tables", "--load", EXPORTLENS_CUSTOM_TABLE_MODEL});
  COMPARE(listed.code, 0);
  VERIFY_MSG(contains(listed.out, std::string(kTable) + "  ("), listed.out);
  const auto r = run_exportlens({"decompose", fixture_file("decomp_example", "program.pt2"), "--ir", "core",
                                 "--table", kTable, "--load", EXPORTLENS_CUSTOM_TABLE_MODEL});
  VERIFY_MSG(r.code == 0, r.err);
  COMPARE(r.out, read_text(fixture_file("decomp_example", "core_double_conv2d.txt")) + "\n");
  const auto missing = run_exportlens({"decompose", "--tables", "--load", "/nonexistent/lib.so"});
  VERIFY(missing.code != 0);
  VERIFY_MSG(contains(missing.err, "/nonexistent/lib.so"), missing.err);
}
