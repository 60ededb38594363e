#include "ui/examples/examples_gallery.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <map>

#include "engine/trace/gallery/gallery_models.h"
#include "ui/examples/trace_error_view.h"

namespace exportlens::ui {
namespace {

constexpr int kNameRole = Qt::UserRole + 1;    // the example's name (children only)
constexpr int kSearchRole = Qt::UserRole + 2;  // what the search box matches

QString q(const std::string& s) { return QString::fromStdString(s); }

QLabel* wrapping_label(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

/// The list's column: "exports", "fails: data dependent".
QString short_outcome(const std::string& expected) {
  if (expected == "ok") return QObject::tr("exports");
  return QObject::tr("fails: %1").arg(q(expected).replace(QLatin1Char('_'), QLatin1Char(' ')));
}

}  // namespace

QString expected_outcome_text(const std::string& expected) {
  static const std::map<std::string, QString> kinds = {
      {"constraint", QObject::tr("constraint violation (UserError)")},
      {"data_dependent", QObject::tr("data-dependent guard (GuardOnDataDependentSymNode)")},
      {"dynamic_control_flow", QObject::tr("dynamic control flow (Unsupported)")},
      {"unsupported", QObject::tr("unsupported (Unsupported)")},
  };
  if (expected == "ok") return QObject::tr("exports");
  const auto it = kinds.find(expected);
  return QObject::tr("fails: %1").arg(it != kinds.end() ? it->second : q(expected));
}

ExamplesGallery::ExamplesGallery(QWidget* parent) : QWidget(parent), examples_(trace::gallery_models()) {
  setObjectName(QStringLiteral("examplesGallery"));
  model_ = new QStandardItemModel(this);
  filter_ = new QSortFilterProxyModel(this);
  filter_->setSourceModel(model_);
  filter_->setFilterRole(kSearchRole);
  filter_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  filter_->setRecursiveFilteringEnabled(true);
  fillModel();

  search_ = new QLineEdit(this);
  search_->setObjectName(QStringLiteral("exampleSearch"));
  search_->setPlaceholderText(tr("Search examples: name, family, description, outcome…"));
  search_->setClearButtonEnabled(true);
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) {
    filter_->setFilterFixedString(text);
    list_->expandAll();
  });

  list_ = new QTreeView(this);
  list_->setObjectName(QStringLiteral("exampleList"));
  list_->setModel(filter_);
  list_->setUniformRowHeights(true);
  list_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  list_->setAlternatingRowColors(true);
  list_->expandAll();
  list_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  list_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  list_->header()->setStretchLastSection(true);
  connect(list_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& index) {
    const QString name = index.siblingAtColumn(0).data(kNameRole).toString();
    if (!name.isEmpty()) showDetails(name);
  });
  connect(list_, &QTreeView::activated, this, [this](const QModelIndex& index) {
    if (!index.siblingAtColumn(0).data(kNameRole).toString().isEmpty()) requestTrace();
  });

  auto* left = new QWidget(this);
  auto* left_layout = new QVBoxLayout(left);
  left_layout->setContentsMargins(0, 0, 0, 0);
  left_layout->addWidget(search_);
  left_layout->addWidget(list_);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(left);
  splitter->addWidget(makeDetails());
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(makeHeader());
  layout->addWidget(splitter, 1);
  if (!examples_.empty()) selectExample(q(examples_.front().name));
  list_->scrollToTop();  // the first family's title too
}

QWidget* ExamplesGallery::makeHeader() {
  auto* header = new QWidget(this);
  auto* layout = new QHBoxLayout(header);
  layout->setContentsMargins(0, 0, 0, 4);
  auto* intro = new QLabel(tr("<b>Examples</b> — every example of the torch.export tutorials and the book chapter, "
                              "ported to C++ and traced by ExportLens "
                              "(as torch.export.export would). Pick one and press Trace, or open a program."),
                           header);
  intro->setWordWrap(true);
  layout->addWidget(intro, 1);
  auto add_button = [&](const QString& text, void (ExamplesGallery::*signal)()) {
    auto* button = new QPushButton(text, header);
    connect(button, &QPushButton::clicked, this, signal);
    layout->addWidget(button);
  };
  add_button(tr("Open .pt2…"), &ExamplesGallery::openFileRequested);
  add_button(tr("Open C++ model…"), &ExamplesGallery::openModelRequested);
  add_button(tr("Built-in .pt2 example"), &ExamplesGallery::builtinExampleRequested);
  return header;
}

