#pragma once
// One pair's statistics as text and JSON, shared by the numerics reports
// (numerics_report.cpp, compiled_comparison.cpp). engine/numerics sources only.
#include <string>

#include <nlohmann/json.hpp>

#include "engine/numerics/numerics_report.h"

namespace exportlens::numerics {

/// "max abs 1e-06, max rel 2e-05, SNR 120 dB, cosine 1" (NaN/Inf counts when there are any).
std::string stats_line(const ErrorStats& s);
/// A number JSON can hold: NaN and infinities as the strings "nan", "inf", "-inf".
nlohmann::json finite(double v);
nlohmann::json stats_json(const ErrorStats& s);

}  // namespace exportlens::numerics
