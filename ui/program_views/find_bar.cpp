#include "ui/program_views/find_bar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

#include "ui/core/program_model.h"

namespace exportlens::ui {

FindBar::FindBar(QWidget* parent)
    : QWidget(parent),
      field_(new QLineEdit(this)),
      previous_(new QToolButton(this)),
      next_(new QToolButton(this)),
      count_(new QLabel(this)) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 0, 4, 0);
  layout->setSpacing(2);
  field_->setPlaceholderText(tr("Find node (Ctrl+F)"));
  field_->setClearButtonEnabled(true);
  field_->setMinimumWidth(200);
  field_->installEventFilter(this);
  previous_->setArrowType(Qt::UpArrow);
  previous_->setToolTip(tr("Previous match (Shift+Enter)"));
  previous_->setAutoRaise(true);
  next_->setArrowType(Qt::DownArrow);
  next_->setToolTip(tr("Next match (Enter)"));
  next_->setAutoRaise(true);
  count_->setMinimumWidth(count_->fontMetrics().horizontalAdvance(QStringLiteral("888 / 888")));
  count_->setAlignment(Qt::AlignCenter);
  layout->addWidget(field_);
  layout->addWidget(previous_);
  layout->addWidget(next_);
  layout->addWidget(count_);
  connect(field_, &QLineEdit::textChanged, this, &FindBar::onTextChanged);
  connect(previous_, &QToolButton::clicked, this, &FindBar::findPrevious);
  connect(next_, &QToolButton::clicked, this, &FindBar::findNext);
  updateCount();
}

void FindBar::setProgram(const LoadedProgramPtr& program) {
  finder_.setProgram(program);
  finder_.search(field_->text());
  updateCount();
}

void FindBar::activate() {
  field_->setFocus(Qt::ShortcutFocusReason);
  field_->selectAll();
}

void FindBar::findNext() { show(finder_.next()); }
void FindBar::findPrevious() { show(finder_.previous()); }

void FindBar::onTextChanged(const QString& text) {
  finder_.search(text);
  // Jump to the first match as the user types, like a browser's find.
  if (!finder_.matches().isEmpty()) {
    show(finder_.next());
  } else {
    updateCount();
  }
}

void FindBar::show(const QString& name) {
  updateCount();
  if (!name.isEmpty()) emit nodeFound(name);
}

void FindBar::updateCount() {
  const int n = static_cast<int>(finder_.matches().size());
  const bool searching = !field_->text().trimmed().isEmpty();
  count_->setText(!searching ? QString() : n == 0 ? tr("none") : tr("%1 / %2").arg(finder_.currentIndex() + 1).arg(n));
  previous_->setEnabled(n > 0);
  next_->setEnabled(n > 0);
}

bool FindBar::eventFilter(QObject* watched, QEvent* event) {
  if (watched == field_ && event->type() == QEvent::KeyPress) {
    auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
      (key->modifiers() & Qt::ShiftModifier) ? findPrevious() : findNext();
      return true;
    }
    if (key->key() == Qt::Key_Escape) {
      emit dismissed();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

void FindBar::follow(ProgramModel* model) {
  connect(model, &ProgramModel::programChanged, this, [this, model] { setProgram(model->loaded()); });
  connect(this, &FindBar::nodeFound, model, &ProgramModel::selectNode);
}

}  // namespace exportlens::ui