QWidget* ExamplesGallery::makeDetails() {
  auto* details = new QWidget(this);
  title_ = new QLabel(details);
  QFont title_font = title_->font();
  title_font.setPointSizeF(title_font.pointSizeF() * 1.4);
  title_font.setBold(true);
  title_->setFont(title_font);
  facts_ = wrapping_label(details);
  description_ = wrapping_label(details);
  expected_ = wrapping_label(details);
  expected_->setObjectName(QStringLiteral("exampleExpected"));
  notes_ = wrapping_label(details);

  spec_ = new QPlainTextEdit(details);
  spec_->setObjectName(QStringLiteral("exampleSpec"));
  spec_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  spec_->setPlaceholderText(tr("No dynamic_shapes: every dimension static. Type a spec, e.g.\n"
                               "dynamic_shapes = {'x': {0: Dim('batch')}}"));
  spec_->setMaximumHeight(spec_->fontMetrics().lineSpacing() * 6 + 12);  // a two-input spec with dims()
  spec_->setToolTip(tr("The dynamic_shapes spec the trace uses, in Python syntax"));

  trace_button_ = new QPushButton(tr("Trace"), details);
  trace_button_->setObjectName(QStringLiteral("traceExampleButton"));
  trace_button_->setDefault(true);
  trace_button_->setToolTip(tr("Trace the example with this spec and show its program"));
  connect(trace_button_, &QPushButton::clicked, this, &ExamplesGallery::requestTrace);
  reset_button_ = new QPushButton(tr("Reset spec"), details);
  reset_button_->setToolTip(tr("Back to the example's own spec"));
  connect(reset_button_, &QPushButton::clicked, this, [this] {
    if (const auto* e = find(current_)) spec_->setPlainText(q(e->dynamic_shapes));
  });
  fixes_button_ = new QPushButton(tr("Apply suggested fixes"), details);
  fixes_button_->setObjectName(QStringLiteral("applyFixesButton"));
  fixes_button_->setToolTip(tr("Put torch's suggested fixes into the spec and trace again"));
  fixes_button_->hide();
  connect(fixes_button_, &QPushButton::clicked, this, [this] {
    spec_->setPlainText(fixed_spec_);
    requestTrace();
  });
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(trace_button_);
  buttons->addWidget(reset_button_);
  buttons->addWidget(fixes_button_);
  buttons->addStretch(1);

  result_ = wrapping_label(details);
  result_->setObjectName(QStringLiteral("exampleResult"));
  error_view_ = new TraceErrorView(details);
  error_view_->hide();

  auto* layout = new QVBoxLayout(details);
  layout->setContentsMargins(8, 0, 0, 0);
  layout->addWidget(title_);
  layout->addWidget(facts_);
  layout->addWidget(description_);
  layout->addWidget(expected_);
  layout->addWidget(notes_);
  layout->addSpacing(6);
  layout->addWidget(new QLabel(tr("<b>dynamic_shapes</b>"), details));
  layout->addWidget(spec_);
  layout->addLayout(buttons);
  layout->addWidget(result_);
  layout->addWidget(error_view_, 1);
  layout->addStretch(0);
  return details;
}

