#pragma once
// Small graphs and programs built by hand, for every suite that needs one
// (printer, layout, UI models, passes), so that how a test makes a node is
// written once:
//  * GraphMaker appends nodes to an ir::Graph: placeholders, calls, get_attr,
//    the output tuple;
//  * ProgramBuilder makes an ExportedProgram with its signature, placeholders
//    with static shapes, and each call's value from `infer` when one is set
//    (the pass suites set the shape rules', tests/passes/pass_program.h).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/ir/graph_builder.h"
#include "engine/ir/op_key.h"

namespace exportlens::testing {

/// A target from a qualified name ("torch.ops.aten.relu.default", or a
/// Python function: "_operator.getitem", "math.trunc") or an op key
/// ("aten.relu.default").
inline ir::Target target_of(const std::string& name) {
  for (const char* prefix : {"torch.", "_operator.", "operator.", "math.", "builtins."})
    if (name.rfind(prefix, 0) == 0) return ir::Target(name);
  return ir::op_target(name);
}

struct GraphMaker {
  ir::Graph& g;

  /// Any node; `target` is a get_attr's attribute path, else the callee (empty: none).
  ir::Node* add(ir::OpKind op, const std::string& name, const std::string& target = "",
                std::vector<ir::Argument> args = {}, std::vector<ir::NamedArgument> kwargs = {},
                std::vector<ir::ModuleScope> scopes = {}) {
    ir::GraphBuilder b(g);
    auto n = b.make_as_written(op, name);
    if (op == ir::OpKind::GetAttr) n->attr = target;
    else if (!target.empty()) n->target = target_of(target);
    n->set_inputs(std::move(args), std::move(kwargs));
    n->meta.nn_module_stack = std::move(scopes);
    return b.insert(std::move(n));
  }
  ir::Node* placeholder(const std::string& name) { return add(ir::OpKind::Placeholder, name); }
  ir::Node* call(const std::string& name, const std::string& target, std::vector<ir::Argument> args,
                 std::vector<ir::NamedArgument> kwargs = {}, std::vector<ir::ModuleScope> scopes = {}) {
    return add(ir::OpKind::CallFunction, name, target, std::move(args), std::move(kwargs), std::move(scopes));
  }
  /// The output node returning `results` as a tuple.
  ir::Node* output(const std::vector<ir::Node*>& results) {
    ir::ArgumentList tuple{{}, true};
    for (ir::Node* r : results) tuple.items.emplace_back(r);
    return add(ir::OpKind::Output, "output", "", {ir::Argument(std::move(tuple))});
  }
};

struct ProgramBuilder {
  ir::ExportedProgram ep;
  /// Each call's value (FX's meta["val"]); unset: calls carry none.
  std::function<ir::ValueInfo(const ir::Node&)> infer;

  /// A placeholder with a static, contiguous shape, its signature entry, and
  /// for a parameter or buffer (`target`) a state_dict entry without data.
  ir::Node* input(const std::string& name, ir::InputKind kind, std::vector<int64_t> sizes,
                  std::optional<std::string> target = std::nullopt, ir::ScalarType dtype = ir::ScalarType::Float) {
    ir::TensorMeta m;
    m.dtype = dtype;
    int64_t stride = 1;
    for (auto s = sizes.rbegin(); s != sizes.rend(); ++s) {
      m.strides.insert(m.strides.begin(), ir::SymInt(stride));
      stride *= std::max<int64_t>(*s, 1);
    }
    for (int64_t s : sizes) m.sizes.push_back(ir::SymInt(s));
    ir::Node* n = maker().placeholder(name);
    n->value = ir::ValueInfo::of(m);
    ir::InputSpec spec;
    spec.kind = kind;
    spec.arg.name = name;
    spec.target = target;
    if (kind == ir::InputKind::Buffer) spec.persistent = true;
    ep.signature.inputs.push_back(spec);
    if (target) {
      ir::TensorPayload p;
      p.meta = m;
      ep.state_dict.emplace_back(*target, p);
    }
    return n;
  }
  /// `op`: an op key ("aten.mul.Tensor") or a qualified name ("_operator.getitem").
  ir::Node* call(const std::string& name, const std::string& op, std::vector<ir::Argument> args,
                 std::vector<ir::NamedArgument> kwargs = {}) {
    ir::Node* n = maker().call(name, op, std::move(args), std::move(kwargs));
    if (infer) n->value = infer(*n);
    return n;
  }
  /// The output tuple, each of `outs` a user output.
  void output(const std::vector<ir::Node*>& outs) {
    for (ir::Node* o : outs) {
      ir::OutputSpec spec;
      spec.arg.name = o->name;
      ep.signature.outputs.push_back(spec);
    }
    maker().output(outs);
  }

 private:
  GraphMaker maker() { return GraphMaker{ep.graph()}; }
};

}  // namespace exportlens::testing
