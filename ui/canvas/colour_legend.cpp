#include "ui/canvas/colour_legend.h"

#include <QMenu>
#include <QPainter>
#include <QPixmap>

#include "ui/canvas/graph_scene.h"
#include "ui/canvas/node_category.h"

namespace exportlens::ui {
namespace {

QIcon swatch(const QColor& fill, const QColor& border) {
  QPixmap pixmap(14, 14);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(border);
  painter.setBrush(fill);
  painter.drawRoundedRect(QRectF(0.5, 0.5, 13, 13), 3, 3);
  return QIcon(pixmap);
}

}  // namespace

QMenu* add_colour_legend(QMenu* parent, const GraphScene* scene) {
  QMenu* legend = parent->addMenu(QObject::tr("Node &Colours"));
  QObject::connect(legend, &QMenu::aboutToShow, legend, [scene, legend] {
    legend->clear();
    const CanvasPalette& palette = scene->canvasStyle().palette;
    for (int i = 0; i < kNodeCategoryCount; ++i) {
      const auto category = static_cast<NodeCategory>(i);
      const NodeColors colors = palette.node(category);
      legend->addAction(swatch(colors.fill, colors.border), category_name(category))->setEnabled(false);
    }
  });
  return legend;
}

}  // namespace exportlens::ui
