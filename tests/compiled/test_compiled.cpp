// What a .pt2 holds beyond one program, against torch 2.13's own archives
// (oracle/aoti_packages.py): package_pt2 with two programs, an AOTInductor
// package without provenance (and the program it was compiled from), and one
// with provenance beside its program. Programs are checked against torch's
// print of each, compiled models against torch's own loader (metadata,
// constants) and kernel_information.json, kernel lines against the sources.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

#include "engine/base/error.h"
#include "engine/compiled/archive_contents.h"
#include "engine/compiled/kernel_map.h"
#include "engine/ir/printer.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/sources/program_source.h"
#include "support/exportlens_process.h"
#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

QString aoti(const QString& name) { return QStringLiteral(EXPORTLENS_AOTI_FIXTURES) + "/" + name; }
std::string aoti_path(const QString& name) { return aoti(name).toStdString(); }
QJsonObject manifest(const QString& package) { return read_json(aoti("manifest.json"))[package].toObject(); }

std::vector<std::string> strings(const QJsonArray& a) {
  std::vector<std::string> out;
  for (const auto& v : a) out.push_back(v.toString().toStdString());
  return out;
}

ir::ExportedProgram open(const QString& package, const std::string& program = "") {
  sources::OpenRequest r;
  r.read = runtime::pt2_read_options();
  r.read.load_weights = false;
  r.program = program;
  return sources::open_program(aoti_path(package), r);
}

// torch's view of a package, asked of torch itself: print(ep) per program, or the compiled model's metadata and constants.
QJsonObject torch_view(const QString& package) {
  const auto r = run_python(QStringLiteral(
      "import json, sys, torch\n"
      "from torch.export.pt2_archive._package import load_pt2\n"
      "c = load_pt2(sys.argv[1])\n"
      "out = {'programs': {k: str(v) for k, v in c.exported_programs.items()}, 'compiled': {}}\n"
      "for k, m in c.aoti_runners.items():\n"
      "    l = m.loader\n"
      "    out['compiled'][k] = {'metadata': l.get_metadata(), 'constant_fqns': l.get_constant_fqns()}\n"
      "print(json.dumps(out))\n"), {aoti(package)});
  if (r.code != 0) qFatal("torch could not load %s: %s", qPrintable(package), qPrintable(r.err));
  return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

}  // namespace

class TestCompiled : public QObject {
  Q_OBJECT

 private slots:
  void several_programs_each_as_torch_prints_it() {
    const auto contents = compiled::read_archive_contents(aoti_path("multi.pt2"));
    QCOMPARE(contents.programs, strings(manifest("multi.pt2")["programs"].toArray()));
    QVERIFY(contents.compiled.empty());
    QCOMPARE(contents.kind(), std::string("2 exported programs"));
    const QJsonObject torch = torch_view("multi.pt2")["programs"].toObject();
    QCOMPARE(torch.size(), 2);
    for (const auto& name : contents.programs)
      QCOMPARE(QString::fromStdString(ir::print_program(open("multi.pt2", name))), torch[QString::fromStdString(name)].toString());
    try {
      open("multi.pt2", "nope");
      QFAIL("a program the archive lacks opened");
    } catch (const Error& e) {
      QVERIFY2(std::string(e.what()).find("no program named 'nope' in the archive (it holds: forward, other)") !=
                   std::string::npos, e.what());
    }
  }

  void compiled_model_as_torchs_loader_reads_it() {
    for (const QString package : {"plain.pt2", "both.pt2"}) {
      const auto contents = compiled::read_archive_contents(aoti_path(package));
      QCOMPARE(contents.compiled.size(), size_t(1));
      const compiled::CompiledModel& m = contents.compiled.front();
      const QJsonObject torch = torch_view(package)["compiled"].toObject()[QString::fromStdString(m.name)].toObject();
      // Every metadata key torch's loader reports from the wrapper's metadata, with its value.
      const QJsonObject metadata = torch["metadata"].toObject();
      for (const auto& [key, value] : m.metadata)
        QCOMPARE(metadata[QString::fromStdString(key)].toString(), QString::fromStdString(value));
      QCOMPARE(m.device, std::string("cpu"));
      std::set<std::string> fqns, ours;
      for (const auto& v : torch["constant_fqns"].toArray()) fqns.insert(v.toString().toStdString());
      for (const auto& c : m.constants) ours.insert(c.original_fqn);
      QCOMPARE(ours, fqns);
      QCOMPARE(m.inputs.size(), size_t(1));
      QCOMPARE(m.outputs.size(), size_t(1));
      QVERIFY(m.in_spec.find("builtins.tuple") != std::string::npos);
      QCOMPARE(m.libraries().size(), size_t(1));
      QVERIFY(m.wrapper());
      QVERIFY2(m.notes.empty(), m.notes.empty() ? "" : m.notes.front().c_str());
      // Each kernel's launch line and definition line name it, in the sources themselves.
      QVERIFY(!m.kernels.empty());
      std::map<std::string, std::vector<std::string>> lines;
      auto line = [&](const std::string& entry, int n) {
        auto& text = lines[entry];
        if (text.empty()) {
          const std::string all = compiled::read_source(contents.path, entry);
          for (size_t p = 0; p <= all.size();) {
            const size_t e = std::min(all.find('\n', p), all.size());
            text.push_back(all.substr(p, e - p));
            p = e + 1;
          }
        }
        return text.at(size_t(n - 1));
      };
      for (const auto& k : m.kernels) {
        QVERIFY2(line(k.wrapper_entry, k.wrapper_line).find(k.name + "(") != std::string::npos, k.name.c_str());
        if (k.name.starts_with("cpp_fused")) {
          QVERIFY2(k.definition_line > 0, k.name.c_str());
          QVERIFY2(line(k.defined_in, k.definition_line).find(k.name) != std::string::npos, k.name.c_str());
        }
      }
    }
  }

