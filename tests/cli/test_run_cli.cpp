// `exportlens run`'s reporting on the CPU against torch: the profile's nodes
// are the program's (torch's op sequence), timed, with the memory the
// graph's values hold after each node as torch.fx.Interpreter holds them;
// the Chrome trace; --compare cpu (exact on the same device), --dtype bf16
// (the error and what was cast, as torch's own module.to(bfloat16) gives),
// --compare-nodes (the first node beyond tolerance, as torch finds it);
// warm-up and repeats; CUDA-only requests answered in one line; usage errors.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "support/exportlens_process.h"
#include "support/fixtures.h"

using namespace exportlens::testing;

namespace {

// torch's answers for every task at once (one torch import): run_oracle.py batch.
QJsonObject python_batch(const QStringList& tasks) {
  QProcess p;
  p.start(EXPORTLENS_PYTHON, QStringList{QString(EXPORTLENS_SOURCE_DIR) + "/tests/cli/run_oracle.py", "batch"} + tasks);
  if (!p.waitForFinished(600000)) qFatal("run_oracle.py did not finish");
  const QByteArray out = p.readAllStandardOutput();
  if (p.exitCode() != 0) qFatal("run_oracle.py failed: %s", p.readAllStandardError().constData());
  return QJsonDocument::fromJson(out).object();
}

QString memory_task(const QString& name) {
  return "memory|" + fixture_file(name, "program.pt2") + "|" + fixture_file(name, "inputs.pt");
}
QString precision_task(const QString& name, const QString& dtype) {
  return "precision|" + fixture_file(name, "program.pt2") + "|" + fixture_file(name, "inputs.pt") + "|" + dtype;
}

const char* const kReduced[] = {"book_mlp", "small_cnn", "transformer_block"};

QJsonObject read_object(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  return QJsonDocument::fromJson(f.readAll()).object();
}

// Programs with linear algebra, convolutions, attention, control flow, map,
// buffer mutation and data-dependent sizes.
const char* const kPrograms[] = {"book_mlp", "dynamic_model_auto", "small_cnn", "small_cnn_train", "transformer_block",
                                 "decomp_example", "bad1_fixed", "map_module", "unbacked_item_tolist"};

}  // namespace

