// render: the graph drawn as the GUI's Graph tab draws it, written as SVG,
// PNG or PDF without a display (Qt's offscreen platform).
#include <QApplication>
#include <QFileInfo>

#include <iostream>
#include <memory>

#include "app/cli_command.h"
#include "ui/export/program_render.h"

namespace exportlens::app {
namespace {

// Qt's own chatter (offscreen platform notes, font fallbacks) is not the
// command's output; errors still come as one line from the command.
void quiet_qt(QtMsgType type, const QMessageLogContext&, const QString& msg) {
  if (type == QtCriticalMsg || type == QtFatalMsg) std::cerr << "exportlens render: " << msg.toStdString() << "\n";
}

std::unique_ptr<QApplication> offscreen_application() {
  if (QCoreApplication::instance()) return nullptr;
  qputenv("QT_QPA_PLATFORM", "offscreen");
  qInstallMessageHandler(quiet_qt);
  static int argc = 1;
  static char name[] = "exportlens";
  static char* argv[] = {name, nullptr};
  return std::make_unique<QApplication>(argc, argv);
}

int cmd_render(const ParsedArgs& a) {
  const auto out_option = a.option("-o");
  std::optional<ui::ImageFormat> format;
  if (const auto f = a.option("--format")) {
    format = ui::image_format_named(QString::fromStdString(*f));
    if (!format) throw UsageError("--format expects svg, png or pdf, got '" + *f + "'");
  } else if (out_option) {
    format = ui::image_format_of(QString::fromStdString(*out_option));
    if (!format) throw UsageError("cannot tell the format from '" + *out_option + "': give --format svg|png|pdf");
  } else {
    format = ui::ImageFormat::Svg;
  }
  if (a.positionals.size() != 1)
    throw UsageError("render takes exactly one FILE.pt2 (got " + std::to_string(a.positionals.size()) + ")");
  const QString out = out_option ? QString::fromStdString(*out_option)
                                 : QFileInfo(QString::fromStdString(a.positionals[0])).completeBaseName() + "." +
                                       ui::image_format_suffix(*format);
  auto program = std::make_shared<const ir::ExportedProgram>(load_program_at_ir(a, "render"));
  const auto app = offscreen_application();
  ui::ImageOptions options;
  options.background = QColor();  // the canvas's
  const auto r = ui::render_program_image(program, *format, out, options);
  std::cout << out.toStdString() << ": " << r.nodes << " nodes, " << int(r.scene_size.width()) << " x "
            << int(r.scene_size.height()) << " (scene units)\n";
  return 0;
}

}  // namespace

std::vector<Command> render_commands() {
  return {
      {"render", "draw the graph as SVG, PNG or PDF (no display needed)",
       "usage: exportlens render FILE.pt2 [--format svg|png|pdf] [-o OUT] [--ir training|functional|core]\n"
       "                         [--table NAME] [--load LIB.so]\n\n"
       "Draws the program's graph as the GUI's Graph tab does (module scopes as\n"
       "clusters, colour by op category) and writes it as an SVG, PNG or PDF\n"
       "file: OUT, or FILE's name with the format's suffix in the current folder.\n"
       "The format comes from --format, else from OUT's suffix, else SVG. --ir\n"
       "lowers the program first, as `decompose` does. A PNG is drawn at 2 pixels\n"
       "per point, and smaller where its longer side would pass 16384 pixels.\n" + file_help(),
       {"--format", "-o", "--ir", "--table", "--load", "--limit", "--program"}, {}, cmd_render},
  };
}

}  // namespace exportlens::app
