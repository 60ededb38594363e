#include "ui/program_views/inspector_widget.h"

#include <QEvent>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/core/program_model.h"
#include "ui/program_views/argument_text.h"
#include "ui/program_views/node_report.h"

namespace exportlens::ui {

InspectorWidget::InspectorWidget(QWidget* parent) : QWidget(parent), browser_(new QTextBrowser(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(browser_);
  browser_->setOpenLinks(false);
  browser_->setFrameShape(QFrame::NoFrame);
  browser_->document()->setDocumentMargin(10);
  connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() == QLatin1String(kNodeLinkScheme)) emit nodeActivated(url.path());
  });
  render();
}

void InspectorWidget::setProgram(const LoadedProgramPtr& program) {
  program_ = program;
  facts_.clear();
  node_.clear();
  render();
}

void InspectorWidget::setSolveFacts(const NodeSolveFactsMap& facts) {
  facts_ = facts;
  render();
}

void InspectorWidget::showNode(const QString& name) {
  node_ = name;
  render();
}

QString InspectorWidget::plainText() const { return browser_->toPlainText(); }

void InspectorWidget::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) render();
}

void InspectorWidget::render() {
  const QPalette& pal = palette();
  const ReportColors colors{pal.color(QPalette::Text), pal.color(QPalette::PlaceholderText), CanvasPalette(pal)};
  if (!program_) {
    browser_->setHtml(QStringLiteral("<p style=\"color:%1;\">%2</p>")
                          .arg(colors.label.name(), tr("No program loaded.")));
    return;
  }
  const ir::ExportedProgram& program = *program_->program;
  const ir::Node* node = node_.isEmpty() ? nullptr : program.graph().find(node_.toStdString());
  const auto facts = facts_.constFind(node_);
  browser_->setHtml(node ? node_report_html(*node, program, colors, facts == facts_.constEnd() ? nullptr : &*facts)
                         : program_summary_html(program, program_->displayName, program_->path, colors));
}

void InspectorWidget::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programChanged, this, [this, model] { setProgram(model->loaded()); });
  connect(model, &ProgramModel::selectionChanged, this, &InspectorWidget::showNode);
  connect(model, &ProgramModel::solveChanged, this, [this, model] { setSolveFacts(model->solveFacts()); });
  connect(this, &InspectorWidget::nodeActivated, model, &ProgramModel::selectNode);
}

}  // namespace exportlens::ui