void ExamplesGallery::fillModel() {
  model_->setHorizontalHeaderLabels({tr("Example"), tr("Outcome in torch"), tr("Description")});
  std::map<std::string, QStandardItem*> families;
  for (const auto& e : examples_) {
    QStandardItem*& family = families[e.family];
    if (!family) {
      family = new QStandardItem(q(e.family));
      QFont bold = family->font();
      bold.setBold(true);
      family->setFont(bold);
      model_->appendRow({family, new QStandardItem, new QStandardItem});
    }
    const QString expected = expected_outcome_text(e.expected);
    auto* name = new QStandardItem(q(e.name));
    name->setData(q(e.name), kNameRole);
    name->setData(QStringList{q(e.name), q(e.family), q(e.description), expected, q(e.document)}.join('\n'), kSearchRole);
    name->setToolTip(q(e.description));
    auto* outcome = new QStandardItem(short_outcome(e.expected));
    outcome->setToolTip(expected);
    if (e.expected != "ok") outcome->setForeground(QColor(0xb3, 0x26, 0x1e));
    auto* description = new QStandardItem(q(e.description));
    description->setToolTip(q(e.description));
    family->appendRow({name, outcome, description});
  }
  // Families appear in gallery order: each row is added when first met.
}

QStringList ExamplesGallery::visibleNames() const {
  QStringList names;
  for (int f = 0; f < filter_->rowCount(); ++f) {
    const QModelIndex family = filter_->index(f, 0);
    for (int r = 0; r < filter_->rowCount(family); ++r) names << filter_->index(r, 0, family).data(kNameRole).toString();
  }
  return names;
}

const trace::ModelSummary* ExamplesGallery::find(const QString& name) const {
  for (const auto& e : examples_)
    if (q(e.name) == name) return &e;
  return nullptr;
}

void ExamplesGallery::selectExample(const QString& name) {
  const QModelIndexList hits = model_->match(model_->index(0, 0), kNameRole, name, 1,
                                             Qt::MatchExactly | Qt::MatchRecursive);
  if (hits.isEmpty()) return;
  const QModelIndex index = filter_->mapFromSource(hits.front());
  if (index.isValid()) {
    list_->setCurrentIndex(index);
    list_->scrollTo(index);
  }
  showDetails(name);
}

void ExamplesGallery::showDetails(const QString& name) {
  const trace::ModelSummary* e = find(name);
  if (!e || name == current_) return;
  current_ = name;
  title_->setText(name);
  facts_->setText(tr("Family: %1 · from the %2 · %3").arg(q(e->family), q(e->document),
                                                        e->strict ? tr("strict=True") : tr("strict=False")));
  description_->setText(q(e->description));
  expected_->setText(tr("<b>torch.export:</b> %1").arg(expected_outcome_text(e->expected).toHtmlEscaped()));
  notes_->setText(q(e->notes));
  notes_->setVisible(!e->notes.empty());
  spec_->setPlainText(q(e->dynamic_shapes));
  result_->clear();
  error_view_->hide();
  fixes_button_->hide();
}

std::optional<QString> ExamplesGallery::editedSpec() const {
  const trace::ModelSummary* e = find(current_);
  const QString text = spec_->toPlainText();
  if (e && text.trimmed() == q(e->dynamic_shapes).trimmed()) return std::nullopt;
  return text;
}

void ExamplesGallery::requestTrace() {
  if (!current_.isEmpty()) emit traceRequested(current_, editedSpec());
}

void ExamplesGallery::showTracing(const QString& name) {
  selectExample(name);
  error_view_->hide();
  fixes_button_->hide();
  result_->setText(tr("Tracing %1…").arg(name));
}

void ExamplesGallery::showTraced(const QString& name, const QString& summary) {
  selectExample(name);
  error_view_->hide();
  fixes_button_->hide();
  result_->setText(summary);
}

void ExamplesGallery::showFailure(const QString& name, const TraceFailure& failure) {
  selectExample(name);
  result_->setText(tr("<b>Traced in %1 ms; the export failed</b> — the window keeps the program it showed.")
                       .arg(failure.traceMs, 0, 'f', 1));
  error_view_->setFailure(name, failure);
  error_view_->show();
  fixed_spec_ = failure.fixedSpec;
  fixes_button_->setVisible(!fixed_spec_.isEmpty());
}

}  // namespace exportlens::ui
