#include "ui/numerics/numerics_worker.h"

#include <QFile>

#include "engine/passes/ir_levels.h"
#include "engine/runtime/program_runner.h"

namespace exportlens::ui {
namespace {

using Way = NumericsSettings::Way;

runtime::Precision precision_of(Way way) {
  switch (way) {
    case Way::BFloat16: return runtime::Precision::BFloat16;
    case Way::Float16: return runtime::Precision::Float16;
    case Way::Float64: return runtime::Precision::Float64;
    default: return runtime::Precision::AsExported;
  }
}

// The request a setting stands for: A is the program as exported on the CPU;
// B the same program in another precision or on another device (paired node
// for node), or lowered (paired through provenance).
numerics::NumericsRequest request_for(const LoadedProgram& loaded, const NumericsSettings& s) {
  numerics::NumericsRequest r;
  r.a = {loaded.program, "cpu", runtime::Precision::AsExported, "as exported on cpu"};
  const std::string device = s.device.toStdString();
  if (s.way == Way::Functional || s.way == Way::Core) {
    const auto level = s.way == Way::Core ? passes::IrLevel::Core : passes::IrLevel::Functional;
    auto lowered = std::make_shared<const ir::ExportedProgram>(passes::lower_to(*loaded.program, level));
    r.pairing = numerics::by_provenance(*loaded.program, *lowered);
    r.b = {lowered, device, runtime::Precision::AsExported, NumericsSettings::wayTitle(s.way).toStdString() + " on " + device};
  } else {
    r.pairing = numerics::same_graph(*loaded.program);
    r.b = {loaded.program, device, precision_of(s.way), NumericsSettings::wayTitle(s.way).toStdString() + " on " + device};
  }
  if (!s.inputsFile.isEmpty()) r.inputs_file = QFile::encodeName(s.inputsFile).toStdString();
  r.seed = s.seed;
  return r;
}

}  // namespace

NumericsWorker::NumericsWorker(QObject* parent) : QObject(parent) {
  runs_.onProgress([this](int percent, const QString& stage) { emit progress(percent, stage); });
}

NumericsWorker::~NumericsWorker() = default;  // the jobs stop before their next node and are waited for

void NumericsWorker::start(const LoadedProgramPtr& program, const NumericsSettings& settings) {
  NumericsOutcome refused;
  refused.settings = settings;
  std::string why;
  if (isBusy()) {
    refused.error = tr("a numerics run is already in progress");
  } else if (!program) {
    refused.error = tr("no program is open");
  } else if (settings.way == Way::Device && settings.device == QLatin1String("cpu")) {
    refused.error = tr("B is the program as exported on the CPU, as A is: choose another dtype, IR level or device");
  } else if (!runtime::device_available(settings.device.toStdString(), &why)) {
    refused.error = tr("%1 is not available here: %2").arg(settings.device, QString::fromStdString(why));
  }
  if (!refused.error.isEmpty()) {
    emit finished(refused);
    return;
  }
  runs_.start(
      [program, settings](JobContext& context, NumericsOutcome& out) {
        out.settings = settings;
        context.progress(0, tr("Preparing B (%1)…").arg(NumericsSettings::wayTitle(settings.way)));
        numerics::NumericsRequest r = request_for(*program, settings);
        r.cancel = context.token().get();
        r.progress = [&context](int done, int total) {
          context.progress(total > 0 ? 100.0 * done / total : 100.0, tr("Comparing node %1 of %2…").arg(done).arg(total));
        };
        out.result = std::make_shared<const numerics::NumericsResult>(numerics::run_numerics(r));
      },
      [this](JobOutcome<NumericsOutcome>& outcome) {
        if (outcome.cancelled) {
          emit cancelled();
          return;
        }
        if (!outcome.ok()) outcome.value.error = outcome.error;
        emit finished(outcome.value);
      });
}

void NumericsWorker::cancel() {
  // The run stops before its next node; the outcome is dropped.
  if (runs_.dropAll()) emit cancelled();
}

void NumericsWorker::requestValues(const LoadedProgramPtr& program, const NumericsSettings& settings, const QString& node) {
  if (!program) return;
  values_.dropAll();  // only the node picked last is shown
  values_.start(
      [program, settings, node](JobContext& context, TensorValues& out) {
        out.node = node;
        const std::string name = node.toStdString();
        const ir::Node* n = program->program->graph().find(name);
        context.checkCancelled();
        // A weight, buffer or constant: its stored values, no run.
        const ir::InputSpec* spec =
            n && n->op == ir::OpKind::Placeholder ? program->program->signature.input_named(name) : nullptr;
        if (spec && spec->target) {
          auto snapshot = numerics::weight_snapshot(*program->program, *spec->target);
          if (!snapshot) throw std::runtime_error(*spec->target + ": its values are not stored in the file");
          auto pair = std::make_shared<numerics::SnapshotPair>();
          pair->a = std::move(*snapshot);
          out.pair = std::move(pair);
          out.single = true;
          out.title = tr("%1 (%2, stored)").arg(node, QString::fromStdString(*spec->target));
          return;
        }
        numerics::NumericsRequest r = request_for(*program, settings);
        r.introduced = false;
        r.keep = {name};
        r.cancel = context.token().get();
        numerics::NumericsResult result = numerics::run_numerics(r);
        const auto it = result.kept.find(name);
        if (it == result.kept.end())
          throw std::runtime_error(name + " has no tensor value to show (not a tensor, or no counterpart in B)");
        out.single = it->second.only_a;
        out.pair = std::make_shared<const numerics::SnapshotPair>(std::move(it->second));
        out.title = out.single ? tr("%1 (a graph input, as both runs get it)").arg(node)
                               : tr("%1: %2 against %3").arg(node, QString::fromStdString(result.report.a_label),
                                                            QString::fromStdString(result.report.b_label));
      },
      [this](JobOutcome<TensorValues>& outcome) {
        if (outcome.cancelled) return;
        if (!outcome.ok()) outcome.value.error = outcome.error;
        emit valuesReady(outcome.value);
      });
}

}  // namespace exportlens::ui
