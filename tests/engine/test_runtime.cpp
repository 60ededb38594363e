// The interpreter against real torch: for every fixture that exports, running
// the program on the fixture's inputs gives ep.module()(*inputs)'s outputs.
#include "support/torch_values.h"
#include "support/known_differences.h"

#include "engine/runtime/input_check.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/program_runner.h"
#include "engine/runtime/run_memory.h"

#include <ATen/ops/empty.h>
#include "engine/serde/pt2_reader.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;

namespace {


// What a run shows an observer, in order: "input:x", "begin:add", "end:add".
class RecordingObserver final : public runtime::NodeObserver {
 public:
  explicit RecordingObserver(bool subgraphs) : subgraphs_(subgraphs) {}
  void node_begin(const ir::Node& n) override { seen.push_back("begin:" + n.name); }
  void node_end(const ir::Node& n, const c10::IValue&) override { seen.push_back("end:" + n.name); }
  void input_bound(const ir::Node& n, const c10::IValue&) override { seen.push_back("input:" + n.name); }
  bool sees_subgraphs() const override { return subgraphs_; }
  std::vector<std::string> seen;

 private:
  bool subgraphs_;
};

// What an observer of `g` should see, from the program itself: each
// placeholder bound, each call_function begun and ended; with `body`, the
// body's own run, `times` times, inside the node that enters it.
std::vector<std::string> expected_events(const ir::GraphModule& g, const ir::GraphModule* body = nullptr,
                                         int64_t times = 0) {
  std::vector<std::string> out;
  for (const ir::Node* n : g.graph.nodes()) {
    const std::string& name = n->name;
    if (n->op == ir::OpKind::Placeholder) out.push_back("input:" + name);
    if (n->op != ir::OpKind::CallFunction) continue;
    out.push_back("begin:" + name);
    if (body && n->target.is_higher_order())
      for (int64_t i = 0; i < times; ++i) {
        const auto inner = expected_events(*body);
        out.insert(out.end(), inner.begin(), inner.end());
      }
    out.push_back("end:" + name);
  }
  return out;
}

// The text between the first and the second `sep`.
std::string second_section(const std::string& text, char sep) {
  const auto start = text.find(sep);
  if (start == std::string::npos) return {};
  const auto end = text.find(sep, start + 1);
  return text.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
}

struct OutputsRow {
  std::string name;    // the row: the fixture, with "_neg" for its negative inputs
  std::string fixture;
  std::string suffix;
};

}  // namespace

EL_TEST(matches_torch_outputs) {
  std::vector<OutputsRow> rows;
  for (const auto& n : fixtures_with_status("ok")) {
    if (const testing::KnownDifference* k = testing::known_difference("runtime", n, "outputs")) {
      info(n + ": outputs not compared: " + k->reason);
      continue;
    }
    rows.push_back({n, n, ""});
    if (exists(fixture_file(n, "inputs_neg.pt"))) rows.push_back({n + "_neg", n, "_neg"});
  }
  for_each_row(rows, [](const OutputsRow& row) {
    const auto ep = serde::read_pt2(fixture_file(row.fixture, "program.pt2"));
    runtime::Interpreter interp(ep, c10::Device(c10::kCPU));
    const auto inputs = load_tuple(fixture_file(row.fixture, "inputs" + row.suffix + ".pt"));
    const auto want = load_tuple(fixture_file(row.fixture, "outputs" + row.suffix + ".pt"));
    std::vector<c10::IValue> got;
    try {
      got = interp.run(inputs);
    } catch (const std::exception& e) {
      FAIL(e.what());
    }
    COMPARE(int(got.size()), int(want.size()));
    for (size_t i = 0; i < want.size(); ++i) {
      const auto err = testing::compare_values(got[i], want[i]);
      VERIFY_MSG(err.empty(), "output " + std::to_string(i) + ": " + err);
    }
  });
}

