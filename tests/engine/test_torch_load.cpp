// serde::torch_load (our unpickler) and runtime::to_ivalue against torch.load:
// every kind of value a torch.save archive holds (tests/engine/torch_load_cases.py
// writes them and what torch.load returns), written by torch.save at the
// default protocol and at 4 and 5, and by LibTorch's own pickler. Each value
// must be torch's: containers, scalars, every tensor's dtype, sizes, strides,
// offset and elements, and which tensors share a storage. Storages are read
// only when converted, once each; the limits refuse honest files set below them.
#include <ATen/ATen.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "engine/runtime/saved_values.h"
#include "engine/runtime/torch_types.h"
#include "engine/serde/torch_save_reader.h"
#include "engine/serde/zip_archive.h"

using namespace exportlens;

namespace {

// Compares `v` with torch's description of the same value; `where` names the
// place in the value, `storages` maps torch's storage numbers to ours.
class SameAsTorch {
 public:
  void check(const c10::IValue& v, const QJsonObject& want, const QString& where) {
    const QString kind = want["kind"].toString();
    const auto fail = [&](const QString& what) { QFAIL(qPrintable(where + ": " + what)); };
    if (kind == "none") {
      if (!v.isNone()) fail("expected None");
    } else if (kind == "bool") {
      if (!v.isBool() || v.toBool() != want["value"].toBool()) fail("expected a bool");
    } else if (kind == "int") {
      if (!v.isInt() || v.toInt() != static_cast<int64_t>(want["value"].toDouble())) fail("expected an int");
    } else if (kind == "float") {
      if (!v.isDouble() || v.toDouble() != want["value"].toDouble()) fail("expected a float");
    } else if (kind == "str") {
      if (!v.isString() || QString::fromStdString(v.toStringRef()) != want["value"].toString()) fail("expected a str");
    } else if (kind == "tuple" || kind == "list") {
      if (kind == "tuple" ? !v.isTuple() : !v.isList()) fail("expected a " + kind);
      const auto items = v.isTuple() ? v.toTupleRef().elements().vec() : v.toListRef().vec();
      const QJsonArray want_items = want["items"].toArray();
      QCOMPARE(items.size(), size_t(want_items.size()));
      for (size_t i = 0; i < items.size(); ++i) check(items[i], want_items[int(i)].toObject(), where + "[" + QString::number(i) + "]");
    } else if (kind == "dict") {
      if (!v.isGenericDict()) fail("expected a dict");
      const auto d = v.toGenericDict();
      const QJsonArray want_items = want["items"].toArray();
      QCOMPARE(d.size(), size_t(want_items.size()));
      int i = 0;
      for (const auto& entry : d) {  // insertion order, as Python's
        const QJsonArray kv = want_items[i++].toArray();
        QCOMPARE(QString::fromStdString(entry.key().toStringRef()), kv[0].toString());
        check(entry.value(), kv[1].toObject(), where + "['" + kv[0].toString() + "']");
      }
    } else {
      QCOMPARE(kind, QString("tensor"));
      tensor(v, want, where);
    }
  }

 private:
  void tensor(const c10::IValue& v, const QJsonObject& want, const QString& where) {
    QVERIFY2(v.isTensor(), qPrintable(where + ": expected a tensor"));
    const at::Tensor t = v.toTensor();
    QCOMPARE(QString::fromStdString(std::string(ir::torch_name(runtime::from_torch(t.scalar_type())))),
             want["dtype"].toString());
    std::vector<int64_t> sizes, strides;
    for (const auto& s : want["sizes"].toArray()) sizes.push_back(s.toInt());
    for (const auto& s : want["strides"].toArray()) strides.push_back(s.toInt());
    QCOMPARE(t.sizes().vec(), sizes);
    QCOMPARE(t.strides().vec(), strides);
    QCOMPARE(t.storage_offset(), int64_t(want["offset"].toInt()));
    const at::Tensor flat = (t.is_complex() ? at::view_as_real(t) : t).to(at::kDouble).reshape(-1).contiguous();
    std::vector<double> values;
    for (const auto& x : want["values"].toArray()) {
      if (x.isArray()) for (const auto& part : x.toArray()) values.push_back(part.toDouble());
      else values.push_back(x.toDouble());
    }
    QCOMPARE(size_t(flat.numel()), values.size());
    for (size_t i = 0; i < values.size(); ++i)
      QVERIFY2(flat.data_ptr<double>()[i] == values[i], qPrintable(where + ": element " + QString::number(i)));
    // Sharing: torch's storage number k is one storage of ours, and no other number is.
    if (t.storage().nbytes() == 0) return;
    const void* ours = t.storage().data();
    const int theirs = want["storage"].toInt();
    const auto [it, added] = by_number_.emplace(theirs, ours);
    QVERIFY2(it->second == ours, qPrintable(where + ": torch shares this tensor's storage, ExportLens does not"));
    const auto [back, fresh] = by_storage_.emplace(ours, theirs);
    QVERIFY2(back->second == theirs, qPrintable(where + ": ExportLens shares a storage torch does not"));
  }

