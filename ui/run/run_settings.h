#pragma once
// What the user asked the Run dock for: where the inputs come from, the
// device, the precision, the CPU comparison, CUDA graphs and repeats.
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cstdint>

#include "engine/runtime/precision.h"

namespace exportlens::ui {

struct RunSettings {
  enum class Inputs { Random, File };
  Inputs inputs = Inputs::Random;
  quint64 seed = 0;        // Random
  QString inputsFile;      // File: a torch.save'd tuple of the user inputs
  /// "cpu", "cuda", "cuda:1".
  QString device = QStringLiteral("cpu");
  /// As exported (fp32), or parameters, buffers and inputs cast to bf16 / fp16.
  runtime::Precision precision = runtime::Precision::AsExported;
  /// Also run on the CPU as exported, same inputs, and compare each output
  /// (always for a GPU run).
  bool compareCpu = true;
  /// GPU runs: capture the program as a CUDA graph and time its replay.
  bool cudaGraph = true;
  int warmup = 0;  // runs before the timed ones
  int repeat = 1;  // timed runs (the median one's times are shown)
  /// Ops the user allowed for this run although they do more than compute
  /// ("aten::from_file"); the runtime refuses any other such op.
  QStringList allowedOps;

  bool onCpu() const { return device == QLatin1String("cpu"); }
  bool comparesWithCpu() const { return compareCpu || !onCpu(); }
};

/// "CPU", "GPU (CUDA)": a device for people.
QString device_display_name(const QString& device);

}  // namespace exportlens::ui

Q_DECLARE_METATYPE(exportlens::ui::RunSettings)
