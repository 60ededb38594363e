// Pictures and data out of ExportLens: `exportlens render` (SVG, PNG, PDF,
// at an IR level) opened and checked; the window's File › Export (whole graph
// and current view as images, DOT, the .pt2's JSON), File › Save As (the
// saved program reads back and prints as torch printed it), and every table's
// CSV and Copy. The PNGs go to build/screenshots/ for review.
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QMenu>
#include <QPainter>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTableView>
#include <QUndoStack>
#include <QTemporaryDir>
#include <QGuiApplication>
#include <QScreen>
#include <QtTest>

#include <memory>

#include "engine/ir/dot_writer.h"
#include "engine/ir/printer.h"
#include "engine/serde/pt2_reader.h"
#include "support/exportlens_process.h"
#include "support/fixtures.h"
#include "support/screenshot.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/core/program_model.h"
#include "ui/core/table_export.h"
#include "ui/export/export_actions.h"
#include "ui/export/graph_image.h"
#include "ui/export/program_saving.h"
#include "ui/shapes/additional_inputs_action.h"
#include "ui/shapes/dynamic_shapes_panel.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"
#include "ui/shell/main_window.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

QByteArray file_bytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The share of pixels that differ from the corner's colour (the background).
double drawn_fraction(const QImage& image) {
  const QRgb bg = image.pixel(0, 0);
  qint64 drawn = 0, all = 0;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2, ++all) drawn += image.pixel(x, y) != bg;
  return all ? double(drawn) / double(all) : 0;
}

// "N nodes, W x H" from render's report line.
int reported_nodes(const QString& out) {
  const auto m = QRegularExpression(R"((\d+) nodes)").match(out);
  return m.hasMatch() ? m.captured(1).toInt() : -1;
}

// CSV back into cells (quoted fields, doubled quotes, CRLF rows).
QList<QStringList> parse_csv(const QString& text) {
  QList<QStringList> rows{{}};
  QString field;
  bool quoted = false;
  for (int i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.last() << field, field.clear();
    } else if (c == '\r') {
    } else if (c == '\n') {
      rows.last() << field, field.clear();
      rows << QStringList();
    } else {
      field += c;
    }
  }
  if (rows.last().isEmpty()) rows.removeLast();
  return rows;
}

// A written picture kept in build/screenshots/ for a look, replacing the last run's.
bool keep_screenshot(const QString& picture, const char* name) {
  const QString kept = QStringLiteral(EXPORTLENS_BINARY_DIR "/screenshots/") + name;
  QDir().mkpath(QFileInfo(kept).absolutePath());
  QFile::remove(kept);
  return QFile::copy(picture, kept);
}

}  // namespace

