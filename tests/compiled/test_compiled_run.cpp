// Running an AOTInductor compiled model (runtime::run_compiled, through
// LibTorch's package loader) and comparing it with the program as ExportLens
// interprets it (numerics::compare_compiled), against real torch 2.13:
// outputs equal to torch's own aoti_load_package(...)(x) (outputs_*.pt),
// the interpreted program close, per-kernel times for the ATen fallbacks;
// without consent nothing is loaded (the wrapper library is not mapped into
// this process); a broken package or a wrong model is refused in one line;
// `exportlens run PKG.pt2 --compiled NAME` (exit codes, report, --json, --out).
#include "support/torch_values.h"  // LibTorch before Qt

#include <QFile>
#include <QProcess>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <memory>
#include <sstream>

#include "engine/base/error.h"
#include "engine/compiled/archive_contents.h"
#include "engine/numerics/compiled_comparison.h"
#include "engine/runtime/compiled_run_values.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/zip_archive.h"
#include "support/exportlens_process.h"
#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

QString aoti(const QString& file) { return QString(EXPORTLENS_AOTI_FIXTURES) + "/" + file; }

std::shared_ptr<const ir::ExportedProgram> program_of(const QString& path, const std::string& name = "") {
  return std::make_shared<const ir::ExportedProgram>(
      serde::read_pt2(path.toStdString(), name, runtime::pt2_read_options()));
}

runtime::CompiledRunRequest request_for(const QString& package, bool consent = true) {
  runtime::CompiledRunRequest r;
  r.package = package.toStdString();
  r.model = "model";
  r.consent = consent;
  r.inputs_file = aoti("inputs.pt").toStdString();
  return r;
}

// The file names of the shared libraries a package holds.
QStringList libraries_in(const QString& package) {
  QStringList names;
  const serde::ZipArchive zip(package.toStdString());
  for (const auto& e : zip.entries())
    if (QString::fromStdString(e.name).endsWith(".so")) names << QFileInfo(QString::fromStdString(e.name)).fileName();
  return names;
}

// Lines of /proc/self/maps naming any of `names`.
QStringList mapped(const QStringList& names) {
  std::ifstream maps("/proc/self/maps");
  QStringList hits;
  for (std::string line; std::getline(maps, line);)
    for (const QString& n : names)
      if (QString::fromStdString(line).contains("/" + n)) hits << QString::fromStdString(line);
  return hits;
}

// The compiled outputs against torch's own run of the same package (same code, same inputs).
QString against_torch(const std::vector<at::Tensor>& ours, const QString& torch_outputs) {
  const std::vector<c10::IValue> want = load_tuple(torch_outputs);
  if (want.size() != ours.size()) return QString("%1 outputs, torch %2").arg(ours.size()).arg(want.size());
  for (size_t i = 0; i < ours.size(); ++i)
    if (const QString why = compare_values(ours[i], want[i]); !why.isEmpty()) return QString("output %1: %2").arg(i).arg(why);
  return {};
}

// An ATen fallback timed: recorded as its op (aten::convolution, aten::_convolution) or, in a
// package compiled with cpp.enable_kernel_profile, under its own name (aoti_torch_cpu_convolution).
bool has_aten_fallback(const runtime::CompiledRunReport& r) {
  for (const auto& k : r.kernels)
    if ((k.event.rfind("aten::", 0) == 0 || k.kernel.rfind("aoti_torch_", 0) == 0) && k.total_ms > 0 && k.calls > 0)
      return true;
  return false;
}

}  // namespace

