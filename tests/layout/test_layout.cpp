// Layout of hand-built graphs: every node gets its box, edges run from box to
// box, boxes never overlap, clusters hold their nodes; deterministic,
// cancellable, safe to call from several threads.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "engine/ir/graph.h"
#include "engine/layout/layout_graph.h"
#include "engine/layout/node_label.h"
#include "support/program_builder.h"
#include "support/unit/unit.h"

using namespace exportlens;
using layout::GraphLayout;
using layout::Point;
using layout::Rect;

namespace {

// The suite's graphs: placeholders by name, aten calls by op key with their
// module scopes (tests/support/program_builder.h).
ir::Node* add(ir::Graph& g, ir::OpKind op, const std::string& name) { return testing::GraphMaker{g}.add(op, name); }

ir::Node* call(ir::Graph& g, const std::string& name, const std::string& op,
               std::vector<ir::Argument> args, std::vector<ir::ModuleScope> scopes = {}) {
  return testing::GraphMaker{g}.call(name, "aten." + op, std::move(args), {}, std::move(scopes));
}

ir::Node* output(ir::Graph& g, const std::vector<ir::Node*>& results) { return testing::GraphMaker{g}.output(results); }

ir::ModuleScope scope(const std::string& path, const std::string& type) {
  return {"L__self__" + path, path, "torch.nn.modules." + type};
}

// x, weight, bias -> linear -> relu -> add(relu, x) -> output; add(x, x) too.
void build_mlp(ir::Graph& g) {
  auto* x = add(g, ir::OpKind::Placeholder, "x");
  auto* w = add(g, ir::OpKind::Placeholder, "p_fc_weight");
  auto* b = add(g, ir::OpKind::Placeholder, "p_fc_bias");
  auto fc = std::vector{scope("fc", "linear.Linear")};
  auto* lin = call(g, "linear", "linear.default", {x, w, b}, fc);
  auto* relu = call(g, "relu", "relu.default", {lin});
  auto* sum = call(g, "add", "add.Tensor", {relu, x});
  auto* twice = call(g, "add_1", "add.Tensor", {x, x});
  output(g, {sum, twice});
}

// Nested scopes: encoder > encoder.layers.0 / encoder.layers.1, and a head.
void build_nested(ir::Graph& g) {
  auto* x = add(g, ir::OpKind::Placeholder, "x");
  ir::Node* prev = x;
  for (int i = 0; i < 2; ++i) {
    std::string layer = "encoder.layers." + std::to_string(i);
    auto stack = std::vector{scope("encoder", "container.Sequential"), scope(layer, "linear.Linear")};
    auto* mm = call(g, "mm_" + std::to_string(i), "mm.default", {prev, prev}, stack);
    prev = call(g, "relu_" + std::to_string(i), "relu.default", {mm}, stack);
  }
  auto* head = call(g, "sum_1", "sum.default", {prev}, {scope("head", "module.Head")});
  output(g, {head, x});
}

// A long chain with residual (long) edges, the case that makes dot slow.
void build_residual_chain(ir::Graph& g, int length) {
  std::vector<ir::Node*> all{add(g, ir::OpKind::Placeholder, "x")};
  for (int i = 0; i < length; ++i) {
    std::vector<ir::Argument> args{all.back()};
    if (i % 5 == 4) args.emplace_back(all[all.size() - 5]);
    all.push_back(call(g, "op_" + std::to_string(i), "add.Tensor", std::move(args)));
  }
  output(g, {all.back()});
}

double distance_to_border(const Rect& r, Point p) {
  double dx = std::max({r.x - p.x, 0.0, p.x - r.right()});
  double dy = std::max({r.y - p.y, 0.0, p.y - r.bottom()});
  if (dx > 0 || dy > 0) return std::hypot(dx, dy);
  return std::min({p.x - r.x, r.right() - p.x, p.y - r.y, r.bottom() - p.y});
}

void check_layout(const ir::Graph& g, const GraphLayout& l) {
  COMPARE(l.nodes.size(), g.size());
  for (const auto& n : l.nodes) {
    VERIFY_MSG(g.find(n.name), n.name.c_str());
    VERIFY(n.size.width > 0 && n.size.height > 0);
    VERIFY_MSG(l.bounds.contains(n.rect(), 0.5), n.name.c_str());
  }
  for (size_t i = 0; i < l.nodes.size(); ++i)
    for (size_t j = i + 1; j < l.nodes.size(); ++j)
      VERIFY_MSG(!l.nodes[i].rect().intersects(l.nodes[j].rect()),
               (l.nodes[i].name + " overlaps " + l.nodes[j].name).c_str());
  for (const auto& e : l.edges) {
    const auto* from = l.find_node(e.from);
    const auto* to = l.find_node(e.to);
    VERIFY(from && to);
    VERIFY(e.curve.size() >= 4 && (e.curve.size() - 1) % 3 == 0);
    VERIFY_MSG(distance_to_border(from->rect(), e.curve.front()) < 2.0, (e.from + "->" + e.to).c_str());
    VERIFY_MSG(distance_to_border(to->rect(), e.arrow_tip) < 2.0, (e.from + "->" + e.to).c_str());
  }
  for (const auto& c : l.clusters) {
    VERIFY(!c.nodes.empty());
    for (const auto& name : c.nodes) {
      const auto* n = l.find_node(name);
      VERIFY(n);
      VERIFY_MSG(c.rect.contains(n->rect()), (c.path + " misses " + name).c_str());
    }
  }
}

bool same_layout(const GraphLayout& a, const GraphLayout& b) {
  if (a.nodes.size() != b.nodes.size() || a.edges.size() != b.edges.size()) return false;
  for (size_t i = 0; i < a.nodes.size(); ++i)
    if (a.nodes[i].centre != b.nodes[i].centre || a.nodes[i].size != b.nodes[i].size) return false;
  for (size_t i = 0; i < a.edges.size(); ++i)
    if (a.edges[i].curve != b.edges[i].curve || a.edges[i].arrow_tip != b.edges[i].arrow_tip) return false;
  return true;
}

}  // namespace

