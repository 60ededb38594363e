#include "ui/shapes/dim_spec_editor.h"

#include <algorithm>

#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QToolButton>

#include <climits>

namespace exportlens::ui {
namespace {

using symbolic::DimSpec;

constexpr int kUnset = -1;  // spin boxes of optional bounds show "–" at -1

QSpinBox* make_spin(QWidget* parent, const QString& prefix, int low, int value, const QString& tip) {
  auto* box = new QSpinBox(parent);
  box->setRange(low, INT_MAX);
  box->setPrefix(prefix);
  box->setValue(value);
  box->setToolTip(tip);
  box->setAccelerated(true);
  return box;
}

DimSpecEditor::Choice choice_of(DimSpec::Kind kind) {
  switch (kind) {
    case DimSpec::Kind::Auto: return DimSpecEditor::Auto;
    case DimSpec::Kind::Dynamic: return DimSpecEditor::Dynamic;
    case DimSpec::Kind::Named: return DimSpecEditor::Named;
    case DimSpec::Kind::Derived: return DimSpecEditor::Derived;
    case DimSpec::Kind::Int: return DimSpecEditor::Integer;
    default: return DimSpecEditor::Static;
  }
}

}  // namespace

DimSpecEditor::DimSpecEditor(QWidget* parent)
    : QWidget(parent),
      kind_(new QComboBox(this)),
      name_(new QComboBox(this)),
      coeff_(make_spin(this, QString(), 1, 1, tr("A in A*dim + B"))),
      offset_(make_spin(this, QStringLiteral("+ "), INT_MIN, 0, tr("B in A*dim + B"))),
      min_(make_spin(this, tr("min "), kUnset, kUnset, tr("Lower bound (– for none)"))),
      max_(make_spin(this, tr("max "), kUnset, kUnset, tr("Upper bound (– for none: unbounded)"))),
      value_(make_spin(this, QString(), 0, 1, tr("The static size"))),
      done_(new QToolButton(this)) {
  setAutoFillBackground(true);
  kind_->addItems({tr("STATIC"), tr("AUTO"), tr("DYNAMIC"), tr("Dim"), tr("A*dim + B"), tr("int")});
  kind_->setToolTip(tr("STATIC: fixed to the example size; AUTO: dynamic if the program allows; DYNAMIC: must stay "
                       "dynamic; Dim: a named dimension (shared by every use); A*dim + B: derived from a Dim"));
  name_->setEditable(true);
  name_->setInsertPolicy(QComboBox::NoInsert);
  name_->lineEdit()->setPlaceholderText(tr("name"));
  name_->setMinimumContentsLength(6);
  coeff_->setSuffix(QStringLiteral(" ×"));
  min_->setSpecialValueText(tr("min –"));
  max_->setSpecialValueText(tr("max –"));
  done_->setText(QStringLiteral("✓"));
  done_->setToolTip(tr("Apply (Enter)"));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(1, 1, 1, 1);
  row->setSpacing(3);
  for (QWidget* w : std::initializer_list<QWidget*>{kind_, coeff_, name_, offset_, value_, min_, max_, done_})
    row->addWidget(w);
  setFocusProxy(kind_);
  connect(kind_, &QComboBox::currentIndexChanged, this, [this](int i) { showFieldsFor(static_cast<Choice>(i)); });
  connect(name_, &QComboBox::textActivated, this, &DimSpecEditor::loadBoundsOf);
  connect(done_, &QToolButton::clicked, this, &DimSpecEditor::editingDone);
  showFieldsFor(Static);
}

void DimSpecEditor::setKnownDims(const std::map<std::string, symbolic::DimDecl>& dims) {
  known_ = dims;
  const QString current = name_->currentText();
  name_->clear();
  for (const auto& [name, decl] : dims) name_->addItem(QString::fromStdString(name));
  name_->setEditText(current);
}

void DimSpecEditor::showFieldsFor(Choice choice) {
  const bool bounded = choice == Auto || choice == Dynamic || choice == Named;
  name_->setVisible(choice == Named || choice == Derived);
  name_->setToolTip(choice == Derived ? tr("The root Dim") : tr("The Dim's name"));
  coeff_->setVisible(choice == Derived);
  offset_->setVisible(choice == Derived);
  value_->setVisible(choice == Integer);
  min_->setVisible(bounded);
  max_->setVisible(bounded);
  if (parentWidget()) resize(std::max(width(), sizeHint().width()), height());  // in a cell: room for the fields
}

void DimSpecEditor::loadBoundsOf(const QString& name) {
  if (choice() != Named) return;
  auto it = known_.find(name.toStdString());
  if (it == known_.end()) return;
  setOptional(min_, it->second.min);
  setOptional(max_, it->second.max);
}

DimSpecEditor::Choice DimSpecEditor::choice() const { return static_cast<Choice>(kind_->currentIndex()); }

void DimSpecEditor::setChoice(Choice choice) { kind_->setCurrentIndex(choice); }

void DimSpecEditor::setOptional(QSpinBox* box, const std::optional<int64_t>& v) {
  box->setValue(v ? static_cast<int>(std::clamp<int64_t>(*v, 0, INT_MAX)) : kUnset);
}

std::optional<int64_t> DimSpecEditor::optional(const QSpinBox* box) {
  return box->value() == kUnset ? std::nullopt : std::optional<int64_t>(box->value());
}

void DimSpecEditor::setValue(const DimEdit& edit) {
  const DimSpec& d = edit.spec;
  setChoice(choice_of(d.kind));
  name_->setEditText(QString::fromStdString(d.dim));
  coeff_->setValue(static_cast<int>(d.coeff));
  offset_->setValue(static_cast<int>(d.offset));
  value_->setValue(static_cast<int>(d.value));
  if (d.kind == DimSpec::Kind::Named && edit.decl) {
    setOptional(min_, edit.decl->min);
    setOptional(max_, edit.decl->max);
  } else {
    setOptional(min_, d.min);
    setOptional(max_, d.max);
  }
}

DimEdit DimSpecEditor::value() const {
  DimEdit edit;
  DimSpec& d = edit.spec;
  const std::string name = name_->currentText().trimmed().toStdString();
  switch (choice()) {
    case Static: d.kind = DimSpec::Kind::Static; break;
    case Auto:
    case Dynamic:
      d.kind = choice() == Auto ? DimSpec::Kind::Auto : DimSpec::Kind::Dynamic;
      d.min = optional(min_);
      d.max = optional(max_);
      break;
    case Named:
      d.kind = DimSpec::Kind::Named;
      d.dim = name;
      edit.decl = symbolic::DimDecl{name, optional(min_), optional(max_)};
      break;
    case Derived:
      d.kind = DimSpec::Kind::Derived;
      d.dim = name;
      d.coeff = coeff_->value();
      d.offset = offset_->value();
      break;
    case Integer:
      d.kind = DimSpec::Kind::Int;
      d.value = value_->value();
      break;
  }
  return edit;
}

QString DimSpecEditor::problem() const {
  if (choice() != Named && choice() != Derived) return {};
  static const QRegularExpression identifier(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
  const QString name = name_->currentText().trimmed();
  if (name.isEmpty()) return choice() == Named ? tr("give the Dim a name") : tr("name the root Dim");
  if (!identifier.match(name).hasMatch()) return tr("'%1' is not a Python name").arg(name);
  return {};
}

}  // namespace exportlens::ui
