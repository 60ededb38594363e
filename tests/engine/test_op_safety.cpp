// The runtime's operator rules (op_safety.h): every op torch.export put in the
// oracle fixtures runs without being allowed, the ops that reach files,
// terminals, process-wide state or raw memory are refused with a reason, and
// --allow-op names match as documented.
#include <ATen/core/dispatch/Dispatcher.h>

#include <QtTest>

#include "engine/runtime/op_safety.h"
#include "engine/runtime/program_runner.h"
#include "engine/serde/pt2_reader.h"
#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

std::optional<c10::OperatorHandle> find(const QString& name, const QString& overload) {
  return c10::Dispatcher::singleton().findSchema({name.toStdString(), overload.toStdString()});
}

}  // namespace

class TestOpSafety : public QObject {
  Q_OBJECT

 private slots:
  void oracle_programs_run_without_allowing_anything() {
    int programs = 0;
    for (const QString& status : {QStringLiteral("ok")}) {
      for (const auto& name : fixtures_with_status(status)) {
        serde::ReadOptions options;
        options.load_weights = false;
        const auto ep = serde::read_pt2(fixture_file(name, "program.pt2").toStdString(), "", options);
        const auto refused = runtime::refused_operators(ep);
        for (const auto& r : refused) QFAIL(qPrintable(name + ": " + QString::fromStdString(r.str())));
        ++programs;
      }
    }
    QVERIFY(programs > 20);
  }

  void risky_ops_are_refused_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("overload");
    QTest::addColumn<QString>("reason");
    QTest::newRow("from_file") << "aten::from_file" << "" << "reads or writes a file";
    QTest::newRow("from_file.out") << "aten::from_file" << "out" << "reads or writes a file";
    QTest::newRow("_print") << "aten::_print" << "" << "writes to the terminal";
    QTest::newRow("set_ storage") << "aten::set_" << "source_Storage" << "swaps a tensor's storage";
    QTest::newRow("set_ tensor") << "aten::set_" << "source_Tensor" << "swaps a tensor's storage";
    QTest::newRow("set storage functional") << "aten::set" << "source_Storage" << "passes a raw storage";
    QTest::newRow("record_stream") << "aten::record_stream" << "" << "memory lifetime";
    QTest::newRow("cufft state") << "aten::_cufft_clear_plan_cache" << "" << "process-wide state";
  }
  void risky_ops_are_refused() {
    QFETCH(QString, name);
    QFETCH(QString, overload);
    QFETCH(QString, reason);
    const auto op = find(name, overload);
    QVERIFY2(op, qPrintable(name + "." + overload + " is not registered in this process"));
    const auto why = runtime::unsafe_reason(op->schema());
    QVERIFY2(why, qPrintable(name + " is allowed"));
    QVERIFY2(QString::fromStdString(*why).contains(reason), why->c_str());
  }

  void compute_ops_are_allowed_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("overload");
    for (const auto& [n, o] : std::vector<std::pair<const char*, const char*>>{
             {"aten::add", "Tensor"}, {"aten::linear", ""}, {"aten::randn", ""}, {"aten::randn", "generator"},
             {"aten::_assert_scalar", ""}, {"aten::sym_constrain_range", ""}, {"aten::copy_", ""},
             {"aten::index_put_", ""}, {"aten::as_strided", ""}, {"aten::einsum", ""}, {"aten::dropout", ""}})
      QTest::newRow((std::string(n) + "." + o).c_str()) << n << o;
  }
  void compute_ops_are_allowed() {
    QFETCH(QString, name);
    QFETCH(QString, overload);
    const auto op = find(name, overload);
    QVERIFY2(op, qPrintable(name + "." + overload + " is not registered in this process"));
    const auto why = runtime::unsafe_reason(op->schema());
    QVERIFY2(!why, why ? why->c_str() : "");
  }

  void allow_op_names() {
    const ir::Target from_file("torch.ops.aten.from_file.default"), out("torch.ops.aten.from_file.out");
    QVERIFY(runtime::user_allows({"aten::from_file"}, from_file));
    QVERIFY(runtime::user_allows({"aten.from_file"}, out));
    QVERIFY(runtime::user_allows({"aten::from_file.out"}, out));
    QVERIFY(!runtime::user_allows({"aten::from_file.out"}, from_file));
    QVERIFY(!runtime::user_allows({"aten::from_fil", "from_file"}, from_file));
  }

  // How much of this process's operator set the rules refuse (for the record).
  void refused_share_of_registered_ops() {
    int refused = 0, total = 0;
    for (const auto& name : c10::Dispatcher::singleton().getAllOpNames()) {
      const auto op = c10::Dispatcher::singleton().findOp(name);
      if (!op || !op->hasSchema()) continue;
      ++total;
      if (runtime::unsafe_reason(op->schema())) ++refused;
    }
    qInfo("%d of %d registered operators refused without --allow-op", refused, total);
    QVERIFY(total > 2000);
    QVERIFY(refused > 10 && refused < total / 10);
  }
};

QTEST_GUILESS_MAIN(TestOpSafety)
#include "test_op_safety.moc"
