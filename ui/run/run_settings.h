#pragma once
// What the user asked the Run dock for: where the inputs come from and the
// device.
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace exportlens::ui {

struct RunSettings {
  enum class Inputs { Random, File };
  Inputs inputs = Inputs::Random;
  quint64 seed = 0;        // Random
  QString inputsFile;      // File: a torch.save'd tuple of the user inputs
  /// "cpu", "cuda". A successful run off the CPU is followed by a CPU run
  /// on the same inputs, the reference its outputs are compared with.
  QString device = QStringLiteral("cpu");
  /// Ops the user allowed for this run although they do more than compute
  /// ("aten::from_file"); the runtime refuses any other such op.
  QStringList allowedOps;

  bool onCpu() const { return device == QLatin1String("cpu"); }
};

/// "CPU", "GPU (CUDA)": a device for people.
QString device_display_name(const QString& device);

}  // namespace exportlens::ui

Q_DECLARE_METATYPE(exportlens::ui::RunSettings)