  std::map<int, const void*> by_number_;
  std::map<const void*, int> by_storage_;
};

}  // namespace

class TestTorchLoad : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  QJsonObject cases_;

  std::string file(const QString& name) const { return dir_.filePath(name + ".pt").toStdString(); }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedChannels);
    p.start(EXPORTLENS_PYTHON, {QString(EXPORTLENS_SOURCE_DIR) + "/tests/engine/torch_load_cases.py", dir_.path()});
    QVERIFY(p.waitForFinished(300000));
    QCOMPARE(p.exitCode(), 0);
    QFile f(dir_.filePath("cases.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    cases_ = QJsonDocument::fromJson(f.readAll()).object();
    QVERIFY(cases_.size() >= 10);
  }

  void values_are_torchs_data() {
    QTest::addColumn<QString>("name");
    for (const QString& name : cases_.keys()) QTest::newRow(qPrintable(name)) << name;
  }
  void values_are_torchs() {
    QFETCH(QString, name);
    const c10::IValue v = runtime::to_ivalue(serde::torch_load(file(name), {}));
    SameAsTorch().check(v, cases_[name].toObject(), name);
  }

  // Five views of one storage: nothing is read until the value is converted,
  // then the storage once, into one allocation they all view.
  void storages_are_read_once_when_converted() {
    const serde::SaveValue value = serde::torch_load(file("views"), {});
    const auto& views = std::get<std::shared_ptr<serde::SaveValue::Tuple>>(value.v)->items;
    QCOMPARE(views.size(), size_t(5));
    const auto& first = std::get<ir::TensorPayload>(views[0].v);
    QVERIFY(first.source);
    for (const auto& v : views) QCOMPARE(std::get<ir::TensorPayload>(v.v).source, first.source);
    QCOMPARE(first.source->bytes_read(), uint64_t(0));
    const c10::IValue converted = runtime::to_ivalue(value);
    QCOMPARE(first.source->bytes_read(), uint64_t(4 * 6 * sizeof(float)));
    const auto items = converted.toTupleRef().elements();
    for (const auto& t : items) QCOMPARE(t.toTensor().storage().data(), items[0].toTensor().storage().data());
  }

  // The limits hold on honest files too, named with the payload and the offset.
  void limits_refuse_what_is_past_them() {
    serde::ReadLimits few;
    few.max_pickle_objects = 10;
    try {
      serde::torch_load(file("scalars_and_containers"), few);
      QFAIL("10 objects should not hold this file");
    } catch (const serde::ArchiveError& e) {
      const QString m = e.what();
      QVERIFY2(m.contains("scalars_and_containers.pt: scalars_and_containers/data.pkl: offset ") &&
                   m.contains("makes more than 10 objects"), qPrintable(m));
    }
    serde::ReadLimits shallow;
    shallow.max_nesting = 50;
    QVERIFY_THROWS_EXCEPTION(serde::ArchiveError, serde::torch_load(file("nested_200"), shallow));
    serde::torch_load(file("nested_200"), {});  // the default limits hold them
    // The pickle and every storage record count toward the total before any storage is read.
    uint64_t pickle = 0;
    const serde::ZipArchive archive(file("views"));
    for (const auto& e : archive.entries())
      if (e.name.ends_with("/data.pkl")) pickle = e.uncompressed_size;
    QVERIFY(pickle > 0);
    serde::ReadLimits exact;
    exact.max_total_bytes = pickle + 4 * 6 * sizeof(float);
    serde::torch_load(file("views"), exact);
    serde::ReadLimits one_less = exact;
    --one_less.max_total_bytes;
    try {
      serde::torch_load(file("views"), one_less);
      QFAIL("a total one byte short should not hold this file");
    } catch (const serde::ArchiveError& e) {
      QVERIFY2(QString(e.what()).contains("inflate to more than the limit of"), e.what());
    }
  }
};

QTEST_MAIN(TestTorchLoad)
#include "test_torch_load.moc"
