#include "ui/numerics/tensor_slice_view.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace exportlens::ui {
namespace {

constexpr int64_t kMaxPixels = 1024;  // per side of the picture

QRgb colour_of(float v, double scale) {
  if (std::isnan(v)) return qRgb(0xd0, 0x00, 0xd0);
  if (std::isinf(v)) return qRgb(0, 0, 0);
  const double t = scale > 0 ? std::clamp(std::abs(v) / scale, 0.0, 1.0) : 0.0;
  const int fade = static_cast<int>(255 * (1 - t));
  return v >= 0 ? qRgb(255, fade, fade) : qRgb(fade, fade, 255);
}

// Of two values, the one to show for their block: NaN, then Inf, then the larger magnitude.
bool louder(float a, float b) {
  if (std::isnan(b)) return false;
  if (std::isnan(a)) return true;
  return std::abs(a) > std::abs(b);
}

}  // namespace

TensorSliceView::TensorSliceView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(120, 80);
  setMouseTracking(true);
}

void TensorSliceView::setSnapshot(const numerics::TensorSnapshot* snapshot) {
  snapshot_ = snapshot;
  leading_.assign(snapshot && snapshot->sizes.size() > 2 ? snapshot->sizes.size() - 2 : 0, 0);
  rebuild();
}

void TensorSliceView::setLeading(const std::vector<int64_t>& leading) {
  leading_ = leading;
  leading_.resize(snapshot_ && snapshot_->sizes.size() > 2 ? snapshot_->sizes.size() - 2 : 0, 0);
  rebuild();
}

int64_t TensorSliceView::flatIndex(int64_t row, int64_t column) const {
  std::vector<int64_t> index = leading_;
  const size_t rank = snapshot_->sizes.size();
  if (rank >= 2) index.push_back(row);
  if (rank >= 1) index.push_back(column);
  return snapshot_->flat(index);
}

float TensorSliceView::valueAt(int64_t row, int64_t column) const {
  if (!snapshot_ || snapshot_->values.empty() || row < 0 || row >= rows_ || column < 0 || column >= columns_) return NAN;
  return snapshot_->values[static_cast<size_t>(flatIndex(row, column))];
}

void TensorSliceView::rebuild() {
  image_ = QImage();
  rows_ = columns_ = 0;
  scale_ = 0;
  if (snapshot_ && !snapshot_->values.empty()) {
    const auto& s = snapshot_->sizes;
    rows_ = s.size() >= 2 ? s[s.size() - 2] : 1;
    columns_ = s.empty() ? 1 : s.back();
    for (int64_t r = 0; r < rows_; ++r)
      for (int64_t c = 0; c < columns_; ++c)
        if (const float v = valueAt(r, c); std::isfinite(v)) scale_ = std::max(scale_, double(std::abs(v)));
    const int64_t h = std::max<int64_t>(1, std::min(rows_, kMaxPixels)), w = std::max<int64_t>(1, std::min(columns_, kMaxPixels));
    if (rows_ > 0 && columns_ > 0) {
      image_ = QImage(int(w), int(h), QImage::Format_RGB32);
      for (int64_t y = 0; y < h; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image_.scanLine(int(y)));
        const int64_t r0 = y * rows_ / h, r1 = std::max(r0 + 1, (y + 1) * rows_ / h);
        for (int64_t x = 0; x < w; ++x) {
          const int64_t c0 = x * columns_ / w, c1 = std::max(c0 + 1, (x + 1) * columns_ / w);
          float shown = 0;
          bool first = true;
          for (int64_t r = r0; r < r1; ++r)
            for (int64_t c = c0; c < c1; ++c)
              if (const float v = valueAt(r, c); first || louder(v, shown)) shown = v, first = false;
          line[x] = colour_of(shown, scale_);
        }
      }
    }
  }
  update();
}

QRect TensorSliceView::pictureRect() const {
  if (image_.isNull()) return {};
  // Square cells where they fit; otherwise the picture fills the widget.
  const QSize fitted = QSize(int(columns_), int(rows_)).scaled(size(), Qt::KeepAspectRatio);
  const QSize shown = fitted.width() < 8 || fitted.height() < 8 ? size() : fitted;
  return QRect(QPoint(0, 0), shown);
}

void TensorSliceView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().window());
  if (image_.isNull()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QString why = !snapshot_ ? QString()
                        : snapshot_->values.empty()
                            ? tr("values not kept (%1 elements, over the viewer's limit):\nthe statistics and histogram are whole")
                                  .arg(snapshot_->numel())
                            : tr("empty");
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, why);
    return;
  }
  p.drawImage(pictureRect(), image_);
}

bool TensorSliceView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QRect r = pictureRect();
    if (image_.isNull() || !r.contains(help->pos())) {
      QToolTip::hideText();
      return true;
    }
    const int64_t row = std::min(rows_ - 1, int64_t((help->pos().y() - r.top()) * rows_ / std::max(1, r.height())));
    const int64_t column = std::min(columns_ - 1, int64_t((help->pos().x() - r.left()) * columns_ / std::max(1, r.width())));
    QStringList index;
    for (int64_t i : leading_) index << QString::number(i);
    if (snapshot_->sizes.size() >= 2) index << QString::number(row);
    if (!snapshot_->sizes.empty()) index << QString::number(column);
    QToolTip::showText(help->globalPos(), QStringLiteral("[%1] = %2").arg(index.join(", ")).arg(valueAt(row, column), 0, 'g', 7));
    return true;
  }
  return QWidget::event(event);
}

}  // namespace exportlens::ui
