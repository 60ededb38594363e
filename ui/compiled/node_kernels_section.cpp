#include "ui/compiled/node_kernels_section.h"

#include <QFileInfo>

#include "ui/compiled/compiled_session.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {

QString node_kernels_html(const CompiledSession& session, const QString& node, const QPalette& palette) {
  const compiled::CompiledModel* m = session.model();
  const QList<int> kernels = session.kernelsOf(node);
  if (!m || kernels.isEmpty()) return {};
  const QHash<int, double> ms = session.kernelMilliseconds();
  QString rows;
  for (int k : kernels) {
    const compiled::Kernel& kernel = m->kernels[k];
    QString facts = kernel.mapped_by.empty() ? QString() : qs(kernel.mapped_by);
    if (const auto t = ms.constFind(k); t != ms.constEnd()) facts += QObject::tr(", %1 ms").arg(*t, 0, 'f', 4);
    const int others = int(session.nodesOf(k).size()) - 1;
    if (others > 0) facts += QObject::tr(", with %n other node(s)", nullptr, others);
    QStringList sources;
    if (!kernel.defined_in.empty())
      sources << QStringLiteral("<a href=\"%1:%2\">%3</a>").arg(QLatin1String(kKernelSourceLinkScheme)).arg(k).arg(QObject::tr("definition"));
    if (!kernel.wrapper_entry.empty())
      sources << QStringLiteral("<a href=\"%1:%2\">%3</a>").arg(QLatin1String(kKernelLaunchLinkScheme)).arg(k).arg(QObject::tr("launch"));
    rows += QStringLiteral("<tr><td><a href=\"%1:%2\"><code>%3</code></a></td><td style=\"color:%4;\">%5</td><td>%6</td></tr>")
                .arg(QLatin1String(kKernelLinkScheme))
                .arg(k)
                .arg(qs(kernel.name).toHtmlEscaped(), palette.color(QPalette::PlaceholderText).name(), facts.toHtmlEscaped(),
                     sources.join(QStringLiteral(" · ")));
  }
  return QStringLiteral("<p style=\"margin-top:12px; margin-bottom:3px; color:%1;\"><b>%2</b></p>"
                        "<p style=\"margin:0; color:%3;\">%4</p><table cellspacing=\"0\" cellpadding=\"2\">%5</table>")
      .arg(palette.color(QPalette::Text).name(), QObject::tr("Compiled kernels"),
           palette.color(QPalette::PlaceholderText).name(),
           QObject::tr("%1 › %2").arg(QFileInfo(session.archivePath()).fileName(), qs(m->name)).toHtmlEscaped(), rows);
}

int kernel_of_link(const QUrl& url, bool* source) {
  const bool is_source = url.scheme() == QLatin1String(kKernelSourceLinkScheme) ||
                         url.scheme() == QLatin1String(kKernelLaunchLinkScheme);
  if (!is_source && url.scheme() != QLatin1String(kKernelLinkScheme)) return -1;
  if (source) *source = is_source;
  bool ok = false;
  const int kernel = url.path().toInt(&ok);
  return ok ? kernel : -1;
}

}  // namespace exportlens::ui
