#pragma once
// Edits of a dynamic_shapes spec made from the table, as pure functions on
// symbolic::DynamicShapesSpec: set one input dimension (creating or updating
// the named Dim it refers to) and drop Dims nothing uses any more.
#include <optional>
#include <vector>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "engine/symbolic/spec_binding.h"

namespace exportlens::ui {

/// What a cell editor produces: the dimension's entry and, for a named or
/// derived Dim, the declaration of its (root) Dim.
struct DimEdit {
  symbolic::DimSpec spec;
  std::optional<symbolic::DimDecl> decl;
};

/// The entry of `input`'s dimension `dim` in `spec` (static when the spec does
/// not list it, or does not fit the inputs). `tree`: the arguments' pytree
/// when some argument is a tuple, list, dict or dataclass (each input one of
/// its leaves, matched as torch matches the spec); empty otherwise.
symbolic::DimSpec dim_entry(const symbolic::DynamicShapesSpec& spec, const std::vector<symbolic::ExampleInput>& inputs,
                            size_t input, int64_t dim, const std::vector<symbolic::InputTree>& tree = {});

/// `spec` with `input`'s dimension `dim` set to `edit`. An unset spec becomes
/// a dict over every argument; an input given as None becomes a tuple of
/// Dim.STATIC. In a nested argument the containers on the input's path are
/// made to mirror it (a tuple for a tuple, a list for a list or a dataclass,
/// a dict with its keys; what they held kept where it fits). Declares (or
/// re-bounds) the edit's Dim and drops unused ones.
symbolic::DynamicShapesSpec with_dim(symbolic::DynamicShapesSpec spec, const std::vector<symbolic::ExampleInput>& inputs,
                                     size_t input, int64_t dim, const DimEdit& edit,
                                     const std::vector<symbolic::InputTree>& tree = {});

/// `spec` without the declarations of Dims no dimension refers to.
symbolic::DynamicShapesSpec without_unused_dims(symbolic::DynamicShapesSpec spec);

}  // namespace exportlens::ui
