#include "ui/export/graph_image.h"

#include <QFileInfo>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGuiApplication>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QScreen>
#include <QSvgGenerator>

#include <algorithm>
#include <stdexcept>

namespace exportlens::ui {

std::optional<ImageFormat> image_format_named(const QString& name) {
  const QString n = name.toLower();
  if (n == "svg") return ImageFormat::Svg;
  if (n == "png") return ImageFormat::Png;
  if (n == "pdf") return ImageFormat::Pdf;
  return std::nullopt;
}

std::optional<ImageFormat> image_format_of(const QString& path) {
  return image_format_named(QFileInfo(path).suffix());
}

QString image_format_suffix(ImageFormat f) {
  switch (f) {
    case ImageFormat::Svg: return "svg";
    case ImageFormat::Png: return "png";
    case ImageFormat::Pdf: return "pdf";
  }
  return {};
}

QString image_format_filter(ImageFormat f) {
  switch (f) {
    case ImageFormat::Svg: return QObject::tr("SVG image (*.svg)");
    case ImageFormat::Png: return QObject::tr("PNG image (*.png)");
    case ImageFormat::Pdf: return QObject::tr("PDF document (*.pdf)");
  }
  return {};
}

namespace {

[[noreturn]] void cannot_write(const QString& path, const QString& why) {
  throw std::runtime_error((path + ": cannot write the image" + (why.isEmpty() ? QString() : ": " + why)).toStdString());
}

// The resolution the scene's labels were measured at (QFontMetricsF without a
// device uses the primary screen's logical DPI). Every picture is drawn at it,
// so a label takes the room the layout gave it (a font's points become pixels
// at the device's DPI) and only the painter's transform scales.
int layout_dpi() {
  const QScreen* screen = QGuiApplication::primaryScreen();
  return screen ? qRound(screen->logicalDotsPerInchY()) : 96;
}

void draw(QGraphicsScene& scene, QPainter& painter, const QRectF& target, const QRectF& source, const QColor& bg) {
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  painter.fillRect(target, bg);
  scene.render(&painter, target, source, Qt::KeepAspectRatio);
}

}  // namespace

void write_scene_image(QGraphicsScene& scene, const QRectF& source_rect, ImageFormat format, const QString& path,
                       const ImageOptions& options) {
  if (source_rect.isEmpty()) cannot_write(path, "the graph is empty");
  const QRectF source = source_rect.adjusted(-options.margin, -options.margin, options.margin, options.margin);
  // The scene's selection outline is no part of the picture.
  const auto selected = scene.selectedItems();
  for (auto* item : selected) item->setSelected(false);
  struct Reselect {
    const QList<QGraphicsItem*>& items;
    ~Reselect() {
      for (auto* item : items) item->setSelected(true);
    }
  } reselect{selected};

  switch (format) {
    case ImageFormat::Svg: {
      QSvgGenerator svg;
      svg.setFileName(path);
      svg.setResolution(layout_dpi());
      svg.setSize(source.size().toSize());
      svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
      svg.setTitle(QFileInfo(path).completeBaseName());
      svg.setDescription(QStringLiteral("Drawn by ExportLens"));
      QPainter painter;
      if (!painter.begin(&svg)) cannot_write(path, QString());
      draw(scene, painter, QRectF(QPointF(0, 0), source.size()), source, options.background);
      painter.end();
      break;
    }
    case ImageFormat::Png: {
      const qreal longest = std::max(source.width(), source.height());
      const qreal scale = std::min(options.png_scale, kMaxPngSide / std::max<qreal>(longest, 1));
      QImage image((source.size() * scale).toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
      if (image.isNull()) cannot_write(path, "the image is too large to allocate");
      image.setDotsPerMeterX(qRound(layout_dpi() / 0.0254));
      image.setDotsPerMeterY(qRound(layout_dpi() / 0.0254));
      QPainter painter(&image);
      draw(scene, painter, QRectF(QPointF(0, 0), image.size()), source, options.background);
      painter.end();
      if (!image.save(path, "PNG")) cannot_write(path, QString());
      break;
    }
    case ImageFormat::Pdf: {
      // One scene unit per pixel at the layout's DPI (the size on screen), up to
      // the 200-inch page PDF readers accept.
      const int dpi = layout_dpi();
      const qreal longest = std::max(source.width(), source.height()) * 72.0 / dpi;
      const QSizeF drawn = source.size() * std::min<qreal>(1, kMaxPdfSide / std::max<qreal>(longest, 1));
      const QSizeF page = drawn * 72.0 / dpi;
      QPdfWriter pdf(path);
      pdf.setResolution(dpi);
      pdf.setTitle(QFileInfo(path).completeBaseName());
      pdf.setCreator(QStringLiteral("ExportLens"));
      pdf.setPageLayout(QPageLayout(QPageSize(page, QPageSize::Point, QString(), QPageSize::ExactMatch),
                                    QPageLayout::Portrait, QMarginsF()));
      QPainter painter;
      if (!painter.begin(&pdf)) cannot_write(path, QString());
      draw(scene, painter, QRectF(QPointF(0, 0), drawn), source, options.background);
      painter.end();
      break;
    }
  }
  if (!QFileInfo::exists(path)) cannot_write(path, QString());
}

}  // namespace exportlens::ui
