// The .pt2 reader against real torch.export archives: every fixture that
// exports is read, and its placeholders, op sequence, signature and range
// constraints equal what torch reported for the same (loaded) program.
#include <nlohmann/json.hpp>

#include "engine/ir/verifier.h"
#include "engine/serde/pt2_reader.h"
#include "support/unit/fixtures.h"
#include "support/unit/json.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;
using json = nlohmann::json;

namespace {

ir::ExportedProgram read(const std::string& name) { return serde::read_pt2(fixture_file(name, "program.pt2")); }

}  // namespace

EL_TEST(reads_every_fixture) {
  for_each_row(fixtures_with_status("ok"), [](const std::string& name) {
    const auto ep = read(name);
    const auto meta = fixture_meta(name);
    VERIFY_MSG(ir::verify(ep).empty(), "verifier findings on a torch-written program");

    // Placeholders: names and symbolic shapes as torch printed them.
    const auto placeholders = as_object(field(meta, "placeholders"));
    const auto phs = ep.graph().placeholders();
    COMPARE(int(phs.size()), placeholders.size());
    for (const auto* ph : phs) {
      VERIFY_MSG(placeholders.contains(ph->name), ph->name);
      const auto dims = as_array(placeholders.at(ph->name));
      const auto* t = ph->value.tensor();
      if (!t) continue;  // non-tensor inputs carry no shape
      COMPARE(int(t->sizes.size()), dims.size());
      for (size_t d = 0; d < dims.size(); ++d) COMPARE(t->sizes[d].str(), as_string(dims[d]));
    }

    // The top-level op sequence.
    std::vector<std::string> ops;
    for (const auto* n : ep.graph().nodes())
      if (n->op == ir::OpKind::CallFunction) ops.push_back(n->target.qualified());
    const std::vector<std::string> expected = as_strings(field(meta, "ops"));
    // torch prints "aten.add.Tensor" / "<built-in function getitem>"; compare op names.
    COMPARE(ops.size(), expected.size());
    for (size_t i = 0; i < ops.size(); ++i) {
      std::string want = expected[i];
      const std::string builtin = "<built-in function ";
      if (contains(want, "getitem")) want = "_operator.getitem";
      else if (want.starts_with(builtin)) want = "_operator." + want.substr(19, want.size() - 20);
      else if (!contains(want, ".")) want = "torch.ops.higher_order." + want;  // str(torch.ops.higher_order.cond)
      else if (!want.starts_with("torch.")) want = "torch.ops." + want;
      COMPARE(ops[i], want);
    }

    // Graph signature.
    const auto sig = as_object(field(meta, "graph_signature"));
    const auto in_specs = as_array(field(sig, "input_specs"));
    COMPARE(int(ep.signature.inputs.size()), in_specs.size());
    for (size_t i = 0; i < in_specs.size(); ++i) {
      const auto& s = in_specs[i];
      COMPARE(std::string(ir::kind_name(ep.signature.inputs[i].kind)), as_string(field(s, "kind")));
      COMPARE(ep.signature.inputs[i].arg.name, as_string(field(s, "name")));
      COMPARE(ep.signature.inputs[i].target.value_or(""), as_string(field(s, "target")));
    }
    const auto out_specs = as_array(field(sig, "output_specs"));
    COMPARE(int(ep.signature.outputs.size()), out_specs.size());
    for (size_t i = 0; i < out_specs.size(); ++i) {
      const auto& s = out_specs[i];
      COMPARE(std::string(ir::kind_name(ep.signature.outputs[i].kind)), as_string(field(s, "kind")));
      COMPARE(ep.signature.outputs[i].arg.name, as_string(field(s, "name")));
    }

    // Range constraints: the same symbols with the same bounds.
    const auto rc = as_object(field(meta, "range_constraints"));
    COMPARE(int(ep.range_constraints.entries.size()), rc.size());
    for (const auto& [key, range] : ep.range_constraints.entries) {
      const auto k = key.str();
      VERIFY_MSG(rc.contains(k), "unexpected range constraint " + k);
      const auto bounds = as_array(rc.at(k));
      auto bound = [&](size_t i) -> std::string {
        const json v = i < bounds.size() ? bounds[i] : json();
        return v.is_string() ? v.get<std::string>() : std::to_string(v.is_number() ? v.get<int64_t>() : 0);
      };
      COMPARE(range.lower.str(), bound(0));
      COMPARE(range.upper.str(), bound(1));
    }
  });
}

EL_TEST(weights_match_the_signature) {
  const auto ep = read("book_mlp");
  COMPARE(int(ep.state_dict.size()), 4);
  const auto* w = ep.find_state("fc1.weight");
  VERIFY(w);
  COMPARE(w->meta.annotation(), std::string("f32[5, 10]"));
  COMPARE(int(w->bytes->size()), 5 * 10 * 4);
  VERIFY(w->is_parameter);
}

EL_TEST(cond_branches_become_submodules) {
  const auto ep = read("bad1_fixed");
  COMPARE(int(ep.graph_module.submodules.size()), 2);
  VERIFY(ep.graph_module.submodule("true_graph_0"));
  VERIFY(ep.graph_module.submodule("false_graph_0"));
  const auto* cond = ep.graph().find("cond");
  VERIFY(cond);
  VERIFY(cond->target.is_higher_order());
  COMPARE(cond->args().at(1).node()->op, ir::OpKind::GetAttr);
}

EL_TEST(custom_op_nodes_read_without_the_op_library) {
  const auto ep = read("custom_op");
  bool found = false;
  for (const auto* n : ep.graph().nodes())
    if (n->target.op_namespace() == "my_custom_library") found = true;
  VERIFY(found);
}
