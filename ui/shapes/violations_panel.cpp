#include "ui/shapes/violations_panel.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/core/data_table.h"
#include "ui/core/selection_link.h"
#include "ui/shapes/spec_session.h"
#include "ui/shapes/violations_model.h"

namespace exportlens::ui {

ViolationsPanel::ViolationsPanel(SpecSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      model_(new ViolationsModel(this)),
      verdict_(new QLabel(this)),
      table_(make_data_table(model_, QStringLiteral("violationsTable"), this)),
      fixes_(new QPlainTextEdit(this)),
      copy_(new QPushButton(tr("Copy"), this)),
      apply_(new QPushButton(tr("Apply fixes"), this)) {
  verdict_->setObjectName(QStringLiteral("violationsVerdict"));
  verdict_->setWordWrap(true);
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  on_current_node(table_, this, [this](const QString& node) { emit nodeActivated(node); });

  fixes_->setObjectName(QStringLiteral("suggestedFixes"));
  fixes_->setReadOnly(true);
  fixes_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  fixes_->setPlaceholderText(tr("No suggested fixes."));
  copy_->setToolTip(tr("Copy the suggested fixes"));
  apply_->setToolTip(tr("Edit the spec with the suggested fixes (undo with Ctrl+Z)"));
  connect(copy_, &QPushButton::clicked, this, [this] {
    QGuiApplication::clipboard()->setText(fixes_->toPlainText());
    emit message(tr("Copied the suggested fixes"));
  });
  connect(apply_, &QPushButton::clicked, this, [this] {
    if (showing_trace_) {
      const auto apply = trace_apply_;  // a copy: re-tracing may replace it
      if (apply) apply();
      emit message(tr("Applied the suggested fixes; tracing again…"));
      return;
    }
    const QString problem = session_->applySuggestedFixes();
    emit message(problem.isEmpty() ? tr("Applied the suggested fixes; solving…") : problem);
  });

  auto* fixes_box = new QWidget(this);
  auto* fixes_layout = new QVBoxLayout(fixes_box);
  fixes_layout->setContentsMargins(0, 0, 0, 0);
  fixes_layout->setSpacing(2);
  auto* fixes_title = new QLabel(tr("<b>Suggested fixes</b>"), fixes_box);
  fixes_layout->addWidget(fixes_title);
  fixes_layout->addWidget(fixes_, 1);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  buttons->addWidget(copy_);
  buttons->addWidget(apply_);
  fixes_layout->addLayout(buttons);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(table_);
  splitter->addWidget(fixes_box);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 2, 4, 2);
  layout->setSpacing(3);
  layout->addWidget(verdict_);
  layout->addWidget(splitter, 1);

  connect(session, &SpecSession::resultChanged, this, &ViolationsPanel::showResult);
  connect(session, &SpecSession::stateChanged, this, [this] {
    if (showing_trace_) showResult();  // the session moved on: its content replaces the trace's
    else showVerdict();
  });
  showResult();
}

QString ViolationsPanel::verdictText() const { return verdict_->text(); }

void ViolationsPanel::showResult() {
  showing_trace_ = false;
  trace_apply_ = nullptr;
  showReport(session_->result());
  showVerdict();
}

void ViolationsPanel::showTraceReport(const QString& what, const SolveResultPtr& report, std::function<void()> apply) {
  if (!report) {
    if (showing_trace_) showResult();
    return;
  }
  showing_trace_ = true;
  trace_apply_ = std::move(apply);
  showReport(report);
  const QString first_line = QString::fromStdString(report->message).section(QLatin1Char('\n'), 0, 0);
  verdict_->setText(tr("Tracing %1 failed: %2").arg(what, first_line));
  apply_->setEnabled(copy_->isEnabled() && trace_apply_);
}

void ViolationsPanel::showReport(const SolveResultPtr& result) {
  model_->setResult(result);
  for (int column : {ViolationsModel::Kind, ViolationsModel::SpecItem, ViolationsModel::Guard, ViolationsModel::Node, ViolationsModel::Source})
    table_->resizeColumnToContents(column);
  const bool has_fixes = result && !result->suggested_fixes_text.empty();
  fixes_->setPlainText(has_fixes ? QString::fromStdString(result->suggested_fixes_text).trimmed() : QString());
  copy_->setEnabled(has_fixes);
}

void ViolationsPanel::showVerdict() {
  const SolveResultPtr& result = session_->result();
  // Fixes apply to the spec they were suggested for: not while a newer one solves.
  apply_->setEnabled(copy_->isEnabled() && session_->state() != SpecSession::State::Solving);
  QString verdict;
  switch (session_->state()) {
    case SpecSession::State::NoProgram: verdict = tr("No program loaded."); break;
    case SpecSession::State::Unavailable: verdict = session_->unavailableReason(); break;
    case SpecSession::State::Solving: verdict = tr("Solving…"); break;
    case SpecSession::State::Ok: verdict = tr("The spec holds: no violations."); break;
    case SpecSession::State::Violation:
    case SpecSession::State::Error:
      verdict = result ? QString::fromStdString(result->message).section(QLatin1Char('\n'), 0, 0) : QString();
      if (session_->state() == SpecSession::State::Error) verdict = tr("Error: %1").arg(verdict);
      break;
  }
  verdict_->setText(verdict);
}

}  // namespace exportlens::ui
