#pragma once
// What a numerics run compares, as the Numerics dock asks it: the program as
// exported (A, on the CPU) against B, the same program in another dtype or on
// another device, or lowered to another IR level; the metric the table and
// the canvas show; the inputs.
#include <QString>

#include <cstdint>

namespace exportlens::ui {

struct NumericsSettings {
  enum class Way { Device, BFloat16, Float16, Float64, Functional, Core };
  Way way = Way::BFloat16;
  QString device = QStringLiteral("cpu");  // where B runs
  QString metric = QStringLiteral("max_abs");
  QString inputsFile;  // empty: random inputs from the signature
  uint64_t seed = 0;

  /// "bfloat16", "Core ATen", "the same program": what B is.
  static QString wayTitle(Way way);
};

}  // namespace exportlens::ui
