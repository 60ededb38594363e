#pragma once
// What both numerics suites read: the cases numerics_cases.py recorded, the
// corpus's programs, and how close our error figures must be to torch's.
#include <QString>

#include <algorithm>
#include <cmath>

namespace exportlens::testing {

inline QString numerics_cases() { return QStringLiteral(EXPORTLENS_NUMERICS_FIXTURES); }
inline QString corpus_file(const QString& name, const QString& file) {
  return QStringLiteral(EXPORTLENS_CORPUS "/") + name + "/" + file;
}
/// An error figure of ours against torch's for the same runs.
inline bool near_torch(double ours, double torch) {
  return std::abs(ours - torch) <= 1e-3 * std::max(1.0, std::abs(torch)) + 1e-6;
}

}  // namespace exportlens::testing
