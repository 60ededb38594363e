#pragma once
// A drawn graph (any QGraphicsScene, or the part of it a view shows) written
// as SVG, PNG or PDF: the pictures for a bug report or a slide. Each is drawn
// at the resolution the layout measured its labels at (the screen's logical
// DPI), so text fits its box as on screen. Vector formats keep the scene's
// coordinates (1 scene unit = 1 px at that DPI: an SVG's user unit, a PDF's
// size on screen); a PNG is drawn at `scale` device pixels per unit, made
// smaller where its longer side would pass kMaxPngSide, a PDF page where it
// would pass kMaxPdfSide.
#include <QColor>
#include <QRectF>
#include <QString>

#include <optional>

class QGraphicsScene;

namespace exportlens::ui {

enum class ImageFormat { Svg, Png, Pdf };

/// "svg", "png", "pdf" (any case); nullopt otherwise.
std::optional<ImageFormat> image_format_named(const QString& name);
/// From a file name's suffix.
std::optional<ImageFormat> image_format_of(const QString& path);
QString image_format_suffix(ImageFormat f);  // "svg"
/// The file dialog filter ("SVG image (*.svg)").
QString image_format_filter(ImageFormat f);

inline constexpr int kMaxPngSide = 16384;
inline constexpr int kMaxPdfSide = 14400;  // points: 200 inches

struct ImageOptions {
  QColor background = Qt::white;  // render_program_image: an invalid colour takes the canvas's
  qreal png_scale = 2.0;  // device pixels per scene unit
  qreal margin = 16;      // scene units around the source rectangle
};

/// Writes `source` of `scene` to `path`. Throws std::runtime_error naming the
/// path when it cannot be written.
void write_scene_image(QGraphicsScene& scene, const QRectF& source, ImageFormat format, const QString& path,
                       const ImageOptions& options = {});

}  // namespace exportlens::ui