  void provenance_maps_kernels_onto_the_programs_nodes() {
    const auto contents = compiled::read_archive_contents(aoti_path("both.pt2"));
    const compiled::CompiledModel& m = contents.compiled.front();
    QVERIFY(m.has_provenance);
    QCOMPARE(contents.program_of(m), std::string("model"));
    // Kernels by handle with the nodes torch's kernel_information.json names.
    const QJsonObject kernels = manifest("both.pt2")["kernels"].toObject();
    QCOMPARE(m.kernels.size(), size_t(kernels.size()));
    for (const auto& k : m.kernels) {
      QVERIFY2(kernels.contains(QString::fromStdString(k.handle)), k.handle.c_str());
      QCOMPARE(k.nodes, strings(kernels[QString::fromStdString(k.handle)].toArray()));
      QCOMPARE(k.mapped_by, std::string("provenance"));
    }
    const auto program = open("both.pt2");
    const auto map = compiled::map_kernels(m, program);
    QVERIFY(map.unknown_nodes.empty());
    QCOMPARE(map.mapped_kernels, int(m.kernels.size()));
    // conv2d is computed by two launches (the fused layout copy and the ATen convolution).
    QCOMPARE(map.kernels_of_node.at("conv2d").size(), size_t(2));
    QVERIFY(!map.kernels_of_node.count("x"));
  }

  void without_provenance_source_comments_map_the_fallbacks() {
    const auto contents = compiled::read_archive_contents(aoti_path("plain.pt2"));
    const compiled::CompiledModel& m = contents.compiled.front();
    QVERIFY(!m.has_provenance);
    QVERIFY(contents.programs.empty());
    QCOMPARE(contents.program_of(m), std::string());
    try {
      open("plain.pt2");
      QFAIL("a package without its program opened as one");
    } catch (const Error& e) {
      QVERIFY2(std::string(e.what()).find("with no exported program: compiled model 'model'") != std::string::npos, e.what());
    }
    const auto program = sources::open_program(aoti_path("program.pt2"));
    const auto map = compiled::map_kernels(m, program);
    QVERIFY(map.unknown_nodes.empty());
    for (size_t i = 0; i < m.kernels.size(); ++i) {
      const bool fallback = m.kernels[i].name.starts_with("aoti_torch_cpu_");
      // ATen fallbacks follow a source comment; inductor's fused kernels are not guessed.
      QCOMPARE(!map.nodes_of_kernel[i].empty(), fallback);
      if (fallback) QCOMPARE(m.kernels[i].mapped_by, std::string("source comment"));
    }
    QVERIFY(map.summary(m).find("(source comment)") != std::string::npos);
  }

  void cli_lists_archives_and_kernels() {
    auto r = run_exportlens({"info", aoti("multi.pt2"), "--program", "other"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.startsWith("archive: 2 exported programs"), qPrintable(r.out));
    QVERIFY(r.out.contains("programs: forward other (shown)"));
    r = run_exportlens({"print", aoti("multi.pt2"), "--program", "other"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out, torch_view("multi.pt2")["programs"].toObject()["other"].toString() + "\n");
    r = run_exportlens({"print", aoti("multi.pt2"), "--program", "nope"});
    QCOMPARE(r.code, 2);
    r = run_exportlens({"info", aoti("plain.pt2")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("archive: AOTInductor package with 1 compiled model"), qPrintable(r.out));
    QVERIFY(r.out.contains("(not loaded)"));
    QVERIFY(r.out.contains("--program-file"));
    r = run_exportlens({"info", aoti("plain.pt2"), "--program-file", aoti("program.pt2")});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("compiled model 'model': 2 of 5 kernels mapped"), qPrintable(r.out));
    r = run_exportlens({"print", aoti("plain.pt2")});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.err.count('\n'), 1);
    QTemporaryDir dir;
    r = run_exportlens({"kernels", aoti("both.pt2"), "--json", dir.filePath("k.json")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("5 of 5 kernels mapped onto 8 nodes (provenance)"));
    const QJsonObject model = read_json(dir.filePath("k.json"))["compiled_models"].toArray()[0].toObject();
    const QJsonObject kernels = manifest("both.pt2")["kernels"].toObject();
    for (const auto& v : model["kernels"].toArray()) {
      const QJsonObject k = v.toObject();
      QCOMPARE(k["nodes_in_program"].toArray(), kernels[k["handle"].toString()].toArray());
    }
    r = run_exportlens({"kernels", aoti("both.pt2"), "--source", "wrapper"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("AOTInductorModel::run_impl"));
  }
};

QTEST_GUILESS_MAIN(TestCompiled)
#include "test_compiled.moc"