// The run's budget: CPU allocations on the running thread are charged while
// a scope is alive, refused past the limit, and given back when freed, even
// after the scope ended; allocations outside a scope are not charged.
EL_TEST(run_memory_charges_and_refuses) {
  auto budget = std::make_shared<runtime::RunMemoryBudget>(uint64_t(1) << 20);
  at::Tensor kept;
  {
    runtime::RunMemoryScope scope(budget);
    at::Tensor a = at::empty({128, 1024}, at::kFloat);  // 512 KiB
    COMPARE(budget->live(), uint64_t(512) << 10);
    try {
      at::empty({256, 1024}, at::kFloat);  // 1 MiB more
      FAIL("an allocation past the run's limit succeeded");
    } catch (const c10::Error& e) {
      const std::string what = e.what_without_backtrace();
      VERIFY_MSG(contains(what, "allocating 1.0 MiB (1048576 bytes) while the run holds 512.0 KiB (524288 bytes) "
                                "would pass its memory limit of 1.0 MiB (1048576 bytes)"),
                 what);
    }
    COMPARE(budget->live(), uint64_t(512) << 10);  // the refused allocation took nothing
    a = at::Tensor();
    COMPARE(budget->live(), uint64_t(0));
    kept = at::empty({200, 1024}, at::kFloat);  // fits again once the first is freed
  }
  COMPARE(budget->live(), uint64_t(800) << 10);
  COMPARE(budget->peak(), uint64_t(800) << 10);
  const at::Tensor outside = at::empty({512, 1024}, at::kFloat);
  COMPARE(budget->live(), uint64_t(800) << 10);
  kept = at::Tensor();  // freed after its scope: still given back
  COMPARE(budget->live(), uint64_t(0));
}

// A real program under a limit smaller than what it needs fails naming the
// node, before or while it allocates, never after passing the limit.
EL_TEST(a_run_over_its_memory_limit_names_the_node) {
  const auto ep = serde::read_pt2(fixture_file("transformer_block", "program.pt2"));
  const auto inputs = load_tuple(fixture_file("transformer_block", "inputs.pt"));
  runtime::Interpreter interp(ep, c10::Device(c10::kCPU));
  interp.set_memory_limit(1024);
  try {
    interp.run(inputs);
    FAIL("a run over its memory limit succeeded");
  } catch (const runtime::RunError& e) {
    const std::string what = e.what();
    VERIFY_MSG(what.starts_with("node '") && contains(what, "memory limit of 1.0 KiB (1024 bytes)") &&
                   contains(what, "--limit run-bytes="),
               e.what());
  }
  interp.set_memory_limit(uint64_t(1) << 30);
  COMPARE(int(interp.run(inputs).size()), int(load_tuple(fixture_file("transformer_block", "outputs.pt")).size()));
}

// One hook for everything that watches a run: observers see the top-level
// nodes, those that ask also the subgraph's nodes, and the run's own check
// of declared values wraps them all (a node it refuses is never begun).
EL_TEST(observers_see_the_nodes_they_ask_for) {
  const auto ep = serde::read_pt2(fixture_file("map_module", "program.pt2"));
  const auto inputs = load_tuple(fixture_file("map_module", "inputs.pt"));
  COMPARE(int(ep.graph_module.submodules.size()), 1);
  const ir::GraphModule& body = *ep.graph_module.submodules[0].second;
  RecordingObserver top(false), all(true);
  runtime::Interpreter interp(ep, c10::Device(c10::kCPU));
  interp.set_observers({&top, nullptr, &all});
  interp.run(inputs);
  COMPARE(top.seen, expected_events(ep.graph_module));
  const int64_t slices = inputs[0].toTensor().size(0);
  VERIFY(slices > 1);
  COMPARE(all.seen, expected_events(ep.graph_module, &body, slices));

  const auto block = serde::read_pt2(fixture_file("transformer_block", "program.pt2"));
  RecordingObserver watcher(false);
  runtime::Interpreter limited(block, c10::Device(c10::kCPU));
  limited.set_memory_limit(1024);
  limited.set_observers({&watcher});
  try {
    limited.run(load_tuple(fixture_file("transformer_block", "inputs.pt")));
    FAIL("a run over its memory limit succeeded");
  } catch (const runtime::RunError& e) {
    const std::string what = e.what();
    VERIFY_MSG(what.starts_with("node '") && contains(what, ") declares "), e.what());
    const std::string refused = second_section(what, '\'');
    const auto& seen = watcher.seen;
    VERIFY_MSG(std::find(seen.begin(), seen.end(), "begin:" + refused) == seen.end(), join(seen, " "));
    VERIFY_MSG(!seen.empty() && seen.back().starts_with("end:"), join(seen, " "));
  }
}

