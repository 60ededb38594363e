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

/// The entry of `input`'s dimension `dim` in `spec` (static when the spec does not list it).
symbolic::DimSpec dim_entry(const symbolic::DynamicShapesSpec& spec, const std::vector<symbolic::ExampleInput>& inputs,
                            size_t input, int64_t dim);

/// `spec` with `input`'s dimension `dim` set to `edit`. An unset spec becomes
/// a dict over every input; an input given as None becomes a tuple of
/// Dim.STATIC. Declares (or re-bounds) the edit's Dim and drops unused ones.
symbolic::DynamicShapesSpec with_dim(symbolic::DynamicShapesSpec spec, const std::vector<symbolic::ExampleInput>& inputs,
                                     size_t input, int64_t dim, const DimEdit& edit);

/// `spec` without the declarations of Dims no dimension refers to.
symbolic::DynamicShapesSpec without_unused_dims(symbolic::DynamicShapesSpec spec);

}  // namespace exportlens::ui
