#pragma once
// "Run on GPU": one click on the toolbar runs the open program on the GPU
// (per-node GPU times, kernels, memory, CUDA-graph replay, compared with the
// CPU). Where it cannot run, the action is disabled and its tooltip says why
// and the command that fixes it (build the CUDA flavour; a machine whose
// nvidia-smi lists a GPU).
#include <QAction>

namespace exportlens::ui {

class ProgramModel;

class GpuRunAction : public QAction {
  Q_OBJECT
 public:
  explicit GpuRunAction(QObject* parent = nullptr);

  /// Enabled while a program is shown (and a GPU is here).
  void follow(ProgramModel* model);
  /// Asks the runtime again whether a GPU can run here.
  void refresh();

  bool gpuAvailable() const { return available_; }
  /// Why not, and the fix (empty when available).
  QString reason() const { return why_; }
  QString fix() const { return fix_; }

 private:
  void update(bool has_program);

  bool available_ = false;
  bool has_program_ = false;
  QString why_, fix_;
};

}  // namespace exportlens::ui
