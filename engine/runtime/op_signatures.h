#pragma once
// Op schemas from LibTorch's dispatcher in the IR's LibTorch-free form, for
// the .pt2 writer (serde::WriteOptions::signatures) and the purity rule
// (ir::SchemaEffects). Every op registered in
// this process is known: ATen, and custom ops of loaded model libraries.
#include "engine/ir/op_signature.h"
#include "engine/ir/purity.h"

namespace exportlens::runtime {

/// The dispatcher's lookup ("aten::add.Tensor" -> names, keyword-only flags,
/// list kinds, returns); nullopt for an op this process does not have.
ir::OpSignatureLookup dispatcher_signatures();

/// What the purity rule (ir/purity.h) needs of an op's schema, from the
/// dispatcher: FunctionSchema::is_mutable() and the nondeterministic_seeded
/// tag; nullopt for an op this process does not have.
ir::SchemaEffectsLookup dispatcher_schema_effects();
/// Makes the dispatcher's the process's schema source (ir::set_schema_effects):
/// an executable calls it once at start-up, before any thread lowers.
void use_dispatcher_schema_effects();

}  // namespace exportlens::runtime
