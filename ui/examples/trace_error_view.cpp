#include "ui/examples/trace_error_view.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QVBoxLayout>

namespace exportlens::ui {

TraceErrorView::TraceErrorView(QWidget* parent) : QTextBrowser(parent) {
  setObjectName(QStringLiteral("traceErrorView"));
  setOpenLinks(false);
  setMinimumHeight(120);
}

void TraceErrorView::setFailure(const QString& what, const TraceFailure& failure) {
  failure_ = failure;
  const QString error_colour = palette().color(QPalette::Text).lightness() > 128 ? QStringLiteral("#ff7b72")
                                                                                   : QStringLiteral("#b3261e");
  // No exception type: the model never ran (an unloadable library, an unknown example).
  const QString heading = failure.type.isEmpty() ? tr("Could not load %1").arg(what)
                                                 : tr("%1 does not export: %2").arg(what, failure.title());
  QString html = QStringLiteral("<h3 style='color:%1'>%2</h3>").arg(error_colour, heading.toHtmlEscaped());
  // The fixes first: the message that also holds them can be long.
  if (failure.report && !failure.report->suggested_fixes_text.empty())
    html += QStringLiteral("<p><b>%1</b></p><pre>%2</pre>")
                .arg(tr("Suggested fixes:"),
                     QString::fromStdString(failure.report->suggested_fixes_text).trimmed().toHtmlEscaped());
  if (!failure.type.isEmpty()) html += QStringLiteral("<p><b>%1</b> <code>%2</code>").arg(tr("Exception:"), failure.type.toHtmlEscaped());
  if (!failure.kind.isEmpty()) html += QStringLiteral("<br><b>%1</b> %2").arg(tr("Kind:"), failure.kind.toHtmlEscaped());
  html += QStringLiteral("</p>");
  if (!failure.sources.isEmpty()) {
    html += QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("C++ source:"));
    for (const QString& s : failure.sources) html += QStringLiteral("<li><code>%1</code></li>").arg(s.toHtmlEscaped());
    html += QStringLiteral("</ul>");
  }
  html += QStringLiteral("<p><b>%1</b></p><pre style='white-space:pre-wrap'>%2</pre>")
              .arg(tr("Message:"), failure.message.toHtmlEscaped());
  setHtml(html);
}

void show_trace_error_dialog(QWidget* parent, const QString& what, const TraceFailure& failure) {
  auto* dialog = new QDialog(parent);
  dialog->setObjectName(QStringLiteral("traceErrorDialog"));
  dialog->setWindowTitle(failure.type.isEmpty() ? QObject::tr("Could not load the model")
                                                : QObject::tr("Export failed"));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  auto* view = new TraceErrorView(dialog);
  view->setFailure(what, failure);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
  QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(view);
  layout->addWidget(buttons);
  dialog->resize(760, 480);
  dialog->open();  // not exec(): the window stays responsive (and scriptable in tests)
}

}  // namespace exportlens::ui