// A cancel reaches the nodes of the subgraphs a run enters: a while_loop
// stops at the next node of its body, not when the loop ends.
EL_TEST(a_cancel_stops_a_loop_inside_its_body) {
  const std::string dir = "lowering_cases/while_loop_counter";
  const auto ep = serde::read_pt2(fixture_file(dir, "program.pt2"));
  const auto inputs = load_tuple(fixture_file(dir, "inputs.pt"));
  RecordingObserver all(true);
  runtime::Interpreter full(ep, c10::Device(c10::kCPU));
  full.set_observers({nullptr, nullptr, &all});
  full.run(inputs);
  const int nested_begins =
      int(std::count_if(all.seen.begin(), all.seen.end(), [](const std::string& s) { return contains(s, "begin:"); }));

  // Cancels at the second node of the loop's body it sees.
  CancelToken token;
  struct CancelInBody final : public runtime::NodeObserver {
    CancelToken* token = nullptr;
    const ir::Graph* top = nullptr;
    int body_nodes = 0, begun_after_cancel = 0;
    void node_begin(const ir::Node& n) override {
      if (token->is_cancelled()) ++begun_after_cancel;
      if (n.graph() != top && ++body_nodes == 2) token->cancel();
    }
    void node_end(const ir::Node&, const c10::IValue&) override {}
    bool sees_subgraphs() const override { return true; }
  } canceller;
  canceller.token = &token;
  canceller.top = &ep.graph_module.graph;
  VERIFY_MSG(nested_begins > 10, std::to_string(nested_begins));  // the loop runs many body nodes
  runtime::Interpreter cancelled(ep, c10::Device(c10::kCPU));
  cancelled.set_observers({&canceller});
  cancelled.set_progress(Progress{{}, &token});
  try {
    cancelled.run(inputs);
    FAIL("a cancelled run finished");
  } catch (const Cancelled&) {
  }
  COMPARE(canceller.body_nodes, 2);
  COMPARE(canceller.begun_after_cancel, 0);  // the body's next node never began
}

EL_TEST(unknown_op_fails_only_when_running_and_names_it) {
  const auto ep = serde::read_pt2(fixture_file("custom_op", "program.pt2"));
  const auto missing = runtime::unavailable_operators(ep);
  COMPARE(int(missing.size()), 1);
  VERIFY(std::string(missing[0]).starts_with("my_custom_library::custom_op"));
  runtime::Interpreter interp(ep, c10::Device(c10::kCPU));
  try {
    interp.run(load_tuple(fixture_file("custom_op", "inputs.pt")));
    FAIL("running a program with an unregistered op succeeded");
  } catch (const runtime::RunError& e) {
    VERIFY_MSG(contains(e.what(), "my_custom_library::custom_op"), e.what());
  }
}

EL_TEST(input_shapes_are_checked_like_torch_guards) {
  // dynamic_shapes_example1: x [s0, s1 in [4, 18], 2]; torch says "x.size()[1] <= 18".
  const auto ep = serde::read_pt2(fixture_file("dynamic_shapes_example1", "program.pt2"));
  const auto meta = fixture_meta("dynamic_shapes_example1");
  int checked = 0;
  for (const auto& check : meta.value("runtime_checks", nlohmann::json::array())) {
    std::vector<runtime::InputDescription> inputs;
    for (const auto& shape : check.at("input_shapes")) {
      runtime::InputDescription d;
      for (const auto& dim : shape) d.sizes.push_back(std::stoll(dim.get<std::string>()));
      inputs.push_back(d);
    }
    const auto result = runtime::check_inputs(ep, inputs);
    COMPARE(result.ok(), check.value("status", "") == "ok");
    if (!result.ok()) {
      // torch: "Guard failed: x.size()[1] >= 4" — ours carries the same guard text.
      const std::string torch_guard = check.value("error_message", "");
      VERIFY_MSG(contains(result.message(), torch_guard), result.message() + " vs " + torch_guard);
    }
    ++checked;
  }
  VERIFY(checked >= 3);
}

EL_TEST(run_program_writes_outputs_torch_can_read) {
  const TempDir tmp;
  runtime::RunRequest req;
  req.inputs_file = fixture_file("book_mlp", "inputs.pt");
  const std::string out = tmp.file("exportlens_book_mlp_out.pt");
  req.outputs_file = out;
  const auto ep = serde::read_pt2(fixture_file("book_mlp", "program.pt2"));
  const auto report = runtime::run_program(ep, req);
  COMPARE(int(report.outputs.size()), 1);
  COMPARE(report.outputs[0].shape, (std::vector<int64_t>{2, 2}));
  const auto got = load_tuple(out);
  const auto want = load_tuple(fixture_file("book_mlp", "outputs.pt"));
  VERIFY(testing::compare_values(got[0], want[0]).empty());
}

EL_TEST(mismatched_shapes_are_rejected_before_running) {
  runtime::RunRequest req;
  req.inputs_file = fixture_file("my_module", "inputs.pt");
  const auto ep = serde::read_pt2(fixture_file("book_mlp", "program.pt2"));
  try {
    runtime::run_program(ep, req);
    FAIL("ran with inputs of another program");
  } catch (const std::runtime_error& e) {
    VERIFY_MSG(contains(e.what(), "Expected 1 inputs, got 2"), e.what());
  }
}
