#pragma once
// What the user asked the Run dock for: where the inputs come from, the
// device, and whether a GPU run is checked against the CPU.
#include <QMetaType>
#include <QString>

#include <cstdint>

namespace exportlens::ui {

struct RunSettings {
  enum class Inputs { Random, File };
  Inputs inputs = Inputs::Random;
  quint64 seed = 0;        // Random
  QString inputsFile;      // File: a torch.save'd tuple of the user inputs
  QString device = QStringLiteral("cpu");  // "cpu", "cuda"
  /// After a successful run off the CPU, run again on the CPU with the same
  /// inputs and compare the outputs.
  bool compareWithCpu = true;

  bool onCpu() const { return device == QLatin1String("cpu"); }
};

/// "CPU", "GPU (CUDA)": a device for people.
QString device_display_name(const QString& device);

}  // namespace exportlens::ui

Q_DECLARE_METATYPE(exportlens::ui::RunSettings)