class TestExport : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  std::unique_ptr<ui::MainWindow> window_;

  void open(const QString& fixture) {
    QSignalSpy shown(window_.get(), &ui::MainWindow::programShown);
    window_->openFile(fixture_file(fixture, "program.pt2"));
    QVERIFY(shown.wait(60000));
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    window_ = std::make_unique<ui::MainWindow>();
    window_->resize(1280, 860);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  }

  // ---- exportlens render ----------------------------------------------------------
  void render_png_draws_the_graph() {
    const QString out = tmp_.filePath("book_mlp.png");
    const auto r = run_exportlens({"render", fixture_file("book_mlp", "program.pt2"), "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QImage image(out);
    QVERIFY2(!image.isNull(), "the PNG does not load");
    QVERIFY2(blank_reason(image, QSize(100, 200)).isEmpty(), qPrintable(blank_reason(image, QSize(100, 200))));
    const double drawn = drawn_fraction(image);
    QVERIFY2(drawn > 0.02 && drawn < 0.9, qPrintable(QString("%1 of the picture is drawn").arg(drawn)));
    QVERIFY2(reported_nodes(r.out) >= 8, qPrintable(r.out));  // x, 4 weights, 2 linear, relu at least
    QVERIFY(keep_screenshot(out, "render_book_mlp.png"));
  }

  void render_svg_is_valid_and_names_the_ops() {
    const QString out = tmp_.filePath("book_mlp.svg");
    const auto r = run_exportlens({"render", fixture_file("book_mlp", "program.pt2"), "--format", "svg", "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QSvgRenderer svg(out);
    QVERIFY(svg.isValid());
    QVERIFY(svg.defaultSize().width() > 100 && svg.defaultSize().height() > 200);
    const QString text = QString::fromUtf8(file_bytes(out));
    for (const char* label : {"linear", "relu", "fc1", "fc2"})
      QVERIFY2(text.contains(label), qPrintable(QString("no '%1' in the SVG").arg(label)));
  }

  void render_pdf_has_one_page_of_the_graphs_size() {
    const QString out = tmp_.filePath("book_mlp.pdf");
    const auto r = run_exportlens({"render", fixture_file("book_mlp", "program.pt2"), "-o", out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QByteArray pdf = file_bytes(out);
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY(pdf.trimmed().endsWith("%%EOF"));
    QCOMPARE(pdf.count("/Type /Page\n") + pdf.count("/Type /Page "), 1);
    const auto box = QRegularExpression(R"(/MediaBox \[0 0 ([\d.]+) ([\d.]+)\])").match(QString::fromLatin1(pdf));
    QVERIFY(box.hasMatch());
    const auto size = QRegularExpression(R"(, (\d+) x (\d+))").match(r.out);
    QVERIFY(size.hasMatch());
    // The page is the drawing plus its margin (16 units a side) at its size on screen:
    // one scene unit per pixel at the screen's logical DPI (the CLI and this test both run offscreen).
    const double points_per_unit = 72.0 / qRound(QGuiApplication::primaryScreen()->logicalDotsPerInchY());
    QVERIFY(qAbs(box.captured(1).toDouble() - (size.captured(1).toDouble() + 32) * points_per_unit) <= 2);
    QVERIFY(qAbs(box.captured(2).toDouble() - (size.captured(2).toDouble() + 32) * points_per_unit) <= 2);
  }

  void render_at_core_ir_draws_the_lowered_program() {
    const auto training = run_exportlens({"render", fixture_file("decomp_example", "program.pt2"), "-o", tmp_.filePath("t.svg")});
    const auto core = run_exportlens({"render", fixture_file("decomp_example", "program.pt2"), "--ir", "core", "-o",
                                      tmp_.filePath("decomp_example_core.png")});
    QVERIFY2(training.code == 0 && core.code == 0, qPrintable(training.err + core.err));
    QVERIFY2(reported_nodes(core.out) > reported_nodes(training.out), qPrintable(training.out + core.out));
    QVERIFY(keep_screenshot(tmp_.filePath("decomp_example_core.png"), "render_decomp_example_core.png"));
  }

  void render_errors_are_one_line() {
    auto r = run_exportlens({"render", fixture_file("book_mlp", "program.pt2"), "--format", "gif"});
    QCOMPARE(r.code, 2);
    r = run_exportlens({"render", tmp_.filePath("missing.pt2"), "-o", tmp_.filePath("x.png")});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY(!QFile::exists(tmp_.filePath("x.png")));
  }

  // ---- the window's File › Export and Save As --------------------------------------
  void export_menu_offers_every_format() {
    open("decomp_example");
    ui::ExportActions* e = window_->exportActions();
    QVERIFY(e);
    QCOMPARE(e->saveAsAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    QStringList names;
    for (QAction* a : e->exportMenu()->actions())
      if (!a->isSeparator()) names << a->objectName();
    QCOMPARE(names, QStringList({"exportWholeSVG", "exportViewSVG", "exportWholePNG", "exportViewPNG", "exportWholePDF",
                                 "exportViewPDF", "exportDot", "exportJson"}));
  }

  void whole_graph_and_current_view_as_png() {
    open("decomp_example");
    ui::ExportActions* e = window_->exportActions();
    const QString whole = tmp_.filePath("whole.png"), view = tmp_.filePath("view.png");
    QSignalSpy exported(e, &ui::ExportActions::exported);
    e->exportGraph(whole, ui::ImageFormat::Png, true);
    window_->graphView()->zoomIn();
    window_->graphView()->zoomIn();
    e->exportGraph(view, ui::ImageFormat::Png, false);
    QCOMPARE(exported.count(), 2);
    const QImage w(whole), v(view);
    QVERIFY(blank_reason(w, QSize(100, 100)).isEmpty());
    QVERIFY(!v.isNull());
    // The zoomed view shows a part of the graph: a smaller scene area, at the same scale.
    QVERIFY2(qint64(v.width()) * v.height() < qint64(w.width()) * w.height(),
             qPrintable(QString("view %1x%2, whole %3x%4").arg(v.width()).arg(v.height()).arg(w.width()).arg(w.height())));
    QVERIFY(keep_screenshot(whole, "export_whole_decomp_example.png"));
  }

  // The picture is the graph as the screen draws it, only sharper: Qt's own
  // high-DPI drawing of the same area (device pixel ratio 2, labels at the
  // size the layout measured them) agrees with it pixel for pixel, so no
  // label outgrows its box.
  void png_is_the_scene_as_drawn_on_screen() {
    open("book_mlp");
    ui::GraphScene* scene = window_->graphScene();
    scene->clearSelection();
    const QRectF rect = scene->itemsBoundingRect();
    const ui::ImageOptions options;  // 2 pixels per unit, a margin of 16 units, white
    const QString path = tmp_.filePath("scene.png");
    ui::write_scene_image(*scene, rect, ui::ImageFormat::Png, path, options);
    const QImage got = QImage(path).convertToFormat(QImage::Format_ARGB32);
    const QRectF source = rect.adjusted(-options.margin, -options.margin, options.margin, options.margin);
    QImage want((source.size() * options.png_scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    want.setDevicePixelRatio(options.png_scale);
    want.fill(Qt::white);
    {
      QPainter painter(&want);
      painter.setRenderHint(QPainter::Antialiasing);
      painter.setRenderHint(QPainter::TextAntialiasing);
      scene->render(&painter, QRectF(QPointF(0, 0), source.size()), source, Qt::KeepAspectRatio);
    }
    want = want.convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(got.size(), want.size());
    qint64 differing = 0;
    for (int y = 0; y < got.height(); ++y)
      for (int x = 0; x < got.width(); ++x) {
        const QRgb a = got.pixel(x, y), b = want.pixel(x, y);
        if (qAbs(qRed(a) - qRed(b)) + qAbs(qGreen(a) - qGreen(b)) + qAbs(qBlue(a) - qBlue(b)) > 96) ++differing;
      }
    const double fraction = double(differing) / (qint64(got.width()) * got.height());
    QVERIFY2(fraction < 0.01, qPrintable(QString("%1 of the pixels differ from the screen's drawing").arg(fraction)));
  }

  void dot_and_json_are_the_programs() {
    open("book_mlp");
    ui::ExportActions* e = window_->exportActions();
    const auto* ep = window_->programModel()->program();
    e->exportDot(tmp_.filePath("p.dot"));
    QCOMPARE(file_bytes(tmp_.filePath("p.dot")).toStdString(), ir::to_dot(*ep));
    e->exportJson(tmp_.filePath("p.json"));
    const auto json = QJsonDocument::fromJson(file_bytes(tmp_.filePath("p.json")));
    QVERIFY(json.isObject());
    QCOMPARE(json["schema_version"]["major"].toInt(), 8);
    QVERIFY(json["graph_module"]["graph"]["nodes"].toArray().size() >= 3);
  }

  void save_as_writes_a_program_that_reads_back_as_torch_printed_it() {
    open("dynamic_model_auto");
    ui::ExportActions* e = window_->exportActions();
    QSignalSpy saved(e, &ui::ExportActions::saved);
    const QString path = tmp_.filePath("saved.pt2");
    e->saveAs(path);
    QVERIFY(saved.wait(60000));
    const auto back = serde::read_pt2(path.toStdString());
    QCOMPARE(QString::fromStdString(ir::print_program(back)), read_text(fixture_file("dynamic_model_auto", "print.txt")));
  }

  // ---- tables ----------------------------------------------------------------------
  void tables_export_as_csv_and_copy_as_text() {
    open("book_mlp");
    QTableView* table = window_->signatureTable();
    const QAbstractItemModel& m = *table->model();
    const auto rows = parse_csv(ui::table_csv(m));
    QCOMPARE(rows.size(), m.rowCount() + 1);
    for (int r = 0; r < m.rowCount(); ++r)
      for (int c = 0; c < m.columnCount(); ++c)
        QCOMPARE(rows[r + 1][c], m.data(m.index(r, c)).toString());
    // A field with a comma and a quote survives.
    QCOMPARE(parse_csv("a,\"b,\"\"c\"\"\"\r\n").value(0), QStringList({"a", "b,\"c\""}));
    // Copy: the selected row, tab-separated, with the header.
    table->selectRow(1);
    QAction* copy = nullptr;
    for (QAction* a : table->actions())
      if (a->objectName() == "copyTableAction") copy = a;
    QVERIFY(copy);
    copy->trigger();
    const QStringList lines = QApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[1].split('\t').value(0), m.data(m.index(1, 0)).toString());
    // Every table of the window has both actions.
    int tables = 0;
    for (QTableView* t : window_->findChildren<QTableView*>()) {
      QStringList names;
      for (QAction* a : t->actions()) names << a->objectName();
      if (names.contains("copyTableAction") && names.contains("exportCsvAction")) ++tables;
    }
    QVERIFY2(tables >= 8, qPrintable(QString("%1 tables offer Copy and CSV").arg(tables)));
  }

  // ---- the spec editor's AdditionalInputs ----------------------------------------------
  void spec_editor_infers_the_spec_from_example_inputs() {
    const QString dir = fixtures_dir() + "/additional_inputs/dynamic_model_all";
    QSignalSpy shown(window_.get(), &ui::MainWindow::programShown);
    window_->openFile(dir + "/program.pt2");
    QVERIFY(shown.wait(60000));
    ui::AdditionalInputsAction* action = window_->dynamicShapesPanel()->additionalInputs();
    QTRY_VERIFY_WITH_TIMEOUT(action->action()->isEnabled(), 20000);
    QSignalSpy status(action, &ui::AdditionalInputsAction::statusChanged);
    action->useInputFiles({dir + "/extra_0.pt"});
    QTRY_VERIFY_WITH_TIMEOUT(action->status().startsWith("All 1 example input set"), 20000);
    // The solved ranges are torch.export's with AdditionalInputs.
    const auto torch = read_json(dir + "/torch.json")["range_constraints"].toObject();
    const auto& result = *window_->specSession()->result();
    QCOMPARE(int(result.range_constraints.size()), torch.size());
    for (const auto& r : result.range_constraints) {
      const auto want = torch[QString::fromStdString(r.expr)].toArray();
      QVERIFY2(!want.isEmpty(), r.expr.c_str());
      QCOMPARE(QString::fromStdString(r.lower), want[0].toVariant().toString());
      QCOMPARE(QString::fromStdString(r.upper), want[1].toVariant().toString());
    }
    // One undoable step.
    QVERIFY(window_->specSession()->document()->undoStack()->canUndo());
    save_screenshot(window_->dynamicShapesPanel(), "spec_from_example_inputs.png", QSize(200, 80));
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestExport)
#include "test_export.moc"
