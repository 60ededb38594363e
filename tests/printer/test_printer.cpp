// The printer against torch itself: every oracle fixture's program.pt2 must
// print exactly as torch printed the same loaded file (print.txt), and a
// hand-built graph must print as torch.fx prints the same graph
// (handbuilt_expected.txt, made by handbuilt_graph.py).
#include <cmath>
#include <limits>

#include "engine/ir/fx_namespace.h"
#include "engine/ir/printer.h"
#include "engine/ir/python_repr.h"
#include "engine/serde/pt2_reader.h"
#include "support/program_builder.h"
#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::ir;
using exportlens::unit::fixtures_dir;
using exportlens::unit::fixtures_with_status;
using exportlens::unit::for_each_row;
using exportlens::unit::read_text;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (true) {
    const auto nl = text.find('\n', start);
    lines.push_back(text.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) return lines;
    start = nl + 1;
  }
}

/// "" if equal, else where and how the texts first differ.
std::string first_difference(const std::string& expected, const std::string& actual) {
  if (expected == actual) return "";
  const auto e = split_lines(expected), a = split_lines(actual);
  for (size_t i = 0; i < std::max(e.size(), a.size()); ++i) {
    const std::string el = i < e.size() ? e[i] : "<end of text>";
    const std::string al = i < a.size() ? a[i] : "<end of text>";
    if (el != al)
      return "first difference at line " + std::to_string(i + 1) + "\n  torch: [" + el +
             "]\n  ours:  [" + al + "]";
  }
  return "texts differ in line endings only";
}

// --- building IR by hand -----------------------------------------------------

TensorMeta tensor(std::vector<int64_t> sizes, ScalarType dtype = ScalarType::Float) {
  TensorMeta m;
  m.dtype = dtype;
  for (auto s : sizes) m.sizes.emplace_back(s);
  return m;
}

std::string frame(int line, const std::string& code, const std::string& fn = "forward",
                  const std::string& file = "/src/model.py") {
  return "  File \"" + file + "\", line " + std::to_string(line) + ", in " + fn + "\n    " + code + "\n";
}

using Builder = testing::GraphMaker;

ArgumentList tuple(std::vector<Argument> items) { return ArgumentList{std::move(items), true}; }
ArgumentList list(std::vector<Argument> items) { return ArgumentList{std::move(items), false}; }

std::shared_ptr<GraphModule> branch(const std::string& op) {
  auto gm = std::make_shared<GraphModule>();
  Builder b{gm->graph};
  Node* view = b.add(OpKind::Placeholder, "view");
  view->value = ValueInfo::of(tensor({6}));
  Node* item = b.add(OpKind::Placeholder, "item");
  item->value = ValueInfo::of(SymInt(Expr::symbol("u0")));
  Node* r = b.call(op + "_default", "torch.ops.aten." + op + ".default", {view});
  r->value = ValueInfo::of(tensor({6}));
  r->meta.stack_trace = frame(20, "return v." + op + "()");
  b.add(OpKind::Output, "output", "", {tuple({r})});
  return gm;
}

