// The main window on a real torch.export fixture: every node on the canvas,
// signature and range constraints as torch reports them, one selection
// across canvas / code / inspector / signature, errors that keep the previous
// program, and a screenshot for the README.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QThread>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>

#include <memory>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/program_views/code_view.h"
#include "ui/program_views/find_bar.h"
#include "ui/program_views/inspector_widget.h"
#include "support/fixtures.h"
#include "ui/canvas/node_item.h"
#include "ui/core/program_loader.h"
#include "ui/core/program_model.h"
#include "ui/shell/main_window.h"
#include "ui/shell/recent_files.h"
#include "support/screenshot.h"
#include "ui/canvas/edge_item.h"

using namespace exportlens;
using ui::MainWindow;

namespace {

using testing::fixture_file;
using testing::fixture_meta;

// The annotation torch printed for a node: `    linear: "f32[s15, 3]" = ...`.
QString printed_annotation(const QString& fixture, const QString& node) {
  QFile f(fixture_file(fixture, QStringLiteral("print.txt")));
  if (!f.open(QIODevice::ReadOnly)) return {};
  const QString prefix = node + QStringLiteral(": \"");
  for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
    const QString trimmed = line.trimmed();
    if (trimmed.startsWith(prefix)) return trimmed.mid(prefix.size()).section(QLatin1Char('"'), 0, 0);
  }
  return {};
}

QString cell(QTableView* table, int row, int column) {
  return table->model()->index(row, column).data().toString();
}

QPalette dark_palette() {
  QPalette p;
  p.setColor(QPalette::Window, QColor(45, 47, 52));
  p.setColor(QPalette::WindowText, QColor(225, 228, 232));
  p.setColor(QPalette::Base, QColor(32, 34, 38));
  p.setColor(QPalette::AlternateBase, QColor(40, 42, 47));
  p.setColor(QPalette::Text, QColor(225, 228, 232));
  p.setColor(QPalette::PlaceholderText, QColor(150, 155, 162));
  p.setColor(QPalette::Button, QColor(52, 54, 60));
  p.setColor(QPalette::ButtonText, QColor(225, 228, 232));
  p.setColor(QPalette::Highlight, QColor(61, 142, 230));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(110, 170, 255));
  p.setColor(QPalette::Mid, QColor(80, 82, 88));
  return p;
}