EL_TEST(every_node_gets_its_requested_box) {
  ir::Graph g;
  build_mlp(g);
  layout::LayoutOptions options;
  options.node_size = [](const ir::Node& n) { return layout::Size{40.0 + 10 * n.name.size(), 30}; };
  GraphLayout l = layout::layout_graph(g, options);
  check_layout(g, l);
  for (const auto& n : l.nodes) COMPARE(n.size.width, 40.0 + 10 * n.name.size());
  // Producers sit above consumers.
  VERIFY(l.find_node("linear")->centre.y < l.find_node("relu")->centre.y);
  VERIFY(l.find_node("x")->centre.y < l.find_node("output")->centre.y);
}

EL_TEST(one_edge_per_dependency) {
  ir::Graph g;
  build_mlp(g);
  GraphLayout l = layout::layout_graph(g);
  // x, w, b -> linear; linear -> relu; relu, x -> add; x -> add_1 (once); add, add_1 -> output.
  COMPARE(l.edges.size(), size_t(9));
  COMPARE(l.edges.front().from, std::string("x"));
  COMPARE(l.edges.front().to, std::string("linear"));
}

EL_TEST(clusters_follow_module_scopes) {
  ir::Graph g;
  build_nested(g);
  GraphLayout l = layout::layout_graph(g);
  check_layout(g, l);
  COMPARE(l.clusters.size(), size_t(4));
  COMPARE(l.clusters[0].path, std::string("encoder"));
  COMPARE(l.clusters[0].label, std::string("encoder: Sequential"));
  COMPARE(l.clusters[0].depth, 0);
  COMPARE(l.clusters[1].path, std::string("encoder.layers.0"));
  COMPARE(l.clusters[1].depth, 1);
  COMPARE(l.clusters[0].nodes.size(), size_t(4));
  VERIFY(l.clusters[0].rect.contains(l.clusters[1].rect));
  VERIFY(l.clusters[0].rect.contains(l.clusters[2].rect));
  VERIFY(!l.clusters[1].rect.intersects(l.clusters[2].rect));
  // Room for the label above the first node of each cluster.
  for (const auto& c : l.clusters) {
    double top = 1e9;
    for (const auto& name : c.nodes) top = std::min(top, l.find_node(name)->rect().y);
    VERIFY_MSG(top - c.rect.y >= 16, c.path.c_str());
  }
  layout::LayoutOptions flat;
  flat.cluster_by_module = false;
  VERIFY(layout::layout_graph(g, flat).clusters.empty());
}

