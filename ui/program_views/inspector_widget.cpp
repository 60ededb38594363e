#include "ui/program_views/inspector_widget.h"

#include <QEvent>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/core/program_model.h"
#include "ui/program_views/argument_text.h"
#include "ui/program_views/node_report.h"

namespace exportlens::ui {
namespace {
constexpr char kPreviewScheme[] = "preview";
constexpr char kViewerScheme[] = "viewer";
}  // namespace

InspectorWidget::InspectorWidget(QWidget* parent) : QWidget(parent), browser_(new QTextBrowser(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(browser_);
  browser_->setOpenLinks(false);
  browser_->setFrameShape(QFrame::NoFrame);
  browser_->document()->setDocumentMargin(10);
  connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    if (url.scheme() == QLatin1String(kNodeLinkScheme)) emit nodeActivated(url.path());
    if (url.scheme() == QLatin1String(kPreviewScheme)) previewValues(url.path());
    if (url.scheme() == QLatin1String(kViewerScheme)) emit tensorViewerRequested(url.path());
    if (url.scheme() != QLatin1String(kNodeLinkScheme) && url.scheme() != QLatin1String(kPreviewScheme) &&
        url.scheme() != QLatin1String(kViewerScheme))
      emit linkActivated(url);
  });
  render();
}

void InspectorWidget::setProgram(const LoadedProgramPtr& program) {
  if (program_ && program && program_->program->state_dict.size() == program->program->state_dict.size() &&
      program_->path == program->path) {
    // Another IR level of the same file: the weights are the same.
  } else {
    values_.clear();
  }
  jobs_.dropAll();
  program_ = program;
  facts_.clear();
  run_facts_.clear();
  node_.clear();
  render();
}

void InspectorWidget::setSolveFacts(const NodeSolveFactsMap& facts) {
  facts_ = facts;
  render();
}

void InspectorWidget::setRunFacts(const NodeRunFactsMap& facts) {
  run_facts_ = facts;
  render();
}

void InspectorWidget::showNode(const QString& name) {
  node_ = name;
  render();
}

void InspectorWidget::addNodeSection(NodeSection section) {
  sections_.push_back(std::move(section));
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
  QString html = node ? node_report_html(*node, program, colors, facts == facts_.constEnd() ? nullptr : &*facts)
                      : program_summary_html(program, program_->displayName, program_->path, colors);
  if (const auto run = run_facts_.constFind(node_); node && run != run_facts_.constEnd())
    html += run_facts_html(*run, colors.label.name());
  const ir::TensorPayload* payload = node ? payloadOf(*node) : nullptr;
  if (node && (payload || node->value.tensor())) {
    const int at = html.indexOf(QStringLiteral("<p style=\"margin-top:12px;"));
    // Every tensor opens in the tensor viewer (a weight's stored values, a computed one in two runs).
    const QString viewer = tr("<a href=\"%1:%2\">Open in the tensor viewer</a>")
                               .arg(QLatin1String(kViewerScheme), QString::fromStdString(node->name).toHtmlEscaped());
    const QString values = QStringLiteral("<p style=\"margin-top:12px; margin-bottom:3px; color:%1;\"><b>%2</b></p>%3")
                               .arg(colors.heading.name(), tr("Values"),
                                    payload ? valuesHtml(*node, *payload) + "<br/>" + viewer : viewer);
    html = at < 0 ? html + values : html.insert(at, values);
  }
  // Added sections near the top, under the op (and its values): what the node is made into.
  QString added;
  if (node)
    for (const NodeSection& section : sections_) added += section(node_);
  if (!added.isEmpty()) {
    const QString values_title = QStringLiteral("<b>%1</b></p>").arg(tr("Values"));
    int at = html.indexOf(values_title);
    if (at >= 0) at = html.indexOf(QStringLiteral("<p style=\"margin-top:12px;"), at);
    if (at < 0) at = html.indexOf(QStringLiteral("<p style=\"margin-top:12px;"));
    html = at < 0 ? html + added : html.insert(at, added);
  }
  browser_->setHtml(html);
}

const ir::TensorPayload* InspectorWidget::payloadOf(const ir::Node& node) const {
  if (node.op != ir::OpKind::Placeholder || !program_) return nullptr;
  const ir::ExportedProgram& program = *program_->program;
  const ir::InputSpec* spec = program.signature.input_named(node.name);
  if (!spec || !spec->target) return nullptr;
  if (spec->kind == ir::InputKind::Parameter || spec->kind == ir::InputKind::Buffer) return program.find_state(*spec->target);
  if (spec->kind == ir::InputKind::ConstantTensor) return program.find_constant(*spec->target);
  return nullptr;
}

QString InspectorWidget::valuesHtml(const ir::Node& node, const ir::TensorPayload& payload) const {
  const QString name = QString::fromStdString(node.name);
  if (values_.contains(name)) return values_.value(name);
  const QString where = payload.bytes ? tr("read with the program") : tr("read from the file only now");
  return tr("<a href=\"%1:%2\">Show its values</a> (%3 bytes, %4)")
      .arg(QLatin1String(kPreviewScheme), name.toHtmlEscaped())
      .arg(payload.stored_size)
      .arg(where);
}

void InspectorWidget::previewValues(const QString& name) {
  const ir::Node* node = program_ ? program_->graph().find(name.toStdString()) : nullptr;
  const ir::TensorPayload* payload = node ? payloadOf(*node) : nullptr;
  if (!payload) return;
  jobs_.start([program = program_, payload](JobContext&, ir::PayloadValues& out) { out = ir::payload_values(*payload); },
              [this, name](JobOutcome<ir::PayloadValues>& outcome) {
                if (!outcome.ok()) {
                  values_.insert(name, tr("cannot show: %1").arg(outcome.error.toHtmlEscaped()));
                } else {
                  const ir::PayloadValues& v = outcome.value;
                  QStringList first;
                  for (double x : v.first) first << QString::number(x, 'g', 6);
                  if (v.count > int64_t(v.first.size())) first << QStringLiteral("…");
                  values_.insert(name, tr("<code>%1</code><br/>min <code>%2</code> &nbsp;max <code>%3</code> &nbsp;mean "
                                          "<code>%4</code><br/>%5 elements, %6 bytes read")
                                           .arg(first.join(QStringLiteral(", ")).toHtmlEscaped())
                                           .arg(v.min, 0, 'g', 6)
                                           .arg(v.max, 0, 'g', 6)
                                           .arg(v.mean, 0, 'g', 6)
                                           .arg(v.count)
                                           .arg(v.bytes));
                }
                if (node_ == name) render();
                emit valuesShown(name);
              });
}

void InspectorWidget::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programChanged, this, [this, model] { setProgram(model->loaded()); });
  connect(model, &ProgramModel::selectionChanged, this, &InspectorWidget::showNode);
  connect(model, &ProgramModel::solveChanged, this, [this, model] { setSolveFacts(model->solveFacts()); });
  connect(this, &InspectorWidget::nodeActivated, model, &ProgramModel::selectNode);
}

}  // namespace exportlens::ui