class TestRunCli : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  QJsonObject torch_;  // run_oracle.py's answers

  ProcessResult run_on(const QString& name, const QStringList& extra) {
    return run_exportlens(QStringList{"run", fixture_file(name, "program.pt2"), "--inputs", fixture_file(name, "inputs.pt")} + extra);
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    QStringList tasks;
    for (const char* n : kPrograms) {
      if (!QFile::exists(fixture_file(n, "program.pt2"))) QFAIL(qPrintable(QString("fixture missing: ") + n));
      tasks << memory_task(n);
    }
    for (const char* n : kReduced) tasks << precision_task(n, "bf16") << precision_task(n, "fp16");
    torch_ = python_batch(tasks);
    QCOMPARE(torch_.size(), tasks.size());
  }

  void profile_has_torchs_nodes_and_memory_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : kPrograms) QTest::newRow(n) << QString(n);
  }
  void profile_has_torchs_nodes_and_memory() {
    QFETCH(QString, name);
    const QString profile = tmp_.filePath(name + "_profile.json"), trace = tmp_.filePath(name + "_trace.json");
    const auto r = run_on(name, {"--profile", profile, "--trace", trace, "--warmup", "1", "--repeat", "3"});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("median of 3 runs after 1 warm-up"), qPrintable(r.out));
    const QJsonObject p = read_object(profile);
    QCOMPARE(p["device"].toString(), QStringLiteral("cpu"));
    QCOMPARE(p["time_source"].toString(), QStringLiteral("host clock"));
    QCOMPARE(p["run_ms"].toArray().size(), 3);
    // One node per top-level call_function node, in graph order: torch's op sequence.
    const QJsonArray torch_ops = fixture_meta(name)["ops"].toArray();
    const QJsonArray nodes = p["nodes"].toArray();
    QCOMPARE(nodes.size(), torch_ops.size());
    double sum = 0;
    for (int i = 0; i < nodes.size(); ++i) {
      const QJsonObject n = nodes[i].toObject();
      const QString torch_op = torch_ops[i].toString();
      if (torch_op.startsWith("aten.")) QCOMPARE(n["op"].toString(), torch_op);
      QVERIFY(n["ms"].toDouble() >= 0);
      QVERIFY(n["kernels"].toArray().isEmpty());  // kernels are CUDA's
      QVERIFY(n["memory"].isObject());
      sum += n["ms"].toDouble();
    }
    QVERIFY2(sum <= p["total_ms"].toDouble() * (1 + 1e-9), qPrintable(QString("nodes %1 > run %2").arg(sum).arg(p["total_ms"].toDouble())));
    // The memory after each node: what torch.fx.Interpreter's environment holds there.
    const QJsonArray torch_memory = torch_[memory_task(name)].toArray();
    QCOMPARE(torch_memory.size(), nodes.size());
    qint64 peak = 0;
    for (int i = 0; i < nodes.size(); ++i) {
      const QJsonObject n = nodes[i].toObject();
      QCOMPARE(n["name"].toString(), torch_memory[i].toArray()[0].toString());
      QCOMPARE(n["memory"].toObject()["live_bytes"].toInteger(), torch_memory[i].toArray()[1].toInteger());
      peak = std::max(peak, n["memory"].toObject()["live_bytes"].toInteger());
    }
    QCOMPARE(p["peak_bytes"].toInteger(), peak);
    // The Chrome trace: one complete event per node, in order, on one track.
    const QJsonArray events = read_object(trace)["traceEvents"].toArray();
    QStringList traced;
    double last_ts = -1;
    for (const auto& v : events) {
      const QJsonObject e = v.toObject();
      if (e["ph"].toString() != "X") continue;
      for (const char* key : {"name", "ts", "dur", "pid", "tid"}) QVERIFY2(e.contains(key), key);
      QVERIFY(e["ts"].toDouble() >= last_ts && e["dur"].toDouble() >= 0);
      last_ts = e["ts"].toDouble();
      traced << e["name"].toString();
    }
    QStringList profiled;
    for (const auto& n : nodes) profiled << n.toObject()["name"].toString();
    QCOMPARE(traced, profiled);
  }

  // The same program on the same device: the CPU reference gives the same bits.
  void compare_cpu_on_the_cpu_is_exact() {
    const QString profile = tmp_.filePath("cmp.json");
    const auto r = run_on("small_cnn", {"--compare", "cpu", "--profile", profile});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("all outputs close"), qPrintable(r.out));
    const QJsonObject c = read_object(profile)["comparison"].toObject();
    QVERIFY(c["all_close"].toBool());
    for (const auto& o : c["outputs"].toArray()) {
      QCOMPARE(o.toObject()["max_abs"].toDouble(), 0.0);
      QCOMPARE(o.toObject()["rtol"].toDouble(), 1.3e-6);  // torch.testing's float32 tolerances
      QCOMPARE(o.toObject()["atol"].toDouble(), 1e-5);
    }
  }

  void reduced_precision_is_torchs_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("dtype");
    for (const char* n : kReduced) {
      QTest::newRow(qPrintable(QString(n) + " bf16")) << QString(n) << QString("bf16");
      QTest::newRow(qPrintable(QString(n) + " fp16")) << QString(n) << QString("fp16");
    }
  }
  // bf16 / fp16 against fp32: the error torch's own module.to(dtype) makes,
  // what was cast, and the first node torch finds beyond tolerance.
  void reduced_precision_is_torchs() {
    QFETCH(QString, name);
    QFETCH(QString, dtype);
    const QString profile = tmp_.filePath(name + dtype + ".json");
    const auto r = run_on(name, {"--dtype", dtype, "--compare-nodes", "--profile", profile});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject want = torch_[precision_task(name, dtype)].toObject();
    const QJsonObject p = read_object(profile);
    const QJsonObject c = p["comparison"].toObject();
    const QJsonArray outputs = c["outputs"].toArray();
    const QJsonArray torch_abs = want["max_abs"].toArray();
    QCOMPARE(outputs.size(), torch_abs.size());
    for (int i = 0; i < outputs.size(); ++i) {
      const double ours = outputs[i].toObject()["max_abs"].toDouble(), torch = torch_abs[i].toDouble();
      QVERIFY2(std::abs(ours - torch) <= 1e-12 + 1e-9 * torch, qPrintable(QString("output %1: %2 vs torch %3").arg(i).arg(ours).arg(torch)));
      QVERIFY(ours > 0);  // reduced precision does change the result
    }
    const QJsonObject cast = want["cast"].toObject();
    const QString expected = QString("cast to %1: ").arg(dtype == "bf16" ? "bfloat16" : "float16");
    QVERIFY2(p["cast"].toString().startsWith(expected), qPrintable(p["cast"].toString()));
    QVERIFY2(p["cast"].toString().contains(QString("%1 parameter").arg(cast["parameters"].toInt())), qPrintable(p["cast"].toString()));
    QVERIFY2(r.out.contains(p["cast"].toString()), qPrintable(r.out));
    const QJsonValue first = want["first_divergent"];
    QCOMPARE(c["first_divergent_node"].toString(), first.isNull() ? QString() : first.toString());
    QCOMPARE(c["nodes"].toArray().size(), fixture_meta(name)["ops"].toArray().size());
  }

  void devices_say_what_runs_here() {
    const auto r = run_exportlens({"devices"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.startsWith("cpu\n"));
    if (r.out.contains("cuda:0")) return;  // a GPU machine lists its devices
    QVERIFY2(r.out.contains("no GPU: "), qPrintable(r.out));
  }

  void cuda_requests_without_a_gpu_are_one_line() {
    if (run_exportlens({"devices"}).out.contains("cuda:0")) QSKIP("this machine has a GPU (the device check covers it)");
    const auto r = run_on("book_mlp", {"--device", "cuda", "--compare", "cpu"});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY2(r.err.startsWith("exportlens run: error: cannot run on cuda: "), qPrintable(r.err));
    // The fix: the CUDA flavour's build command, or a machine with a GPU.
    QVERIFY2(r.err.contains("EXPORTLENS_TORCH=cuda packaging/build.sh") || r.err.contains("nvidia-smi"), qPrintable(r.err));
    const auto g = run_on("book_mlp", {"--cuda-graph"});
    QCOMPARE(g.code, 0);
    QVERIFY2(g.out.contains("CUDA graph: not captured: CUDA graphs need a CUDA device"), qPrintable(g.out));
  }

  void usage_errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("dtype") << QStringList{"--dtype", "fp8"} << "--dtype expects fp32, bf16 or fp16";
    QTest::newRow("repeat 0") << QStringList{"--repeat", "0"} << "--repeat expects an integer from 1";
    QTest::newRow("warmup text") << QStringList{"--warmup", "x"} << "--warmup expects an integer from 0";
    QTest::newRow("compare gpu") << QStringList{"--compare", "gpu"} << "--compare takes cpu";
  }
  void usage_errors() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const auto r = run_on("book_mlp", args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
  }

  void unwritable_profile_names_the_file() {
    const QString bad = tmp_.filePath("no/such/dir/p.json");
    const auto r = run_on("book_mlp", {"--profile", bad});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(bad + ": cannot write the profile"), qPrintable(r.err));
  }
};

QTEST_MAIN(TestRunCli)
#include "test_run_cli.moc"
