#pragma once
// Small programs built by hand for the pass tests: placeholders with static
// shapes and signature kinds, op calls whose values come from the shape
// rules, an output tuple of user outputs.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/passes/meta_inference.h"
#include "engine/passes/op_call.h"
#include "engine/passes/tensor_layout.h"

namespace exportlens::testing {

struct ProgramBuilder {
  ir::ExportedProgram ep;
  ir::Node* input(const std::string& name, ir::InputKind kind, std::vector<int64_t> sizes,
                  std::optional<std::string> target = std::nullopt, ir::ScalarType dtype = ir::ScalarType::Float) {
    auto n = std::make_unique<ir::Node>();
    n->op = ir::OpKind::Placeholder;
    n->name = name;
    ir::TensorMeta m;
    m.dtype = dtype;
    for (int64_t s : sizes) m.sizes.push_back(ir::SymInt(s));
    m.strides = passes::contiguous_strides(m.sizes);
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
    return ep.graph().append(std::move(n));
  }
  ir::Node* call(const std::string& name, const std::string& op, std::vector<ir::Argument> args,
                 std::vector<ir::NamedArgument> kwargs = {}) {
    auto n = std::make_unique<ir::Node>();
    n->name = name;
    n->target = op.rfind("_operator.", 0) == 0 ? ir::Target(op) : passes::op_target(op);
    n->args = std::move(args);
    n->kwargs = std::move(kwargs);
    ir::Node* placed = ep.graph().append(std::move(n));
    passes::Hints hints;
    passes::MetaInference inference(hints);
    placed->value = inference.infer(*placed);
    return placed;
  }
  void output(std::vector<ir::Node*> outs) {
    auto n = std::make_unique<ir::Node>();
    n->op = ir::OpKind::Output;
    n->name = "output";
    ir::ArgumentList l{{}, true};
    for (ir::Node* o : outs) {
      l.items.push_back(o);
      ir::OutputSpec spec;
      spec.arg.name = o->name;
      ep.signature.outputs.push_back(spec);
    }
    n->args = {l};
    ep.graph().append(std::move(n));
  }
};


}  // namespace exportlens::testing
