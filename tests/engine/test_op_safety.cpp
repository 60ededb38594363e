// The runtime's operator rules (op_safety.h): every op torch.export put in the
// oracle fixtures runs without being allowed, the ops that reach files,
// terminals, process-wide state or raw memory are refused with a reason, and
// --allow-op names match as documented.
#include <ATen/core/dispatch/Dispatcher.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "engine/runtime/op_safety.h"
#include "engine/runtime/program_runner.h"
#include "engine/serde/pt2_reader.h"
#include "support/unit/fixtures.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;

namespace {

std::optional<c10::OperatorHandle> find(const std::string& name, const std::string& overload) {
  return c10::Dispatcher::singleton().findSchema({name, overload});
}


struct RiskyOp {
  std::string name;  // the row
  std::string op, overload, reason;
};

struct ComputeOp {
  std::string name;  // the row: op.overload
  std::string op, overload;
};

}  // namespace

EL_TEST(oracle_programs_run_without_allowing_anything) {
  int programs = 0;
  for (const std::string status : {"ok"}) {
    for (const auto& name : fixtures_with_status(status)) {
      serde::ReadOptions options;
      options.load_weights = false;
      const auto ep = serde::read_pt2(fixture_file(name, "program.pt2"), "", options);
      const auto refused = runtime::refused_operators(ep);
      for (const auto& r : refused) FAIL(name + ": " + r.str());
      ++programs;
    }
  }
  VERIFY(programs > 20);
}

EL_TEST(risky_ops_are_refused) {
  const std::vector<RiskyOp> rows = {
      {"from_file", "aten::from_file", "", "reads or writes a file"},
      {"from_file.out", "aten::from_file", "out", "reads or writes a file"},
      {"_print", "aten::_print", "", "writes to the terminal"},
      {"set_ storage", "aten::set_", "source_Storage", "swaps a tensor's storage"},
      {"set_ tensor", "aten::set_", "source_Tensor", "swaps a tensor's storage"},
      {"set storage functional", "aten::set", "source_Storage", "passes a raw storage"},
      {"record_stream", "aten::record_stream", "", "memory lifetime"},
      {"cufft state", "aten::_cufft_clear_plan_cache", "", "process-wide state"},
  };
  for_each_row(rows, [](const RiskyOp& row) {
    const auto op = find(row.op, row.overload);
    VERIFY_MSG(op, row.op + "." + row.overload + " is not registered in this process");
    const auto why = runtime::unsafe_reason(op->schema());
    VERIFY_MSG(why, row.op + " is allowed");
    VERIFY_MSG(contains(*why, row.reason), *why);
  });
}

EL_TEST(compute_ops_are_allowed) {
  std::vector<ComputeOp> rows;
  for (const auto& [n, o] : std::vector<std::pair<const char*, const char*>>{
           {"aten::add", "Tensor"}, {"aten::linear", ""}, {"aten::randn", ""}, {"aten::randn", "generator"},
           {"aten::_assert_scalar", ""}, {"aten::sym_constrain_range", ""}, {"aten::copy_", ""},
           {"aten::index_put_", ""}, {"aten::as_strided", ""}, {"aten::einsum", ""}, {"aten::dropout", ""}})
    rows.push_back({std::string(n) + "." + o, n, o});
  for_each_row(rows, [](const ComputeOp& row) {
    const auto op = find(row.op, row.overload);
    VERIFY_MSG(op, row.op + "." + row.overload + " is not registered in this process");
    const auto why = runtime::unsafe_reason(op->schema());
    VERIFY_MSG(!why, why ? *why : "");
  });
}

EL_TEST(allow_op_names) {
  const ir::Target from_file("torch.ops.aten.from_file.default"), out("torch.ops.aten.from_file.out");
  VERIFY(runtime::user_allows({"aten::from_file"}, from_file));
  VERIFY(runtime::user_allows({"aten.from_file"}, out));
  VERIFY(runtime::user_allows({"aten::from_file.out"}, out));
  VERIFY(!runtime::user_allows({"aten::from_file.out"}, from_file));
  VERIFY(!runtime::user_allows({"aten::from_fil", "from_file"}, from_file));
}

// How much of this process's operator set the rules refuse (for the record).
EL_TEST(refused_share_of_registered_ops) {
  int refused = 0, total = 0;
  for (const auto& name : c10::Dispatcher::singleton().getAllOpNames()) {
    const auto op = c10::Dispatcher::singleton().findOp(name);
    if (!op || !op->hasSchema()) continue;
    ++total;
    if (runtime::unsafe_reason(op->schema())) ++refused;
  }
  info(std::to_string(refused) + " of " + std::to_string(total) + " registered operators refused without --allow-op");
  VERIFY(total > 2000);
  VERIFY(refused > 10 && refused < total / 10);
}