/// The graph handbuilt_graph.py builds in torch.fx.
std::unique_ptr<GraphModule> build_hand_built_graph() {
  auto gm = std::make_unique<GraphModule>();
  Builder b{gm->graph};
  const Expr u0 = Expr::symbol("u0");
  Node* x = b.add(OpKind::Placeholder, "x");
  x->value = ValueInfo::of(tensor({2, 3}));
  Node* input = b.add(OpKind::Placeholder, "input");
  input->value = ValueInfo::of(tensor({3}, ScalarType::Long));
  Node* flag = b.add(OpKind::Placeholder, "flag");

  Node* item = b.call("item_default", "torch.ops.aten.item.default", {input});
  item->value = ValueInfo::of(SymInt(u0));
  item->meta.stack_trace = frame(3, "a = input.item()");
  Node* neg = b.call("neg", "_operator.neg", {item});
  neg->value = ValueInfo::of(SymInt(-u0));
  neg->meta.stack_trace = frame(3, "a = input.item()");
  Node* trunc = b.call("trunc", "math.trunc", {neg});
  trunc->value = ValueInfo::of(SymInt(5));

  Node* full = b.call("full_default", "torch.ops.aten.full.default",
                      {list({2, 3}), -std::numeric_limits<double>::infinity()},
                      {{"dtype", ScalarType::Half},
                       {"layout", Layout::Strided},
                       {"device", Device{"cuda", 1}},
                       {"pin_memory", None{}}});
  full->value = ValueInfo::of(tensor({2, 3}, ScalarType::Half));
  full->meta.stack_trace = "Traceback:\n" + frame(10, "outer()", "main", "/src/main.py") +
                           frame(7, "b = torch.full((2, 3), -inf)");

  Node* split = b.call("split_tensor", "torch.ops.aten.split.Tensor", {x, 1});
  split->value = ValueInfo::of_tuple({ValueInfo::of(tensor({1, 3})), ValueInfo::of(tensor({1, 3}))});
  split->meta.stack_trace = frame(8, "c = x.split(1)");
  Node* g0 = b.call("getitem", "_operator.getitem", {split, 0});
  g0->value = ValueInfo::of(tensor({1, 3}));
  g0->meta.stack_trace = split->meta.stack_trace;
  Node* g1 = b.call("getitem_1", "_operator.getitem", {split, 1});
  g1->value = ValueInfo::of(tensor({1, 3}));
  g1->meta.stack_trace = split->meta.stack_trace;

  Node* div = b.call("div_tensor_mode", "torch.ops.aten.div.Tensor_mode", {g0, 0.1},
                     {{"rounding_mode", "it's \"odd\"\n"}});
  div->value = ValueInfo::of(tensor({1, 3}));
  // json.dumps of the meta["custom"] dict in handbuilt_graph.py
  div->meta.custom["custom"] =
      "{\"stage\": 1, \"name\": \"a v\\u00e9ry long annotation text that goes past forty chars\", "
      "\"ok\": true, \"f\": 0.5, \"l\": [1, \"x\"], \"n\": null, \"d\": {\"k\": \"it's\"}}";
  Node* idx = b.call("index_put_default", "torch.ops.aten.index_put.default",
                     {x, list({None{}, g0}), g1, false});
  idx->value = ValueInfo::of(tensor({2, 3}));
  Node* clamp = b.call("clamp_default", "torch.ops.aten.clamp.default", {idx, -0.0, 1e-05});
  clamp->value = ValueInfo::of(tensor({2, 3}));
  clamp->meta.stack_trace = "no frame here";
  Node* view = b.call("view_default", "torch.ops.aten.view.default", {clamp, tuple({6})});
  view->value = ValueInfo::of(tensor({6}));
  view->meta.stack_trace = frame(12, "return x.view(6)");

  Node* tg = b.add(OpKind::GetAttr, "true_graph_0", "true_graph_0");
  Node* fg = b.add(OpKind::GetAttr, "false_graph_0", "false_graph_0");
  Node* cond = b.call("cond", "torch.ops.higher_order.cond", {flag, tg, fg, tuple({view, item})});
  cond->meta.stack_trace = frame(13, "torch.cond(flag, t, f, (v, a))");
  Node* c0 = b.call("getitem_2", "_operator.getitem", {cond, 0});
  c0->value = ValueInfo::of(tensor({6}));
  c0->meta.stack_trace = cond->meta.stack_trace;
  b.add(OpKind::Output, "output", "", {tuple({c0, trunc, None{}, div, list({full})})});

  gm->submodules.emplace_back("true_graph_0", branch("sin"));
  gm->submodules.emplace_back("false_graph_0", branch("cos"));
  return gm;
}

/// Checks that the line map points each node at the line torch prints it on.
void check_line_map(const PrintedText& printed, const std::string& label) {
  const auto lines = split_lines(printed.text);
  for (const auto& [node, span] : printed.node_lines) {
    const std::string where = label + ": node " + node->name;
    VERIFY_MSG(span.first >= 0 && span.first <= span.last && span.last < int(lines.size()), where);
    std::string stmt = lines[span.last];
    stmt = stmt.substr(std::min(stmt.find_first_not_of(' '), stmt.size()));
    if (node->op == OpKind::Placeholder) {
      VERIFY_MSG(stmt.rfind("def forward(self", 0) == 0, where);
    } else if (node->op == OpKind::Output) {
      VERIFY_MSG(stmt.rfind("return ", 0) == 0, where);
    } else {
      // "name: ..." / "name = ..." (FX may have renamed it with a suffix)
      VERIFY_MSG(stmt.rfind(node->name, 0) == 0, where + " on [" + stmt + "]");
    }
    if (span.first < span.last) {
      VERIFY_MSG(lines[span.first].find("# ") != std::string::npos, where);
      VERIFY_MSG(printed.node_at_line(span.first) == node, where);
    }
    if (node->op != OpKind::Placeholder) VERIFY_MSG(printed.node_at_line(span.last) == node, where);
  }
}

}  // namespace

