#pragma once
// Op schemas from LibTorch's dispatcher in the IR's LibTorch-free form, for
// the .pt2 writer (serde::WriteOptions::signatures). Every op registered in
// this process is known: ATen, and custom ops of loaded model libraries.
#include "engine/ir/op_signature.h"

namespace exportlens::runtime {

/// The dispatcher's lookup ("aten::add.Tensor" -> names, keyword-only flags,
/// list kinds, returns); nullopt for an op this process does not have.
ir::OpSignatureLookup dispatcher_signatures();

}  // namespace exportlens::runtime
