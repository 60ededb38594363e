#include "ui/compiled/numbered_text_edit.h"

#include <QPainter>
#include <QPaintEvent>
#include <algorithm>
#include <QTextBlock>

namespace exportlens::ui {
namespace {

class Margin : public QWidget {
 public:
  explicit Margin(NumberedTextEdit* edit) : QWidget(edit), edit_(edit) {}
  QSize sizeHint() const override { return {edit_->marginWidth(), 0}; }

 protected:
  void paintEvent(QPaintEvent* event) override { edit_->paintMargin(event); }

 private:
  NumberedTextEdit* edit_;
};

}  // namespace

NumberedTextEdit::NumberedTextEdit(QWidget* parent) : QPlainTextEdit(parent), margin_(new Margin(this)) {
  setReadOnly(true);
  setLineWrapMode(QPlainTextEdit::NoWrap);
  setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(marginWidth(), 0, 0, 0); });
  connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
    if (dy) {
      margin_->scroll(0, dy);
    } else {
      margin_->update(0, rect.y(), margin_->width(), rect.height());
    }
  });
  setViewportMargins(marginWidth(), 0, 0, 0);
}

int NumberedTextEdit::marginWidth() const {
  int digits = 1;
  for (int n = std::max(1, blockCount()); n >= 10; n /= 10) ++digits;
  return 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 3);
}

void NumberedTextEdit::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect inner = contentsRect();
  margin_->setGeometry(QRect(inner.left(), inner.top(), marginWidth(), inner.height()));
}

void NumberedTextEdit::paintMargin(QPaintEvent* event) {
  QPainter painter(margin_);
  painter.fillRect(event->rect(), palette().alternateBase());
  painter.setPen(palette().color(QPalette::PlaceholderText));
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  int bottom = top + qRound(blockBoundingRect(block).height());
  while (block.isValid() && top <= event->rect().bottom()) {
    if (block.isVisible() && bottom >= event->rect().top())
      painter.drawText(0, top, margin_->width() - 6, fontMetrics().height(), Qt::AlignRight,
                       QString::number(block.blockNumber() + 1));
    block = block.next();
    top = bottom;
    bottom = top + qRound(blockBoundingRect(block).height());
  }
}

}  // namespace exportlens::ui