class TestCompiledRun : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    for (const char* f : {"plain.pt2", "both.pt2", "program.pt2", "inputs.pt", "outputs_plain.pt", "outputs_both.pt"})
      QVERIFY2(QFile::exists(aoti(f)), f);
  }

  // First, before any consented run: a refused request loads nothing, so the
  // package's wrapper library is not mapped into this process.
  void withoutConsentNothingIsLoaded() {
    const QStringList libraries = libraries_in(aoti("plain.pt2"));
    QVERIFY(!libraries.isEmpty());
    QVERIFY(mapped(libraries).isEmpty());
    for (bool compare : {false, true}) {
      try {
        if (compare) {
          numerics::CompiledComparisonRequest r;
          r.run = request_for(aoti("plain.pt2"), /*consent=*/false);
          r.run.program = program_of(aoti("program.pt2"));
          numerics::compare_compiled(r);
        } else {
          runtime::run_compiled(request_for(aoti("plain.pt2"), /*consent=*/false));
        }
        QFAIL("ran without consent");
      } catch (const Error& e) {
        QCOMPARE(e.kind(), ErrorKind::Usage);
        QVERIFY2(QString(e.what()).contains("consent"), e.what());
      }
    }
    QVERIFY2(mapped(libraries).isEmpty(), qPrintable(mapped(libraries).join('\n')));
  }

  // plain.pt2 (compiled code only) with the program it was compiled from given beside it.
  void plainEqualsTorchsRunAndTheInterpretedProgram() {
    // While the consented run runs, its library is mapped: the check above could see it.
    auto consented = request_for(aoti("plain.pt2"));
    QStringList seen_while_running;
    consented.progress = [&](int done, int) {
      if (done > 0 && seen_while_running.isEmpty()) seen_while_running = mapped(libraries_in(aoti("plain.pt2")));
    };
    const runtime::CompiledRunValues run = runtime::run_compiled_values(consented);
    QVERIFY(!seen_while_running.isEmpty());
    const QString why = against_torch(run.outputs, aoti("outputs_plain.pt"));
    QVERIFY2(why.isEmpty(), qPrintable(why));
    QCOMPARE(run.report.outputs.size(), size_t(1));
    QCOMPARE(run.report.outputs[0].shape, (std::vector<int64_t>{2, 4}));
    QVERIFY(run.report.median_ms > 0);
    QVERIFY(has_aten_fallback(run.report));

    numerics::CompiledComparisonRequest r;
    r.run = request_for(aoti("plain.pt2"));
    r.run.program = program_of(aoti("program.pt2"));
    r.run.warmup = 1;
    r.run.repeat = 3;
    const numerics::CompiledComparison c = numerics::compare_compiled(r);
    QVERIFY(c.compared);
    QVERIFY(c.all_close);
    QCOMPARE(c.outputs.size(), size_t(1));
    QVERIFY(c.outputs[0].stats);
    QVERIFY(!c.outputs[0].stats->beyond_tolerance);
    QVERIFY(c.outputs[0].stats->cosine > 0.9999);
    QVERIFY(c.outputs[0].stats->max_abs < 1e-4);
    QCOMPARE(c.compiled.run_ms.size(), size_t(3));
    QVERIFY(c.interpreted_ms > 0);
    QVERIFY(has_aten_fallback(c.compiled));
    QVERIFY(!c.compiled.kernels_note.empty());
  }

  // both.pt2: the program and its compiled model in one archive (dynamic batch).
  void bothEqualsTorchsRunAndItsOwnProgram() {
    const runtime::CompiledRunValues run = runtime::run_compiled_values(request_for(aoti("both.pt2")));
    const QString why = against_torch(run.outputs, aoti("outputs_both.pt"));
    QVERIFY2(why.isEmpty(), qPrintable(why));

    numerics::CompiledComparisonRequest r;
    r.run = request_for(aoti("both.pt2"));
    r.run.program = program_of(aoti("both.pt2"), "model");
    const compiled::ArchiveContents contents = compiled::read_archive_contents(aoti("both.pt2").toStdString());
    QVERIFY(contents.compiled_model("model"));
    r.model = std::make_shared<const compiled::CompiledModel>(*contents.compiled_model("model"));
    const numerics::CompiledComparison c = numerics::compare_compiled(r);
    QVERIFY(c.compared);
    QVERIFY(c.all_close);
    QVERIFY(has_aten_fallback(c.compiled));
    // Timed kernels carry the program nodes torch's provenance gives them (kernel_information.json).
    const QJsonObject provenance = read_json(aoti("manifest.json"))["both.pt2"].toObject()["kernels"].toObject();
    int mapped_kernels = 0;
    for (const runtime::CompiledKernelTime& k : c.compiled.kernels) {
      if (k.kernel_index < 0) continue;
      QVERIFY(k.kernel == r.model->kernels[k.kernel_index].name);
      QStringList want;
      for (auto it = provenance.begin(); it != provenance.end(); ++it)
        if (it.key().startsWith(QString::fromStdString(k.kernel) + ":"))
          for (const auto& n : it.value().toArray()) want << n.toString();
      QStringList got;
      for (const auto& n : k.nodes) got << QString::fromStdString(n);
      want.sort();
      got.sort();
      QVERIFY(!want.isEmpty());
      QCOMPARE(got, want);
      ++mapped_kernels;
    }
    QVERIFY(mapped_kernels >= 1);
    QVERIFY(!c.kernel_map.empty());

    // Random inputs from the program's signature (another batch size is not needed: its example's).
    r.run.inputs_file.reset();
    r.run.random_inputs = true;
    r.run.seed = 7;
    const numerics::CompiledComparison random = numerics::compare_compiled(r);
    QVERIFY(random.all_close);
    QCOMPARE(random.compiled.inputs.size(), size_t(1));
    QCOMPARE(random.compiled.inputs[0].shape, (std::vector<int64_t>{2, 3, 8, 8}));
  }

  // The compiled model alone: no program, no comparison, and no random inputs.
  void withoutAProgramRunsAlone() {
    numerics::CompiledComparisonRequest r;
    r.run = request_for(aoti("plain.pt2"));
    const numerics::CompiledComparison c = numerics::compare_compiled(r);
    QVERIFY(!c.compared);
    QVERIFY(!c.not_compared.empty());
    QCOMPARE(c.compiled.outputs.size(), size_t(1));
    r.run.inputs_file.reset();
    r.run.random_inputs = true;
    try {
      numerics::compare_compiled(r);
      QFAIL("random inputs without a program");
    } catch (const Error& e) {
      QCOMPARE(e.kind(), ErrorKind::Usage);
    }
  }

  // Wrong model names, a package whose library is not one, a file that is no
  // package: each refused in one line naming the file.
  void brokenPackagesAreOneLine() {
    // A copy of plain.pt2 whose shared library is garbage (a package that lies about its code).
    const QString broken = tmp_.filePath("broken.pt2");
    const ProcessResult made = run_python(
        "import sys, zipfile\n"
        "src, dst = sys.argv[1], sys.argv[2]\n"
        "with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, 'w') as b:\n"
        "    for i in a.infolist():\n"
        "        b.writestr(i, b'not a shared library' if i.filename.endswith('.so') else a.read(i))\n",
        {aoti("plain.pt2"), broken});
    QVERIFY2(made.code == 0, qPrintable(made.err));
    QFile junk(tmp_.filePath("junk.pt2"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("this is not a zip archive");
    junk.close();
    struct Case {
      QString package;
      std::string model;
    };
    for (const Case& c : {Case{broken, "model"}, Case{aoti("plain.pt2"), "no_such_model"}, Case{junk.fileName(), "model"}}) {
      auto r = request_for(c.package);
      r.model = c.model;
      try {
        runtime::run_compiled(r);
        QFAIL(qPrintable("ran " + c.package));
      } catch (const Error& e) {
        QCOMPARE(e.kind(), ErrorKind::Run);
        QCOMPARE(QString::fromStdString(e.place().file), c.package);
        QVERIFY2(!QString(e.what()).contains('\n'), e.what());
        QVERIFY2(!QString(e.what()).contains("Exception raised from"), e.what());
      }
    }
  }

  // Cancel stops the run at its next step; progress counts the runs (warmup, timed, profiled).
  void cancelAndProgress() {
    auto r = request_for(aoti("plain.pt2"));
    r.warmup = 2;
    r.repeat = 3;
    std::vector<std::pair<int, int>> steps;
    r.progress = [&](int done, int total) { steps.emplace_back(done, total); };
    runtime::run_compiled(r);
    QVERIFY(!steps.empty());
    QCOMPARE(steps.back(), (std::pair<int, int>{6, 6}));  // 2 warmup + 3 timed + the profiled step
    CancelToken cancel;
    r.cancel = &cancel;
    r.progress = [&](int done, int) {
      if (done == 1) cancel.cancel();
    };
    try {
      runtime::run_compiled(r);
      QFAIL("not cancelled");
    } catch (const Cancelled&) {
    }
  }

  void profilerNamesOfKernels() {
    QCOMPARE(runtime::profiler_name_of_kernel("aoti_torch_cpu_addmm_out"), std::string("aten::addmm"));
    QCOMPARE(runtime::profiler_name_of_kernel("aoti_torch_cuda_convolution"), std::string("aten::convolution"));
    QCOMPARE(runtime::profiler_name_of_kernel("cpp_fused_relu_0"), std::string("cpp_fused_relu_0"));
    QCOMPARE(runtime::profiler_name_of_kernel("triton_poi_fused_0"), std::string("triton_poi_fused_0"));
  }

  // The CLI: naming --compiled is the consent; the report; exit codes.
  void cli() {
    const QString json = tmp_.filePath("report.json"), out = tmp_.filePath("outputs.pt");
    ProcessResult r = run_exportlens({"run", aoti("plain.pt2"), "--compiled", "model", "--program-file",
                                      aoti("program.pt2"), "--inputs", aoti("inputs.pt"), "--json", json, "--out", out});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("all outputs close"), qPrintable(r.out));
    QVERIFY2(r.out.contains("kernels (slowest first)") && r.out.contains("aten::"), qPrintable(r.out));
    QVERIFY2(r.out.contains("SNR"), qPrintable(r.out));
    const QJsonObject report = read_json(json);
    QVERIFY(report["compared"].toBool());
    QVERIFY(report["all_close"].toBool());
    QCOMPARE(report["outputs"].toArray().size(), 1);
    QVERIFY(report["outputs"].toArray()[0].toObject()["close"].toBool());
    QVERIFY(!report["kernels"].toArray().isEmpty());
    // --out: the compiled model's outputs, as torch's own run gives them.
    std::vector<at::Tensor> written;
    for (const auto& v : load_tuple(out)) written.push_back(v.toTensor());
    const QString why = against_torch(written, aoti("outputs_plain.pt"));
    QVERIFY2(why.isEmpty(), qPrintable(why));

    // both.pt2 holds its program: compared without --program-file.
    r = run_exportlens({"run", aoti("both.pt2"), "--compiled", "model", "--random", "--seed", "3"});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("all outputs close"), qPrintable(r.out));

    // plain.pt2 alone: run, not compared, and the report says what would compare it.
    r = run_exportlens({"run", aoti("plain.pt2"), "--compiled", "model", "--inputs", aoti("inputs.pt")});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains("not compared") && r.out.contains("--program-file"), qPrintable(r.out));

    // Usage errors: exit 2, one line.
    for (const QStringList& args : {QStringList{"run", aoti("plain.pt2"), "--compiled", "model", "--random"},
                                    QStringList{"run", aoti("plain.pt2"), "--compiled", "nope", "--inputs", aoti("inputs.pt")},
                                    QStringList{"run", aoti("plain.pt2"), "--compiled", "model", "--inputs",
                                                aoti("inputs.pt"), "--dtype", "bf16"},
                                    QStringList{"run", aoti("plain.pt2"), "--compiled", "model", "--random", "--inputs",
                                                aoti("inputs.pt"), "--program-file", aoti("program.pt2")}}) {
      r = run_exportlens(args);
      QVERIFY2(r.code == 2, qPrintable(args.join(' ') + " -> " + QString::number(r.code) + ": " + r.err));
      QVERIFY2(r.err.startsWith("exportlens run: error: "), qPrintable(r.err));
    }
    // The help says plainly what --compiled does.
    r = run_exportlens({"run", "--help"});
    QVERIFY(r.out.contains("LOADS AND RUNS THE PACKAGE'S COMPILED CODE"));
  }

  // Through the CLI, only --compiled loads the package's library: a library
  // whose constructor leaves a file behind, planted as the wrapper, leaves it
  // only when the user names the model (and then the loader refuses the
  // library in one line: it is not a compiled model).
  void cliLoadsTheLibraryOnlyWithCompiled() {
    const QString marker = tmp_.filePath("loaded.txt"), source = tmp_.filePath("planted.c"),
                  library = tmp_.filePath("planted.so"), planted = tmp_.filePath("planted.pt2");
    QFile c(source);
    QVERIFY(c.open(QIODevice::WriteOnly));
    c.write(QString("#include <stdio.h>\n__attribute__((constructor)) static void loaded(void) {\n"
                    "  FILE* f = fopen(\"%1\", \"w\"); if (f) { fputs(\"loaded\", f); fclose(f); }\n}\n")
                .arg(marker)
                .toUtf8());
    c.close();
    QProcess cc;
    cc.start("cc", {"-shared", "-fPIC", "-o", library, source});
    QVERIFY(cc.waitForFinished(60000) && cc.exitCode() == 0);
    const ProcessResult made = run_python(
        "import sys, zipfile\n"
        "src, lib, dst = sys.argv[1], sys.argv[2], sys.argv[3]\n"
        "with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, 'w') as b:\n"
        "    for i in a.infolist():\n"
        "        b.writestr(i, open(lib, 'rb').read() if i.filename.endswith('.so') else a.read(i))\n",
        {aoti("plain.pt2"), library, planted});
    QVERIFY2(made.code == 0, qPrintable(made.err));
    for (const QStringList& args : {QStringList{"info", planted}, QStringList{"run", planted, "--inputs", aoti("inputs.pt")},
                                    QStringList{"run", planted, "--program-file", aoti("program.pt2"), "--inputs",
                                                aoti("inputs.pt")},
                                    QStringList{"run", planted, "--compiled", "model", "--random"}}) {
      run_exportlens(args);
      QVERIFY2(!QFile::exists(marker), qPrintable("loaded by: exportlens " + args.join(' ')));
    }
    const ProcessResult r = run_exportlens({"run", planted, "--compiled", "model", "--inputs", aoti("inputs.pt")});
    QVERIFY2(QFile::exists(marker), qPrintable(r.out + r.err));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.startsWith("exportlens run: error: ") && r.err.count('\n') == 1, qPrintable(r.err));
  }

  // A program with other weights than the compiled model's: outputs beyond tolerance, exit 1.
  void cliExitsOneBeyondTolerance() {
    const QString other = tmp_.filePath("other_weights.pt2");
    const ProcessResult made = run_python(
        "import sys, torch\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from aoti_packages import SmallNet\n"
        "torch.manual_seed(1)\n"
        "torch.export.save(torch.export.export(SmallNet().eval(), (torch.randn(2, 3, 8, 8),)), sys.argv[2])\n",
        {QString(EXPORTLENS_SOURCE_DIR) + "/tests/oracle", other});
    QVERIFY2(made.code == 0, qPrintable(made.err));
    const ProcessResult r = run_exportlens({"run", aoti("plain.pt2"), "--compiled", "model", "--program-file", other,
                                            "--inputs", aoti("inputs.pt")});
    QVERIFY2(r.code == 1, qPrintable(QString::number(r.code) + r.out + r.err));
    QVERIFY2(r.out.contains("NOT all outputs close") && r.out.contains("beyond tolerance"), qPrintable(r.out));
  }
};

QTEST_GUILESS_MAIN(TestCompiledRun)
#include "test_compiled_run.moc"
