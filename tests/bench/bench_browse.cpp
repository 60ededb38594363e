// bench_browse: how fast a big program opens and browses on the canvas.
//
//   bench_browse [FILE.pt2] [--frames N] [--no-oneshot] [--oneshot-limit SECONDS]
//
// With no FILE it makes its own >= 10,000-node program: the transformer stack
// tests/oracle/bench_model.py exports with 160 blocks (6,084 nodes) lowered to
// Core ATen (10,566 nodes), the level a user switches to. Prints one figure a line:
//
//   open_ms         read (weights not read) + module hierarchy + folded weights
//                   + the opening picture's layout + print + prepared shapes
//   first_paint_ms  open_ms + the canvas's items + the first frame drawn
//   expand_ms       median over scopes: open one collapsed box, lay out again, draw
//   full_layout_ms  every scope open, laid out from an empty cache, one dot run per scope
//   oneshot_dot_ms  the same graph in one dot run, as the canvas did before (same
//                   run, in a child process stopped after --oneshot-limit, 120 s by
//                   default: then "> 120000 (stopped)")
//   frame_ms        median time to draw a frame while panning and zooming the
//                   fully expanded program (offscreen, 1400x900)
//   rss_mb          resident memory at the end (weights never read), and the peak
//
// Not a test and not part of `all`: `ninja bench_browse && build/tests/bench/bench_browse`.
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QPixmap>
#include <QProcess>
#include <QSignalSpy>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "engine/layout/layout_graph.h"
#include "engine/passes/ir_levels.h"
#include "engine/serde/pt2_reader.h"
#include "ui/canvas/graph_scene.h"
#include "ui/canvas/graph_view.h"
#include "ui/canvas/scope_item.h"
#include "ui/core/node_display.h"
#include "ui/core/program_presentation.h"

using namespace exportlens;

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// VmRSS / VmHWM from /proc/self/status, in MiB.
double memory_mb(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(field, 0) == 0) return std::stod(line.substr(std::string(field).size())) / 1024.0;
  return 0;
}

// Draws the view once as a frame on screen is drawn: its paint event over
// the whole viewport (the scene's index, every item in sight) and the
// overlays (minimap, breadcrumbs).
double draw_frame(ui::GraphView& view) {
  const auto t0 = std::chrono::steady_clock::now();
  const QPixmap frame = view.grab();
  return ms_since(t0);
}

bool wait_for(QSignalSpy& spy) { return !spy.isEmpty() || spy.wait(600000); }

struct Program {
  std::shared_ptr<ir::ExportedProgram> program;
  double read_ms = 0, lower_ms = 0;
};

// The program as the window shows it: read without weights, lowered to Core
// ATen for the bench's own program.
Program read_program(const std::string& file, bool lower) {
  Program out;
  auto t0 = std::chrono::steady_clock::now();
  serde::ReadOptions options;
  options.load_weights = false;
  out.program = std::make_shared<ir::ExportedProgram>(serde::read_pt2(file, "", options));
  out.read_ms = ms_since(t0);
  if (lower) {
    t0 = std::chrono::steady_clock::now();
    out.program = std::make_shared<ir::ExportedProgram>(passes::lower_to(*out.program, passes::IrLevel::Core));
    out.lower_ms = ms_since(t0);
  }
  return out;
}

// The canvas's old way, in this (child) process: the whole graph in one dot run.
int oneshot_dot(const std::string& file, bool lower) {
  const Program p = read_program(file, lower);
  const ui::NodeMetrics metrics(QApplication::font());
  layout::LayoutOptions flat;
  flat.node_size = [&](const ir::Node& n) { return metrics.boxSize(ui::display_label(n, p.program->signature)); };
  const auto t0 = std::chrono::steady_clock::now();
  layout::layout_graph(p.program->graph(), flat);
  std::cout << "oneshot_dot_ms " << ms_since(t0) << std::endl;
  return 0;
}

