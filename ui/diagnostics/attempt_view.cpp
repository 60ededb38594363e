#include "ui/diagnostics/attempt_view.h"

#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

#include "engine/capture/failure_class.h"
#include "ui/core/data_table.h"
#include "ui/core/program_model.h"
#include "ui/core/qstring_from.h"
#include "ui/core/selection_link.h"

namespace exportlens::ui {
namespace {

QString location_html(const capture::PythonFrame& f) {
  return QStringLiteral("<b>%1</b> in %2: <code>%3</code>")
      .arg(short_location(f).toHtmlEscaped(), qs(f.function).toHtmlEscaped(), qs(f.code).toHtmlEscaped());
}

}  // namespace

AttemptView::AttemptView(QWidget* parent)
    : QWidget(parent),
      entries_(new ViolatedEntriesModel(this)),
      guards_(new GuardTreeModel(this)),
      symbols_(new SymbolsModel(this)),
      specializations_(new SpecializationsModel(this)) {
  headline_ = new QLabel(this);
  headline_->setObjectName(QStringLiteral("attemptHeadline"));
  headline_->setWordWrap(true);
  headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  where_ = new QLabel(this);
  where_->setObjectName(QStringLiteral("attemptWhere"));
  where_->setWordWrap(true);
  where_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  program_ = new QLabel(this);
  program_->setObjectName(QStringLiteral("attemptProgram"));
  program_->setWordWrap(true);
  message_ = new QPlainTextEdit(this);
  message_->setObjectName(QStringLiteral("attemptMessage"));
  message_->setReadOnly(true);
  message_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  message_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
  message_->setMaximumHeight(message_->fontMetrics().lineSpacing() * 9);

  sections_ = new QTabWidget(this);
  sections_->setObjectName(QStringLiteral("attemptSections"));
  sections_->setDocumentMode(true);

  // Spec entries: the table, then torch's fixes with Copy and Apply.
  auto* entries_page = new QWidget(sections_);
  entries_table_ = make_data_table(entries_, QStringLiteral("specEntriesTable"), entries_page);
  entries_table_->setWordWrap(true);
  apply_fixes_ = new QPushButton(tr("Apply Fixes to the Spec"), entries_page);
  apply_fixes_->setObjectName(QStringLiteral("applyCapturedFixes"));
  apply_fixes_->setToolTip(tr("Put torch's suggested fixes into the Dynamic shapes editor, which re-solves the spec"));
  copy_fixes_ = new QPushButton(tr("Copy Fixes"), entries_page);
  auto* entries_buttons = new QHBoxLayout;
  entries_buttons->addStretch(1);
  entries_buttons->addWidget(copy_fixes_);
  entries_buttons->addWidget(apply_fixes_);
  auto* entries_layout = new QVBoxLayout(entries_page);
  entries_layout->setContentsMargins(0, 0, 0, 0);
  entries_layout->addWidget(entries_table_, 1);
  entries_layout->addLayout(entries_buttons);
  connect(apply_fixes_, &QPushButton::clicked, this, [this] {
    if (diagnosis_) {
      QStringList fixes;
      for (const std::string& f : diagnosis_->suggested_fixes) fixes << qs(f);
      emit applyFixesRequested(fixes.join(QLatin1Char('\n')));
    }
  });
  connect(copy_fixes_, &QPushButton::clicked, this, [this] {
    if (!diagnosis_) return;
    QStringList fixes;
    for (const std::string& f : diagnosis_->suggested_fixes) fixes << qs(f);
    QApplication::clipboard()->setText(fixes.join(QLatin1Char('\n')));
  });

  guards_tree_ = new QTreeView(sections_);
  guards_tree_->setObjectName(QStringLiteral("attemptGuardsTree"));
  guards_tree_->setModel(guards_);
  guards_tree_->setUniformRowHeights(true);
  guards_tree_->setAlternatingRowColors(true);
  guards_tree_->setSelectionBehavior(QAbstractItemView::SelectRows);
  guards_tree_->header()->setStretchLastSection(true);
  symbols_table_ = make_data_table(symbols_, QStringLiteral("attemptSymbolsTable"), sections_);
  specializations_table_ = make_data_table(specializations_, QStringLiteral("attemptSpecializationsTable"), sections_);
  data_dependent_text_ = new QTextBrowser(sections_);
  data_dependent_text_->setObjectName(QStringLiteral("attemptDataDependent"));

  section_pages_[SpecEntries] = entries_page;
  section_pages_[Guards] = guards_tree_;
  section_pages_[Symbols] = symbols_table_;
  section_pages_[Specializations] = specializations_table_;
  section_pages_[DataDependent] = data_dependent_text_;
  for (QWidget* page : section_pages_) sections_->addTab(page, QString());

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(headline_);
  layout->addWidget(where_);
  layout->addWidget(message_);
  layout->addWidget(program_);
  layout->addWidget(sections_, 1);
  clear();
}

void AttemptView::clear() { show(nullptr, nullptr, QString()); }

bool AttemptView::sectionShown(Section section) const { return sections_->isTabVisible(int(section)); }

void AttemptView::showSection(Section section, int rows, const QString& title) {
  sections_->setTabText(int(section), QStringLiteral("%1 (%2)").arg(title).arg(rows));
  sections_->setTabVisible(int(section), rows > 0);
}

void AttemptView::show(std::shared_ptr<const capture::Attempt> attempt, DiagnosisPtr diagnosis, const QString& program) {
  attempt_ = std::move(attempt);
  diagnosis_ = std::move(diagnosis);
  entries_->setDiagnosis(diagnosis_);
  guards_->setDiagnosis(diagnosis_);
  symbols_->setDiagnosis(diagnosis_);
  specializations_->setDiagnosis(diagnosis_);
  const capture::AttemptDiagnosis* d = diagnosis_.get();
  if (!d) {
    headline_->setText(tr("No export attempt is open. File › Capture Python Export… runs a script and records "
                          "every torch.export call it makes."));
    where_->clear();
    message_->clear();
    message_->hide();
    program_->clear();
    for (int s = SpecEntries; s <= DataDependent; ++s) sections_->setTabVisible(s, false);
    apply_fixes_->setEnabled(false);
    copy_fixes_->setEnabled(false);
    return;
  }
  const QString title = attempt_ ? tr("Attempt %1: ").arg(attempt_->index) : QString();
  const QString model = attempt_ ? qs(attempt_->model_class).section(QLatin1Char('.'), -1) : QString();
  if (d->ok || (d->message.empty() && d->error_type.empty())) {
    headline_->setText(QStringLiteral("<span style='color:#2e7d32'>✓</span> <b>%1%2</b>")
                           .arg(title.toHtmlEscaped(),
                                d->ok ? tr("%1 exported").arg(model).toHtmlEscaped()
                                      : tr("the log records no failure").toHtmlEscaped()));
  } else {
    headline_->setText(QStringLiteral("<span style='color:#c62828'>✗</span> <b>%1%2</b> — %3: %4")
                           .arg(title.toHtmlEscaped(), qs(capture::failure_class_title(d->failure_class)).toHtmlEscaped(),
                                qs(d->error_type).toHtmlEscaped(), qs(d->headline).toHtmlEscaped()));
  }
  QString where;
  if (d->user_frame) where = tr("at %1").arg(location_html(*d->user_frame));
  if (d->raised_at) where += tr("<br/>raised at %1").arg(location_html(*d->raised_at));
  if (attempt_ && !d->user_frame)
    where = tr("called at %1").arg(location_html(attempt_->call_site));
  where_->setText(where);
  message_->setPlainText(qs(d->message));
  message_->setVisible(!d->message.empty());
  program_->setText(program.isEmpty() ? QString() : tr("Graph: %1").arg(program.toHtmlEscaped()));
  showSection(SpecEntries, int(d->violations.size()), tr("Spec entries"));
  showSection(Guards, int(d->guards.size()), tr("Guards"));
  showSection(Symbols, int(d->symbols.size()), tr("Symbols"));
  showSection(Specializations, int(d->specializations.size()), tr("Specializations"));
  showSection(DataDependent, int(d->data_dependent.size()), tr("Data-dependent"));
  data_dependent_text_->setHtml(data_dependent_html(*d));
  for (QTableView* table : {entries_table_, symbols_table_, specializations_table_}) table->resizeColumnsToContents();
  apply_fixes_->setEnabled(!d->suggested_fixes.empty());
  copy_fixes_->setEnabled(!d->suggested_fixes.empty());
  // The first section with rows, in the order the tutorials read a failure.
  for (int s = SpecEntries; s <= DataDependent; ++s)
    if (sections_->isTabVisible(s)) {
      if (s != SpecEntries && !d->data_dependent.empty()) s = DataDependent;
      sections_->setCurrentIndex(s);
      break;
    }
  guards_tree_->resizeColumnToContents(GuardTreeModel::Guard);
  guards_tree_->resizeColumnToContents(GuardTreeModel::Line);
}

void AttemptView::follow(ProgramModel* model) {
  // A guard, a spec entry: their node. Guards name several nodes (every node
  // of the user line), so the way back is by line, not by one name.
  connect(guards_tree_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this, model](const QModelIndex& current) {
            const QModelIndex row = current.parent().isValid() ? current.parent() : current;
            const QString node = row.siblingAtColumn(0).data(NodeNameRole).toString();
            if (!following_selection_ && !node.isEmpty()) {
              model->selectNode(node);
              emit nodeActivated(node);
            }
          });
  on_current_node(entries_table_, this, [model](const QString& node) {
    if (!node.isEmpty()) model->selectNode(node);
  });
  connect(model, &ProgramModel::selectionChanged, this, [this](const QString& node) {
    const QList<int> rows = guards_->guardsOfNode(node);
    const QModelIndex current = guards_tree_->currentIndex();
    const int current_row = current.parent().isValid() ? current.parent().row() : current.row();
    if (rows.isEmpty() || rows.contains(current_row)) return;
    following_selection_ = true;
    guards_tree_->setCurrentIndex(guards_->index(rows.first(), 0));
    guards_tree_->scrollTo(guards_->index(rows.first(), 0));
    following_selection_ = false;
  });
}

}  // namespace exportlens::ui
