#pragma once
// The one purity rule and the one dead-code elimination, torch 2.13's
// (torch/fx/node.py Node.is_impure, torch/_library/utils.py is_impure,
// torch/fx/graph.py Graph.eliminate_dead_code). The lowering's GraphBuilder,
// the tracer's exporter and anything else that drops unused nodes use it.
//
// It lives here, in the LibTorch-free IR, because the lowering (engine/passes,
// LibTorch-free) needs it as much as the tracer: what it needs of LibTorch's
// dispatcher — whether an op's schema writes an argument, whether it draws
// from the RNG — comes in as SchemaEffects from a lookup, which
// runtime::dispatcher_schema_effects() answers from the dispatcher
// (engine/runtime/op_signatures.h). Everything else is an explicit table in
// purity.cpp: torch's `_side_effectful_functions`, the ops torch registers
// with an effect (torch/_higher_order_ops/effects.py), and the higher-order
// ops, each with why it is pure or not.
#include <functional>
#include <optional>
#include <string>

#include "engine/ir/graph.h"
#include "engine/ir/node.h"
#include "engine/ir/op_signature.h"

namespace exportlens::ir {

/// What an op's schema in the dispatcher says that decides its purity.
struct SchemaEffects {
  /// FunctionSchema::is_mutable(): an argument's alias info is a write
  /// (`Tensor(a!)`: in-place and out= overloads, copy_, the running stats
  /// of _native_batch_norm_legit, ...).
  bool writes_argument = false;
  /// The op carries at::Tag::nondeterministic_seeded (rand, bernoulli,
  /// native_dropout, ...): running it advances the generator.
  bool nondeterministic_seeded = false;
};

/// Schema effects by dispatcher name ("aten::add_.Tensor"; "aten::relu" for a
/// default overload); nullopt when the op is not known.
using SchemaEffectsLookup = std::function<std::optional<SchemaEffects>(const std::string& schema_name)>;

/// `schemas`, and for an op it does not know, what a program's file says of
/// it: a schema ExportLens' Python helpers recorded for a Python-registered
/// op (a complete OpSignature: serde/recorded_op_schemas.h) tells whether the
/// op writes an argument (its seeding is not recorded: false).
SchemaEffectsLookup with_file_signatures(SchemaEffectsLookup schemas, const OpSignatureMap& file_signatures);

/// The process's schema source, for code that is handed none (the lowering).
/// The executable installs the dispatcher's once at start-up
/// (runtime::use_dispatcher_schema_effects(): app/main.cpp, the test suites
/// that lower with LibTorch at hand). Without one — a LibTorch-free process —
/// every op's schema is unknown (below).
void set_schema_effects(SchemaEffectsLookup lookup);
SchemaEffectsLookup schema_effects();

/// Node.is_impure(): whether removing `node` when nothing uses its value
/// would change what the program does. Placeholders and the output always
/// are; get_attr never is. A call is impure when its op's schema writes an
/// argument or is seeded, when torch lists it as side-effectful or registers
/// an effect for it (asserts, range constraints, _print, profiler ranges,
/// operator.setitem, grad-mode and autocast switches), or when it is a
/// higher-order op the table marks impure. An op `schemas` does not know (a
/// custom op registered from Python) counts as writing nothing and drawing
/// nothing, unless it returns nothing and nothing uses it: a call that
/// survived torch's own dead-code elimination with no value writes an
/// argument. Without `schemas` the tables alone decide.
bool is_impure(const Node& node, const SchemaEffectsLookup& schemas);

/// Graph.eliminate_dead_code(): one sweep from the back removes every node
/// that nothing uses and that is not impure (nor kept by `keep`, when
/// given); returns how many went.
int eliminate_dead_code(Graph& graph, const SchemaEffectsLookup& schemas,
                        const std::function<bool(const Node&)>& keep = {});
/// Also in each subgraph a remaining get_attr node names, after the graph
/// itself (as fx recurses into the GraphModule children its get_attrs name).
int eliminate_dead_code(GraphModule& gm, const SchemaEffectsLookup& schemas);

}  // namespace exportlens::ir