// The one dot run in a child process, stopped after `limit_s`: a figure or "> limit (stopped)".
std::string oneshot_dot_bounded(const std::string& file, bool lower, int limit_s) {
  QProcess child;
  QStringList args{QStringLiteral("--oneshot-only"), QString::fromStdString(file)};
  if (lower) args << QStringLiteral("--lower");
  child.start(QCoreApplication::applicationFilePath(), args);
  if (!child.waitForStarted()) return "(could not start: " + child.errorString().toStdString() + ")";
  if (!child.waitForFinished(limit_s * 1000)) {
    child.kill();
    child.waitForFinished();
    return "> " + std::to_string(limit_s * 1000) + " (stopped)";
  }
  const QString out = QString::fromUtf8(child.readAllStandardOutput());
  const qsizetype at = out.indexOf(QStringLiteral("oneshot_dot_ms "));
  if (child.exitCode() != 0 || at < 0)
    return "(failed: " + QString::fromUtf8(child.readAllStandardError()).trimmed().toStdString() + ")";
  return out.mid(at + 15).section(QLatin1Char('\n'), 0, 0).trimmed().toStdString();
}

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  std::string file;
  int frames = 40;
  int oneshot_limit_s = 120;
  bool oneshot = true, oneshot_only = false, lower = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--frames" && i + 1 < argc) frames = std::max(5, std::atoi(argv[++i]));
    else if (a == "--no-oneshot") oneshot = false;
    else if (a == "--oneshot-limit" && i + 1 < argc) oneshot_limit_s = std::max(1, std::atoi(argv[++i]));
    else if (a == "--oneshot-only") oneshot_only = true;  // the child process of the comparison
    else if (a == "--lower") lower = true;
    else if (a.rfind("--", 0) == 0) {
      std::cerr << "usage: bench_browse [FILE.pt2] [--frames N] [--no-oneshot] [--oneshot-limit SECONDS]\n";
      return 2;
    } else file = a;
  }
  if (oneshot_only) {
    try {
      return oneshot_dot(file, lower);
    } catch (const std::exception& e) {
      std::cerr << "bench_browse: " << e.what() << "\n";
      return 1;
    }
  }
  const bool own = file.empty();
  if (own) file = EXPORTLENS_BENCH_DIR "/transformer.pt2";
  if (!QFile::exists(QString::fromStdString(file))) {
    std::cerr << "bench_browse: no " << file << (own ? " (ninja bench_model makes it)" : "") << "\n";
    return 2;
  }
  try {
    // ---- open: what the loader does (the IR switch, for the lowered program)
    const Program read = read_program(file, own);
    const auto& program = read.program;
    const double read_ms = read.read_ms, lower_ms = read.lower_ms;
    const QFont font = QApplication::font();
    auto t0 = std::chrono::steady_clock::now();
    auto loaded = ui::present_program(program, {QString::fromStdString(file), QStringLiteral("bench"),
                                                ui::NodeMetrics(font), ui::cluster_label_height(font), nullptr});
    const double open_ms = read_ms + ms_since(t0);

    // ---- first paint: the canvas's items and one frame
    ui::GraphScene scene;
    ui::GraphView view;
    view.setScene(&scene);
    view.watch(&scene);
    view.resize(1400, 900);
    view.show();  // laid out as on screen (the offscreen platform)
    QApplication::processEvents();
    t0 = std::chrono::steady_clock::now();
    scene.setProgram(loaded);
    view.showStart(scene.startFocus());
    draw_frame(view);
    const double first_paint_ms = open_ms + ms_since(t0);

    // ---- expand: each collapsed box of the opening picture, one at a time
    std::vector<double> expand;
    std::vector<int> boxes;
    for (ui::ScopeItem* box : scene.scopeItems()) boxes.push_back(box->scope());
    std::sort(boxes.begin(), boxes.end());
    if (boxes.size() > 40) boxes.resize(40);
    for (int box : boxes) {
      QSignalSpy picture(&scene, &ui::GraphScene::pictureChanged);
      t0 = std::chrono::steady_clock::now();
      scene.setExpanded(box, true);
      if (!wait_for(picture)) throw std::runtime_error("no picture after expanding");
      draw_frame(view);
      expand.push_back(ms_since(t0));
      QSignalSpy back(&scene, &ui::GraphScene::pictureChanged);
      scene.setExpanded(box, false);
      wait_for(back);
    }

    // ---- full layout: a fresh engine (let go after: the window has none), every scope open
    double full_layout_ms = 0;
    size_t full_levels = 0, full_nodes = 0;
    {
      auto engine = ui::make_layout_engine(*loaded, ui::NodeMetrics(font), ui::cluster_label_height(font), true);
      const layout::ScopeExpansion everything = layout::ScopeExpansion::everything(*loaded->hierarchy);
      t0 = std::chrono::steady_clock::now();
      const layout::ScopedLayout full = engine->compose(everything);
      full_layout_ms = ms_since(t0);
      full_levels = full.levels_laid_out;
      full_nodes = full.nodes.size();
    }

    // ---- frames: pan and zoom over the fully expanded program
    QSignalSpy all(&scene, &ui::GraphScene::pictureChanged);
    t0 = std::chrono::steady_clock::now();
    scene.expandToDepth(loaded->hierarchy->max_depth());
    if (!wait_for(all)) throw std::runtime_error("no picture after expanding everything");
    const double show_all_ms = ms_since(t0);
    std::vector<double> frame;
    const QRectF bounds = scene.sceneRect();
    const qreal zooms[] = {1.0, 0.6, 0.3, 0.12, 0.04};
    for (int i = 0; i < frames; ++i) {
      view.resetTransform();
      const qreal z = zooms[i % 5];
      view.scale(z, z);
      view.centerOn(bounds.left() + bounds.width() * ((i * 37) % 100) / 100.0,
                    bounds.top() + bounds.height() * ((i * 61) % 100) / 100.0);
      frame.push_back(draw_frame(view));
    }

    const double rss_mb = memory_mb("VmRSS:"), peak_mb = memory_mb("VmHWM:");
    const std::string oneshot_ms = oneshot ? oneshot_dot_bounded(file, own, oneshot_limit_s) : std::string();

    std::cout << "program " << file << (own ? " lowered to Core ATen" : "") << ": " << program->graph().size()
              << " nodes, " << loaded->hierarchy->size() - 1 << " module calls, depth " << loaded->hierarchy->max_depth()
              << ", " << loaded->weights->folded_count() << " weights folded\n";
    std::cout << "opening picture: depth " << loaded->openingDepth << ", "
              << loaded->openingPicture->nodes.size() + loaded->openingPicture->scopes.size() << " items, "
              << loaded->openingPicture->levels_laid_out << " levels laid out\n";
    std::cout << "read_ms " << read_ms << "\n";
    if (own) std::cout << "lower_ms " << lower_ms << "\n";
    std::cout << "open_ms " << open_ms << "\n";
    std::cout << "first_paint_ms " << first_paint_ms << "\n";
    std::cout << "expand_ms " << median(expand) << "  (median of " << expand.size() << " scopes; max "
              << (expand.empty() ? 0 : *std::max_element(expand.begin(), expand.end())) << ")\n";
    std::cout << "full_layout_ms " << full_layout_ms << "  (" << full_levels << " levels, " << full_nodes
              << " nodes drawn; showing it on the canvas " << show_all_ms << " ms)\n";
    if (oneshot) std::cout << "oneshot_dot_ms " << oneshot_ms << "  (the whole graph in one dot run, in a child process)\n";
    std::cout << "frame_ms " << median(frame) << "  (median of " << frame.size() << " frames at zooms 1..0.04; max "
              << *std::max_element(frame.begin(), frame.end()) << ")\n";
    std::cout << "rss_mb " << rss_mb << "  (peak " << peak_mb << ")\n";
  } catch (const std::exception& e) {
    std::cerr << "bench_browse: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
