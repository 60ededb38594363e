#pragma once
// Screenshots the GUI suites save for review (build/screenshots/) and the
// README. A screenshot is a claim that something was drawn, so saving one
// checks it: the grab has the widget's size, is not one flat colour (a window
// that painted nothing, or only its background), and reads back from disk.
#include <QDir>
#include <QImage>
#include <QPixmap>
#include <QSet>
#include <QString>
#include <QTest>
#include <QWidget>

namespace exportlens::testing {

/// Distinct colours in `image`, counted on a grid (enough to tell a drawn
/// window from an empty one without visiting every pixel).
inline int distinct_colours(const QImage& image, int step = 4) {
  QSet<QRgb> seen;
  for (int y = 0; y < image.height(); y += step)
    for (int x = 0; x < image.width(); x += step) seen.insert(image.pixel(x, y));
  return int(seen.size());
}

/// "" when `image` looks drawn: at least `min_size` and more than a handful of colours.
inline QString blank_reason(const QImage& image, QSize min_size) {
  if (image.isNull()) return QStringLiteral("the grab is empty");
  if (image.width() < min_size.width() || image.height() < min_size.height())
    return QStringLiteral("the grab is %1x%2, smaller than %3x%4")
        .arg(image.width()).arg(image.height()).arg(min_size.width()).arg(min_size.height());
  if (const int colours = distinct_colours(image); colours < 8)
    return QStringLiteral("the grab has only %1 colours: nothing was drawn").arg(colours);
  return {};
}

/// Grabs `widget`, checks the picture (its size is the widget's, it is not
/// blank) and saves it as build/screenshots/`name`. It fails the running test
/// itself (QVERIFY inside a helper returns from the helper only: a caller with
/// more to check after it tests QTest::currentTestFailed()).
inline void save_screenshot(QWidget* widget, const QString& name, QSize min_size = QSize(200, 120)) {
  QVERIFY(widget);
  const QString dir = QStringLiteral(EXPORTLENS_BINARY_DIR "/screenshots");
  QVERIFY(QDir().mkpath(dir));
  const QImage image = widget->grab().toImage();
  const QSize expected = widget->size() * widget->devicePixelRatioF();
  QVERIFY2(image.size() == expected, qPrintable(name + ": grab size differs from the widget's"));
  const QString blank = blank_reason(image, min_size);
  QVERIFY2(blank.isEmpty(), qPrintable(name + ": " + blank));
  const QString path = dir + QLatin1Char('/') + name;
  QVERIFY2(image.save(path), qPrintable("cannot write " + path));
  QCOMPARE(QImage(path).size(), image.size());
}

}  // namespace exportlens::testing
