#include "ui/canvas/canvas_palette.h"

#include <algorithm>
#include <array>

namespace exportlens::ui {
namespace {

struct Tint {
  int hue;         // -1 for grey
  int saturation;  // 0..255
};

// One hue per category, spread so neighbours on the canvas stay apart;
// muted ones for the plumbing (views, other) so the heavy ops stand out.
constexpr std::array<Tint, kNodeCategoryCount> kTints = {{
    {130, 120},  // user input: green
    {265, 90},   // parameter: violet
    {325, 110},  // buffer: pink
    {38, 130},   // constant: amber
    {212, 150},  // linear algebra: blue
    {238, 120},  // convolution: indigo
    {180, 120},  // normalization: teal
    {2, 150},    // activation: red
    {92, 110},   // pooling: olive
    {28, 60},    // shape / view: muted brown
    {52, 170},   // reduction: yellow
    {295, 130},  // control flow: magenta
    {18, 220},   // custom op: orange
    {210, 25},   // other: slate
    {-1, 0},     // output: grey
}};

QColor hsl(const Tint& t, int lightness) {
  return QColor::fromHsl(t.hue, t.hue < 0 ? 0 : t.saturation, lightness);
}

}  // namespace

CanvasPalette::CanvasPalette(const QPalette& system) {
  const QColor base = system.color(QPalette::Base);
  dark_ = base.lightness() < 128;
  background_ = base;
  highlight_ = system.color(QPalette::Highlight);
  edge_ = dark_ ? QColor(150, 155, 165) : QColor(110, 115, 125);
  cluster_border_ = dark_ ? QColor(95, 100, 112) : QColor(190, 195, 205);
  cluster_text_ = dark_ ? QColor(170, 175, 185) : QColor(95, 100, 110);
  heat_ = dark_ ? QColor(230, 90, 40) : QColor(240, 85, 30);
}

QColor CanvasPalette::heatFill(const QColor& fill, qreal fraction) const {
  // Even the fastest timed node is visibly tinted, so "timed" reads apart from "not run".
  const qreal w = 0.12 + 0.73 * std::clamp(fraction, 0.0, 1.0);
  return QColor::fromRgbF(fill.redF() * (1 - w) + heat_.redF() * w, fill.greenF() * (1 - w) + heat_.greenF() * w,
                          fill.blueF() * (1 - w) + heat_.blueF() * w);
}

NodeColors CanvasPalette::node(NodeCategory category) const {
  const Tint& t = kTints[static_cast<int>(category)];
  if (dark_) {
    return {hsl(t, 62), hsl({t.hue, std::min(255, t.saturation + 40)}, 150), QColor(236, 238, 242),
            QColor(190, 195, 205)};
  }
  return {hsl(t, 228), hsl({t.hue, std::min(255, t.saturation + 20)}, 120), QColor(25, 28, 34),
          QColor(70, 75, 85)};
}

QColor CanvasPalette::clusterFill(int depth) const {
  // Nested scopes get slightly stronger tints so the nesting reads at a glance.
  int step = std::min(depth, 4) * 6;
  return dark_ ? QColor(40 + step, 44 + step, 52 + step, 150)
               : QColor(242 - step, 244 - step, 248 - step, 200);
}

QColor CanvasPalette::scopeFill(int depth) const {
  const int step = std::min(depth, 4) * 5;
  return dark_ ? QColor(52 + step, 60 + step, 80 + step) : QColor(228 - step, 234 - step, 246 - step / 2);
}

}  // namespace exportlens::ui
