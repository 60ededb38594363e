#pragma once
// What both numerics suites read: the cases numerics_cases.py recorded, the
// corpus's programs, and how close our error figures must be to torch's.
// Plain C++: the engine suite (test_numerics) uses it as is, the QtTest one
// (test_numerics_window) through QString::fromStdString.
#include <algorithm>
#include <cmath>
#include <string>

namespace exportlens::testing {

/// The folder numerics_cases.py recorded its cases into.
inline std::string numerics_cases() { return EXPORTLENS_NUMERICS_FIXTURES; }
/// `file` of the corpus's program `name`.
inline std::string corpus_file(const std::string& name, const std::string& file) {
  return std::string(EXPORTLENS_CORPUS "/") + name + "/" + file;
}
/// An error figure of ours against torch's for the same runs.
inline bool near_torch(double ours, double torch) {
  return std::abs(ours - torch) <= 1e-3 * std::max(1.0, std::abs(torch)) + 1e-6;
}

}  // namespace exportlens::testing
