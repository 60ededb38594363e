#include "ui/core/node_run_facts.h"

#include <QObject>

namespace exportlens::ui {

QString byte_text(int64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (bytes < 1024) return QObject::tr("%1 B").arg(bytes);
  if (b < 1024.0 * 1024) return QObject::tr("%1 KiB").arg(b / 1024, 0, 'f', 1);
  if (b < 1024.0 * 1024 * 1024) return QObject::tr("%1 MiB").arg(b / (1024.0 * 1024), 0, 'f', 2);
  return QObject::tr("%1 GiB").arg(b / (1024.0 * 1024 * 1024), 0, 'f', 2);
}

QString run_facts_html(const NodeRunFacts& f, const QString& label) {
  const auto& t = f.time;
  QString html = QStringLiteral("<h4 style=\"margin-bottom:2px;\">%1</h4>").arg(QObject::tr("Last run"));
  html += QObject::tr("<p style=\"margin-top:0;\">%1 ms on %2 <span style=\"color:%3;\">(%4, %5 % of the node times)</span>")
              .arg(t.milliseconds, 0, 'f', 4)
              .arg(f.device.toHtmlEscaped(), label, f.timeSource.toHtmlEscaped())
              .arg(100.0 * f.share, 0, 'f', 1);
  if (t.live_bytes)
    html += QObject::tr("<br>memory after it: %1 live, %2 peak while it ran")
                .arg(byte_text(*t.live_bytes), byte_text(t.peak_bytes.value_or(*t.live_bytes)));
  html += QStringLiteral("</p>");
  if (t.kernels.empty()) return html;
  html += QObject::tr("<p style=\"margin-bottom:2px;\">%n kernel(s):</p>", nullptr, static_cast<int>(t.kernels.size()));
  html += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"2\"><tr style=\"color:%1;\"><td>%2</td><td align=\"right\">%3</td>"
                         "<td>%4</td><td>%5</td></tr>")
              .arg(label, QObject::tr("kernel"), QObject::tr("ms"), QObject::tr("grid"), QObject::tr("block"));
  auto dims = [](const std::array<int, 3>& d) { return QStringLiteral("%1×%2×%3").arg(d[0]).arg(d[1]).arg(d[2]); };
  for (const auto& k : t.kernels) {
    QString name = QString::fromStdString(k.name);
    if (name.size() > 60) name = name.left(57) + QStringLiteral("…");
    html += QStringLiteral("<tr><td><code>%1</code></td><td align=\"right\">%2</td><td>%3</td><td>%4</td></tr>")
                .arg(name.toHtmlEscaped())
                .arg(k.ms, 0, 'f', 4)
                .arg(dims(k.grid), dims(k.block));
  }
  return html + QStringLiteral("</table>");
}

}  // namespace exportlens::ui
