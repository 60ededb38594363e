#pragma once
// How the Dynamic shapes table writes one dimension's entry: "STATIC",
// "AUTO", "DYNAMIC [2, 64]", "4", "dx [4, 256]", "2*dx + 1".
#include <QString>

#include "engine/symbolic/dynamic_shapes_spec.h"

namespace exportlens::ui {

/// The entry as a short cell text; named Dims show their declared bounds.
QString dim_spec_text(const symbolic::DimSpec& dim, const symbolic::DynamicShapesSpec& spec);
/// "[4, 256]", "[4, ∞)", "" when neither bound is given.
QString bounds_text(const std::optional<int64_t>& min, const std::optional<int64_t>& max);

}  // namespace exportlens::ui
