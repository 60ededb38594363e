#pragma once
// Ops that only move or select data: every element of their output is an
// element of their one tensor input, picked by position from the input's
// shape and the op's constant or integer arguments — never computed, never
// read from the input's storage layout (strides), never reinterpreted as
// another dtype. A numerics run uses it to skip work it can prove the answer
// of (numerics_run.cpp):
//  - such an op commutes with an elementwise cast: op(cast(x)) == cast(op(x)),
//    so its B computation fed A's (cast) input equals A's own value cast to
//    B's precision, and its introduced error is that cast's rounding, with no
//    op to run;
//  - it makes no NaN or Inf from finite inputs;
//  - where the output is read as the input's very sequence of elements
//    (tensor_error.h's same_sequence: all of the same memory walked alike,
//    or, for those keeping the order (KeepsOrder: the row-major sequence of
//    output elements is the input's, shapes aside), both read row-major),
//    it has the error statistics of its input exactly, since every
//    statistic is folded over that sequence in order.
// The table lists ATen ops by their schema semantics, not any model's use of
// them; ops that read strides (as_strided, _reshape_alias), reinterpret bits
// (view.dtype, view_as_real, real, imag) or combine several inputs (cat,
// index_select with its index) are not in it.
// No LibTorch: plain op names.
#include "engine/ir/node.h"

namespace exportlens::numerics {

enum class Movement {
  None,        // computes (or unknown)
  Selects,     // output elements are input elements (permute, expand, slice, select, split, getitem, ...)
  KeepsOrder,  // and in the input's row-major order (view, reshape, clone, squeeze, unsqueeze, ...)
};

/// What a call_function node does with its data, by its op.
Movement movement_of(const ir::Node& node);

}  // namespace exportlens::numerics