EL_TEST(labels_name_op_and_shape) {
  ir::Graph g;
  build_mlp(g);
  auto* lin = g.find("linear");
  ir::TensorMeta meta;
  meta.sizes = {ir::SymInt(ir::Expr::symbol("s0")), ir::SymInt(10)};
  lin->value = ir::ValueInfo::of(meta);
  auto label = layout::node_label(*lin);
  COMPARE(label.title, std::string("linear"));
  COMPARE(label.subtitle, std::string("f32[s0, 10]"));
  COMPARE(layout::node_label(*g.find("x")).title, std::string("x"));
  COMPARE(layout::node_label(*g.find("output")).title, std::string("output"));
  auto* custom = call(g, "custom", "mm.default", {lin});
  custom->target = ir::Target("torch.ops.mylib.custom_op.default");
  COMPARE(layout::op_short_name(*custom), std::string("mylib::custom_op"));
  auto* wrapped = call(g, "auto_functionalized_v2", "mm.default", {lin});
  wrapped->target = ir::Target("torch.ops.higher_order.auto_functionalized_v2");
  wrapped->set_args({ir::OperatorRef{"torch.ops.mylib.scale_.default"}});
  COMPARE(layout::op_short_name(*wrapped), std::string("auto_functionalized_v2 · scale_"));
  ir::ValueInfo pair = ir::ValueInfo::of_tuple({ir::ValueInfo::of(meta), ir::ValueInfo::of(ir::SymInt(ir::Expr::symbol("s1")))});
  COMPARE(layout::value_annotation(pair), std::string("(f32[s0, 10], Sym(s1))"));
}

EL_TEST(empty_graph_has_empty_layout) {
  ir::Graph g;
  GraphLayout l = layout::layout_graph(g);
  VERIFY(l.nodes.empty());
  VERIFY(l.edges.empty());
}

EL_TEST(is_deterministic) {
  ir::Graph g;
  build_nested(g);
  VERIFY(same_layout(layout::layout_graph(g), layout::layout_graph(g)));
}

EL_TEST(is_safe_from_several_threads) {
  ir::Graph g;
  build_residual_chain(g, 60);
  GraphLayout reference = layout::layout_graph(g);
  std::vector<std::future<GraphLayout>> runs;
  for (int i = 0; i < 4; ++i)
    runs.push_back(std::async(std::launch::async, [&] { return layout::layout_graph(g); }));
  for (auto& r : runs) VERIFY(same_layout(reference, r.get()));
}

EL_TEST(cancel_stops_it) {
  ir::Graph g;
  build_mlp(g);
  CancelToken token;
  token.cancel();
  VERIFY_THROWS(Cancelled, layout::layout_graph(g, {}, &token));
  // Graphviz is left usable.
  check_layout(g, layout::layout_graph(g));
}

EL_TEST(reports_progress) {
  ir::Graph g;
  build_mlp(g);
  std::vector<double> seen;
  layout::layout_graph(g, {}, nullptr, [&](double f, std::string_view) { seen.push_back(f); });
  VERIFY(seen.size() >= 2);
  COMPARE(seen.front(), 0.0);
  COMPARE(seen.back(), 1.0);
  VERIFY(std::is_sorted(seen.begin(), seen.end()));
}

EL_TEST(big_graph_is_bounded_and_valid) {
  ir::Graph g;
  build_residual_chain(g, 600);
  const auto start = std::chrono::steady_clock::now();
  GraphLayout l = layout::layout_graph(g);
  const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  std::fprintf(stderr, "600-node residual chain: %lld ms\n", static_cast<long long>(elapsed.count()));
  VERIFY(!l.strategy_note.empty());
  check_layout(g, l);
}