EL_TEST(fixtures_print_like_torch) {
  const std::string root = fixtures_dir();
  for_each_row(fixtures_with_status("ok"), [&](const std::string& name) {
    const std::string dir = root + "/" + name;
    // No normalization: print.txt is str(torch.export.load(program.pt2)), so
    // even absolute paths in "# File:" comments come from this very file.
    const std::string expected = read_text(dir + "/print.txt");
    ExportedProgram ep;
    try {
      ep = serde::read_pt2(dir + "/program.pt2");
    } catch (const std::exception& e) {
      FAIL(e.what());
    }
    const PrintedText printed = print_program_annotated(ep);
    const std::string diff = first_difference(expected, printed.text);
    VERIFY_MSG(diff.empty(), diff);
    COMPARE(print_program(ep), printed.text);
    check_line_map(printed, dir);
  });
}

EL_TEST(hand_built_graph_prints_like_fx) {
  const auto gm = build_hand_built_graph();
  const std::string expected =
      read_text(EXPORTLENS_SOURCE_DIR "/tests/printer/handbuilt_expected.txt");
  const PrintedText printed = print_graph_module_annotated(*gm);
  const std::string diff = first_difference(expected, printed.text);
  VERIFY_MSG(diff.empty(), diff);
  check_line_map(printed, "hand-built");
  // Each of the three graphs' nodes is mapped.
  COMPARE(printed.node_lines.size(), gm->graph.size() + 2 * 4);
}

EL_TEST(stack_comments_can_be_left_out) {
  const auto gm = build_hand_built_graph();
  const PrintedText printed = print_graph_module_annotated(*gm, "GraphModule", {false});
  VERIFY(printed.text.find("# File") == std::string::npos);
  VERIFY(printed.text.find("# No stacktrace") == std::string::npos);
  check_line_map(printed, "no comments");
}

EL_TEST(float_repr_matches_python) {
  // Left: the double; right: Python 3.11's repr() of it.
  const std::pair<double, const char*> cases[] = {
      {0.0, "0.0"},        {-0.0, "-0.0"},       {1.0, "1.0"},
      {0.1, "0.1"},        {3.0, "3.0"},         {1e-05, "1e-05"},
      {0.0001, "0.0001"},  {1e16, "1e+16"},      {1e15, "1000000000000000.0"},
      {1e22, "1e+22"},     {1.5e-07, "1.5e-07"}, {123456789.123, "123456789.123"},
      {5e-324, "5e-324"},  {1.7976931348623157e308, "1.7976931348623157e+308"},
      {0.3333333333333333, "0.3333333333333333"}, {-2.5, "-2.5"},
      {std::numeric_limits<double>::infinity(), "inf"},
      {-std::numeric_limits<double>::infinity(), "-inf"},
      {std::nan(""), "nan"},
  };
  for (const auto& [value, text] : cases) COMPARE(py_repr_float(value), std::string(text));
}

EL_TEST(string_repr_matches_python) {
  // Left: the UTF-8 text; right: Python 3.11's repr() of it.
  const std::pair<const char*, const char*> cases[] = {
      {"", "''"},
      {"tanh", "'tanh'"},
      {"it's", "\"it's\""},
      {"say \"hi\"", "'say \"hi\"'"},
      {"both ' and \"", "'both \\' and \"'"},
      {"back\\slash", "'back\\\\slash'"},
      {"tab\tnl\nret\r", "'tab\\tnl\\nret\\r'"},
      {"\x01\x1f\x7f", "'\\x01\\x1f\\x7f'"},
      {"\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80", "'\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80'"},
      {"\xc2\xa0\xe2\x80\x8b\xe2\x80\xa8", "'\\xa0\\u200b\\u2028'"},
  };
  for (const auto& [text, repr] : cases) COMPARE(py_repr_string(text), std::string(repr));
}

EL_TEST(namespace_follows_fx) {
  FxNamespace ns = FxNamespace::for_codegen();
  int a, b, c, d, e, f;
  COMPARE(ns.create_name("add_1", &a), std::string("add_1"));
  COMPARE(ns.create_name("add", &b), std::string("add"));
  COMPARE(ns.create_name("add", &c), std::string("add_2"));
  COMPARE(ns.create_name("torch", &d), std::string("torch_1"));
  COMPARE(ns.create_name("math.trunc", &e), std::string("math_trunc"));
  COMPARE(ns.create_name("3d", &f), std::string("_3d"));
  COMPARE(ns.create_name("other", &a), std::string("add_1"));  // same owner, same name
}
