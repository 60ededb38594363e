#include "ui/shapes/spec_text_editor.h"

#include <algorithm>

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QVBoxLayout>

#include "engine/symbolic/dynamic_shapes_spec.h"
#include "ui/shapes/spec_document.h"

namespace exportlens::ui {
namespace {

constexpr int kParseDelayMs = 400;

}  // namespace

SpecTextEditor::SpecTextEditor(SpecDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), text_(new QPlainTextEdit(this)), status_(new QLabel(this)) {
  text_->setObjectName(QStringLiteral("specText"));
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setTabChangesFocus(false);
  text_->setPlaceholderText(QStringLiteral("dx = Dim(\"dx\", min=4)\ndynamic_shapes = {\"x\": (dx, None)}"));
  status_->setObjectName(QStringLiteral("specTextStatus"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(text_, 1);
  layout->addWidget(status_);
  parse_timer_.setSingleShot(true);
  parse_timer_.setInterval(kParseDelayMs);
  connect(&parse_timer_, &QTimer::timeout, this, &SpecTextEditor::parseNow);
  connect(text_, &QPlainTextEdit::textChanged, this, [this] {
    if (!showing_) parse_timer_.start();
  });
  connect(document_, &SpecDocument::specChanged, this, [this](SpecDocument::Origin origin) {
    if (origin != SpecDocument::Origin::Text) showSpec();
  });
  showSpec();
}

void SpecTextEditor::showSpec() {
  parse_timer_.stop();
  showing_ = true;
  const bool empty = document_->inputs().empty() && document_->spec().form == symbolic::DynamicShapesSpec::Form::Unset;
  text_->setPlainText(empty ? QString() : QString::fromStdString(symbolic::print_dynamic_shapes(document_->spec())));
  showing_ = false;
  clearError();
}

void SpecTextEditor::parseNow() {
  parse_timer_.stop();
  try {
    const auto spec = symbolic::parse_dynamic_shapes(text_->toPlainText().toStdString());
    clearError();
    document_->setSpec(spec, tr("Edit spec text"), SpecDocument::Origin::Text);
  } catch (const symbolic::SpecError& e) {
    showError(QString::fromUtf8(e.what()), e.line(), e.column());
  } catch (const std::exception& e) {
    showError(QString::fromUtf8(e.what()), 0, 0);
  }
}

void SpecTextEditor::showError(const QString& message, int line, int column) {
  error_ = message;
  status_->setText(message);
  status_->setStyleSheet(QStringLiteral("color: #d0453a;"));
  QList<QTextEdit::ExtraSelection> marks;
  const QTextBlock block = text_->document()->findBlockByNumber(line - 1);
  if (line > 0 && block.isValid()) {
    QTextEdit::ExtraSelection mark;
    mark.cursor = QTextCursor(block);
    const int at = std::clamp(column - 1, 0, std::max(0, block.length() - 2));
    mark.cursor.setPosition(block.position() + at);
    mark.cursor.movePosition(QTextCursor::EndOfWord, QTextCursor::KeepAnchor);
    if (!mark.cursor.hasSelection()) mark.cursor.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
    mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    mark.format.setUnderlineColor(QColor(0xd0, 0x45, 0x3a));
    mark.format.setBackground(QColor(0xd0, 0x45, 0x3a, 40));
    marks << mark;
  }
  text_->setExtraSelections(marks);
  emit parseErrorChanged(message);
}

void SpecTextEditor::clearError() {
  const bool had = !error_.isEmpty();
  error_.clear();
  status_->setStyleSheet(QString());
  status_->setText(tr("Python syntax, as passed to torch.export.export(..., dynamic_shapes=...). "
                      "Edits are parsed when you pause typing."));
  text_->setExtraSelections({});
  if (had) emit parseErrorChanged(QString());
}

}  // namespace exportlens::ui
