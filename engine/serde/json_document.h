#pragma once
// Parses a JSON entry of an archive under the read limits: the nesting depth
// is measured by a linear scan before the parser (and every recursive reader
// after it) sees the text, so a file of 10^5 brackets is refused, not followed.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "engine/serde/read_limits.h"

namespace exportlens::serde {

/// The deepest nesting of arrays/objects in `text` (strings skipped).
int json_nesting_depth(std::string_view text);

/// Parses `text`; throws Pt2Error naming `label` (and the byte) for invalid
/// JSON or nesting over limits.max_nesting.
nlohmann::ordered_json parse_json_document(std::string_view text, const std::string& label, const ReadLimits& limits);

}  // namespace exportlens::serde
