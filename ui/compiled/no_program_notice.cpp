#include "ui/compiled/no_program_notice.h"

#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace exportlens::ui {

NoProgramNotice::NoProgramNotice(QWidget* over)
    : QFrame(over), label_(new QLabel(this)), link_(new QPushButton(tr("Link Program File…"), this)) {
  setObjectName(QStringLiteral("noProgramNotice"));
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  label_->setWordWrap(true);
  label_->setAlignment(Qt::AlignCenter);
  label_->setTextFormat(Qt::RichText);
  label_->setFixedWidth(label_->fontMetrics().averageCharWidth() * 52);
  link_->setObjectName(QStringLiteral("noticeLinkButton"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(18, 14, 18, 14);
  layout->addWidget(label_);
  layout->addWidget(link_, 0, Qt::AlignHCenter);
  connect(link_, &QPushButton::clicked, this, &NoProgramNotice::linkRequested);
  over->installEventFilter(this);
  hide();
}

QString NoProgramNotice::text() const { return label_->text(); }

void NoProgramNotice::showFor(const QString& archive, const QString& kind) {
  label_->setText(tr("<p><b>%1</b> holds compiled code only: %2.</p>"
                     "<p>There is no graph to draw. Link the exported program it was compiled from "
                     "to see its graph with each kernel on the nodes it computes.</p>"
                     "<p>Its metadata, kernels, sources and files are in the Compiled model dock.</p>")
                      .arg(QFileInfo(archive).fileName().toHtmlEscaped(), kind.toHtmlEscaped()));
  place();
  show();
  raise();
}

void NoProgramNotice::place() {
  const QSize hint = sizeHint().boundedTo(parentWidget()->size());
  resize(hint);
  move((parentWidget()->width() - hint.width()) / 2, (parentWidget()->height() - hint.height()) / 3);
}

bool NoProgramNotice::eventFilter(QObject* watched, QEvent* event) {
  if (watched == parentWidget() && event->type() == QEvent::Resize && isVisible()) place();
  return QFrame::eventFilter(watched, event);
}

}  // namespace exportlens::ui