QString bound_text(const QJsonValue& v) {
  return v.isString() ? v.toString() : QString::number(v.toVariant().toLongLong());
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT

  const QString kFixture = QStringLiteral("dynamic_model_auto");
  std::unique_ptr<MainWindow> window_;

  bool open_and_wait(const QString& path) {
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(path);
    return shown.wait(60000);
  }

  /// Exactly the edges into and out of `name` are highlighted, and the
  /// canvas paints each of them in the palette's highlight colour.
  void verify_edges_highlighted_for(const QString& name) {
    ui::GraphScene* scene = window_->graphScene();
    const QColor highlight = scene->canvasStyle().palette.highlight();
    QStringList lit, want;
    // Weights are folded into the node that reads them: no edge comes from them.
    const ir::WeightFolding& folding = *window_->programModel()->loaded()->weights;
    for (const ir::Node* n : window_->programModel()->program()->graph().nodes())
      n->for_each_input([&](const ir::Node* input) {
        const QString edge = QString::fromStdString(input->name + "->" + n->name);
        if (folding.is_folded(input->index())) return;
        if ((n->name == name.toStdString() || input->name == name.toStdString()) && !want.contains(edge)) want << edge;
      });
    for (ui::EdgeItem* edge : scene->edgeItems()) {
      if (!edge->isHighlighted()) continue;
      lit << edge->from() + "->" + edge->to();
      QImage image(edge->boundingRect().size().toSize() + QSize(2, 2), QImage::Format_ARGB32);
      image.fill(Qt::transparent);
      QPainter painter(&image);
      scene->render(&painter, QRectF(QPointF(0, 0), image.size()), edge->sceneBoundingRect().adjusted(0, 0, 2, 2));
      painter.end();
      int painted = 0;
      for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
          const QColor c = image.pixelColor(x, y);
          painted += std::abs(c.red() - highlight.red()) + std::abs(c.green() - highlight.green()) +
                         std::abs(c.blue() - highlight.blue()) < 24 && c.alpha() > 200;
        }
      QVERIFY2(painted >= 4, qPrintable(lit.last() + " is not painted in the highlight colour"));
    }
    lit.removeDuplicates();
    lit.sort();
    want.sort();
    QCOMPARE(lit, want);
    QVERIFY(lit.size() >= 2);
  }

  void click_node(const QString& name) {
    window_->centralTabs()->setCurrentWidget(window_->graphView());
    ui::NodeItem* item = window_->graphScene()->nodeItem(name);
    QVERIFY2(item, qPrintable(name));
    ui::GraphView* view = window_->graphView();
    view->reveal(item->box());
    const QPoint at = view->mapFromScene(item->box().center());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, at);
  }

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // keep QSettings out of the user's config
    QCoreApplication::setOrganizationName(QStringLiteral("ExportLens"));
    QCoreApplication::setApplicationName(QStringLiteral("ExportLensTest"));
    const QString program = fixture_file(kFixture, QStringLiteral("program.pt2"));
    if (!QFile::exists(program)) QFAIL(qPrintable(QStringLiteral("fixture missing: ") + program));
    window_ = std::make_unique<MainWindow>();
    window_->resize(1440, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QVERIFY(open_and_wait(program));
  }

  void title_names_the_file() {
    QVERIFY(window_->windowTitle().startsWith(QStringLiteral("program.pt2")));
  }

  void every_graph_node_has_a_box() {
    // A small program opens fully expanded; its weights are folded into the
    // ops that read them (a badge), every other node has its box.
    const auto* program = window_->programModel()->program();
    QVERIFY(program);
    const ir::WeightFolding& folding = *window_->programModel()->loaded()->weights;
    QCOMPARE(window_->graphScene()->nodeItems().size(), qsizetype(program->graph().size() - folding.folded_count()));
    for (const ir::Node* node : program->graph().nodes())
      QVERIFY2(bool(window_->graphScene()->nodeItem(QString::fromStdString(node->name))) != folding.is_folded(node->index()),
               node->name.c_str());
    QVERIFY(window_->graphScene()->scopeItems().isEmpty());
    // The ops torch reports are all there.
    const QJsonArray ops = fixture_meta(kFixture).value(QStringLiteral("ops")).toArray();
    int calls = 0;
    for (const ir::Node* node : program->graph().nodes()) calls += node->op == ir::OpKind::CallFunction;
    QCOMPARE(calls, ops.size());
    QVERIFY(!window_->graphScene()->edgeItems().isEmpty());
  }

  void signature_table_matches_torch() {
    const QJsonObject sig = fixture_meta(kFixture).value(QStringLiteral("graph_signature")).toObject();
    const QJsonArray inputs = sig.value(QStringLiteral("input_specs")).toArray();
    const QJsonArray outputs = sig.value(QStringLiteral("output_specs")).toArray();
    QVERIFY(!inputs.isEmpty());
    QTableView* table = window_->signatureTable();
    QCOMPARE(table->model()->rowCount(), inputs.size() + outputs.size());
    for (int i = 0; i < inputs.size(); ++i) {
      const QJsonObject spec = inputs[i].toObject();
      QCOMPARE(cell(table, i, 0), spec.value(QStringLiteral("kind")).toString());
      QCOMPARE(cell(table, i, 1), spec.value(QStringLiteral("name")).toString());
      QCOMPARE(cell(table, i, 2), spec.value(QStringLiteral("target")).toString());
    }
    for (int i = 0; i < outputs.size(); ++i) {
      const QJsonObject spec = outputs[i].toObject();
      QCOMPARE(cell(table, inputs.size() + i, 0), spec.value(QStringLiteral("kind")).toString());
      QCOMPARE(cell(table, inputs.size() + i, 1), spec.value(QStringLiteral("name")).toString());
    }
  }

  void range_constraints_match_torch() {
    const QJsonObject ranges = fixture_meta(kFixture).value(QStringLiteral("range_constraints")).toObject();
    QTableView* table = window_->rangeTable();
    QCOMPARE(table->model()->rowCount(), ranges.size());
    QVERIFY(ranges.size() > 0);
    for (int row = 0; row < table->model()->rowCount(); ++row) {
      const QString symbol = cell(table, row, 0);
      QVERIFY2(ranges.contains(symbol), qPrintable(symbol));
      const QJsonArray bounds = ranges.value(symbol).toArray();
      QCOMPARE(cell(table, row, 1), bound_text(bounds[0]));
      QCOMPARE(cell(table, row, 2), bound_text(bounds[1]));
    }
  }

  void clicking_a_node_selects_it_everywhere() {
    click_node(QStringLiteral("linear"));
    QCOMPARE(window_->programModel()->selectedName(), QStringLiteral("linear"));
    QVERIFY(window_->graphScene()->nodeItem(QStringLiteral("linear"))->isSelected());
    // Inspector: the op and its symbolic shape as torch printed it.
    const QString text = window_->inspector()->plainText();
    QVERIFY2(text.contains(QStringLiteral("aten.linear.default")), qPrintable(text));
    const QString shape = printed_annotation(kFixture, QStringLiteral("linear"));
    QVERIFY(!shape.isEmpty());
    QVERIFY2(text.contains(shape.section(QLatin1Char('['), 1).chopped(1)), qPrintable(shape));
    QVERIFY(text.contains(QStringLiteral("aten::linear")));
    // Code: the statement line is highlighted.
    ui::CodeView* code = window_->codeView();
    const QStringList lines = code->toPlainText().split(QLatin1Char('\n'));
    bool statement_lit = false;
    for (int line : code->highlightedLines())
      statement_lit |= lines.value(line).trimmed().startsWith(QStringLiteral("linear: \"") + shape);
    QVERIFY(statement_lit);
    // Signature: `linear` is a user output, its row is selected.
    const QModelIndexList rows = window_->signatureTable()->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(cell(window_->signatureTable(), rows[0].row(), 1), QStringLiteral("linear"));
    // Its edges, and only they, are drawn in the highlight colour: its input and the output;
    // its weight and bias are folded into its box (a badge of 2) and listed by the inspector.
    verify_edges_highlighted_for(QStringLiteral("linear"));
    QCOMPARE(window_->graphScene()->nodeItem(QStringLiteral("linear"))->foldedWeights(), 2);
    QVERIFY2(text.contains(QStringLiteral("Weights (folded")), qPrintable(text));
  }

  void clicking_background_clears_the_selection() {
    click_node(QStringLiteral("linear"));
    ui::GraphView* view = window_->graphView();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(3, 3));
    QCOMPARE(window_->programModel()->selectedName(), QString());
  }

  void clicking_a_code_line_selects_its_node() {
    ui::CodeView* code = window_->codeView();
    window_->centralTabs()->setCurrentWidget(code);
    const QStringList lines = code->toPlainText().split(QLatin1Char('\n'));
    int line = -1;
    for (int i = 0; i < lines.size() && line < 0; ++i)
      if (lines[i].trimmed().startsWith(QStringLiteral("flatten: "))) line = i;
    QVERIFY(line >= 0);
    QCOMPARE(code->nodeAtLine(line), QStringLiteral("flatten"));
    QTextCursor cursor(code->document()->findBlockByNumber(line));
    code->setTextCursor(cursor);
    code->ensureCursorVisible();
    const QPoint at = code->cursorRect(cursor).center() + QPoint(40, 0);
    QTest::mouseClick(code->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QCOMPARE(window_->programModel()->selectedName(), QStringLiteral("flatten"));
    QVERIFY(window_->graphScene()->nodeItem(QStringLiteral("flatten"))->isSelected());
    QVERIFY(window_->inspector()->plainText().contains(QStringLiteral("aten.flatten.using_ints")));
  }

  void choosing_a_signature_row_selects_its_node() {
    QTableView* table = window_->signatureTable();
    int row = -1;
    for (int r = 0; r < table->model()->rowCount(); ++r)
      if (cell(table, r, 1) == QStringLiteral("p_l_weight")) row = r;
    QVERIFY(row >= 0);
    table->setCurrentIndex(table->model()->index(row, 1));
    QCOMPARE(window_->programModel()->selectedName(), QStringLiteral("p_l_weight"));
    QVERIFY(window_->inspector()->plainText().contains(QStringLiteral("PARAMETER")));
    QVERIFY(!window_->codeView()->highlightedLines().isEmpty());  // the def line
  }

  void find_steps_through_matches() {
    auto* bar = window_->findChild<ui::FindBar*>();
    QVERIFY(bar);
    QLineEdit* field = bar->field();
    field->setText(QStringLiteral("add"));
    QCOMPARE(window_->programModel()->selectedName(), QStringLiteral("add"));
    QTest::keyClick(field, Qt::Key_Return);
    QCOMPARE(window_->programModel()->selectedName(), QStringLiteral("add_1"));
    QTest::keyClick(field, Qt::Key_Return, Qt::ShiftModifier);
    QCOMPARE(window_->programModel()->selectedName(), QStringLiteral("add"));
    field->clear();
  }

  void corrupt_file_is_reported_and_the_program_stays() {
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("corrupt.pt2"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("PK\x03\x04 this is not really a zip archive");
    f.close();
    const auto before = window_->programModel()->loaded();
    QSignalSpy failed(window_.get(), &MainWindow::loadFailed);
    window_->openFile(bad);
    QVERIFY(failed.wait(30000));
    QVERIFY(!failed.first().at(1).toString().isEmpty());
    auto* box = window_->findChild<QMessageBox*>(QStringLiteral("loadErrorBox"));
    QVERIFY(box);
    QVERIFY(box->isVisible());
    QVERIFY(box->informativeText().contains(failed.first().at(1).toString()));
    box->close();
    QCOMPARE(window_->programModel()->loaded(), before);
    QVERIFY(window_->graphScene()->nodeItem(QStringLiteral("linear")));
    QVERIFY(window_->windowTitle().startsWith(QStringLiteral("program.pt2")));
    QVERIFY(!window_->isLoading());
  }

  void cancelling_keeps_the_previous_program() {
    const auto before = window_->programModel()->loaded();
    ui::ProgramLoader* loader = window_->loader();
    // A reader slow enough to cancel; the worker notices the cancel after it.
    loader->setReader([](const QString& path) {
      QThread::msleep(300);
      return ui::pt2_reader()(path);
    });
    QSignalSpy cancelled(loader, &ui::ProgramLoader::cancelled);
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->openFile(fixture_file(QStringLiteral("m_linear"), QStringLiteral("program.pt2")));
    QVERIFY(window_->isLoading());
    auto* cancel = window_->findChild<QPushButton*>(QStringLiteral("busyCancelButton"));
    QVERIFY(cancel && cancel->isVisible());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QCOMPARE(cancelled.size(), 1);
    QVERIFY(!window_->isLoading());
    QVERIFY(!cancel->isVisible());
    QTest::qWait(600);  // the abandoned job finishes and is dropped
    QCOMPARE(shown.size(), 0);
    QCOMPARE(window_->programModel()->loaded(), before);
    loader->setReader(ui::pt2_reader());
  }

  void dropping_a_pt2_file_opens_it() {
    const QString other = fixture_file(QStringLiteral("my_module"), QStringLiteral("program.pt2"));
    if (!QFile::exists(other)) QFAIL("fixture my_module missing");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(other)});
    const QPoint at = window_->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &enter);
    QVERIFY(enter.isAccepted());
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window_.get(), &drop);
    QVERIFY(shown.wait(60000));
    QCOMPARE(QFileInfo(shown.first().at(0).toString()).absoluteFilePath(), QFileInfo(other).absoluteFilePath());
    QCOMPARE(ui::RecentFiles().files().value(0), QFileInfo(other).absoluteFilePath());
    // Back to the fixture the other tests look at.
    QVERIFY(open_and_wait(fixture_file(kFixture, QStringLiteral("program.pt2"))));
  }

  void reload_keeps_the_selection() {
    window_->programModel()->selectNode(QStringLiteral("linear"));
    QSignalSpy shown(window_.get(), &MainWindow::programShown);
    window_->reload();
    QVERIFY(shown.wait(60000));
    QCOMPARE(window_->programModel()->selectedName(), QStringLiteral("linear"));
  }

  void screenshot() {
    window_->centralTabs()->setCurrentWidget(window_->graphView());
    window_->graphView()->fitAll();
    window_->programModel()->selectNode(QStringLiteral("linear"));
    QTest::qWait(50);
    testing::save_screenshot(window_.get(), QStringLiteral("main_window.png"));
    // The code tab, and the dark palette, for review.
    window_->centralTabs()->setCurrentWidget(window_->codeView());
    QTest::qWait(20);
    testing::save_screenshot(window_.get(), QStringLiteral("main_window_code.png"));
    window_->centralTabs()->setCurrentWidget(window_->graphView());
    const QPalette light = QApplication::palette();
    QApplication::setPalette(dark_palette());
    QTest::qWait(20);
    testing::save_screenshot(window_.get(), QStringLiteral("main_window_dark.png"));
    QApplication::setPalette(light);
  }

  void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
