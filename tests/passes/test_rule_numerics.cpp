// Every decomposition rule against the op it replaces, run through LibTorch:
// for each rule, small programs calling the op (several shapes, float32 and
// float64 and, for dtype-generic rules, int64; contiguous and strided
// operands) are lowered with the rule's table and both programs run on the
// same random inputs; their outputs (and any state the op updates) must agree
// within tolerance. The rules come from the engine's tables (every registered
// table and the functionalization rules): a rule without a sample fails the
// coverage check. Then whole programs: every fixture lowered to the
// functional and the Core ATen IR gives torch's outputs on the fixture's inputs.
#include <ATen/TensorOperators.h>
#include <ATen/ops/allclose.h>
#include <ATen/ops/masked_select.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/rand.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include "support/torch_values.h"

#include "engine/passes/ir_levels.h"
#include "engine/runtime/interpreter.h"
#include "engine/serde/pt2_reader.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "passes/pass_program.h"
#include "support/known_differences.h"
#include "support/lowering_cases.h"
#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;
using nlohmann::json;
using ST = ir::ScalarType;

namespace {

using Args = std::vector<ir::Node*>;

struct Input {
  std::vector<int64_t> sizes;
  bool integer = false;  // int64 indices in [0, 4)
  bool boolean = false;
};

/// One program for a rule: inputs, and the node under test built from them.
struct Sample {
  std::string op;     // the rule's op key
  std::string label;  // what varies
  std::vector<Input> inputs;
  std::function<ir::Node*(ProgramBuilder&, const Args&)> build;
  bool float64_too = true;
  double dropout_p = 0;  // > 0: a training dropout; its output is random and checked by its law instead
  std::string table = "core";  // the table whose rule for `op` is under test
  double want_scale = 1.0;     // a custom rule's stated effect: its outputs are the op's times this
  bool int64_too = false;      // also run with int64 inputs
};

ir::Argument ints(std::vector<int64_t> v) {
  ir::ArgumentList l;
  for (int64_t i : v) l.items.push_back(i);
  return l;
}

/// A strided (transposed) view of an input, to reach the rules' layout-dependent paths.
ir::Node* transposed(ProgramBuilder& p, ir::Node* x, int64_t a, int64_t b) {
  return p.call(x->name + "_t", "aten.transpose.int", {x, a, b});
}

std::vector<Sample> samples() {
  using P = ProgramBuilder;
  std::vector<Sample> s;
  auto add = [&](std::string op, std::string label, std::vector<Input> in,
                 std::function<ir::Node*(P&, const Args&)> build) {
    s.push_back({std::move(op), std::move(label), std::move(in), std::move(build)});
  };
  // Ops of one tensor (and literals): a matrix, a 3-D strided view and a scalar.
  auto unary = [&](std::string op, std::vector<int64_t> shape, std::vector<ir::Argument> extra = {}) {
    auto build = [op, extra](bool strided) {
      return [op, extra, strided](P& p, const Args& a) {
        std::vector<ir::Argument> args{strided ? transposed(p, a[0], 0, 2) : a[0]};
        args.insert(args.end(), extra.begin(), extra.end());
        return p.call("out", op, args);
      };
    };
    add(op, "matrix", {{shape}}, build(false));
    add(op, "3-D strided", {{{2, 3, 4}}}, build(true));
    add(op, "scalar", {{{}}}, build(false));
  };

  // ---- views (functionalization level and core) ----
  add("aten.reshape.default", "viewable", {{{2, 3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.reshape.default", {a[0], ints({6, -1})}); });
  add("aten.reshape.default", "copy", {{{2, 3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.reshape.default", {transposed(p, a[0], 0, 2), ints({-1})}); });
  add("aten.flatten.using_ints", "all", {{{2, 3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.flatten.using_ints", {a[0]}); });
  add("aten.flatten.using_ints", "strided", {{{2, 3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.flatten.using_ints", {transposed(p, a[0], 1, 2), int64_t{1}}); });
  add("aten.reshape_as.default", "", {{{2, 3, 4}}, {{6, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.reshape_as.default", {a[0], a[1]}); });
  add("aten.contiguous.default", "strided", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.contiguous.default", {transposed(p, a[0], 0, 1)}); });
  add("aten.view_as.default", "", {{{12}}, {{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.view_as.default", {a[0], a[1]}); });
  add("aten.expand_as.default", "", {{{1, 4}}, {{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.expand_as.default", {a[0], a[1]}); });
  add("aten.unflatten.int", "", {{{3, 8}}}, [](P& p, const Args& a) { return p.call("out", "aten.unflatten.int", {a[0], int64_t{1}, ints({2, -1})}); });
  add("aten.narrow.default", "", {{{3, 8}}}, [](P& p, const Args& a) { return p.call("out", "aten.narrow.default", {a[0], int64_t{1}, int64_t{2}, int64_t{3}}); });
  add("aten.chunk.default", "uneven", {{{3, 7}}}, [](P& p, const Args& a) {
    ir::Node* c = p.call("chunk", "aten.chunk.default", {a[0], int64_t{3}, int64_t{1}});
    return p.call("out", "aten.cat.default", {ir::ArgumentList{{p.call("g0", "_operator.getitem", {c, int64_t{0}}), p.call("g2", "_operator.getitem", {c, int64_t{2}})}}, int64_t{1}});
  });
  add("aten.broadcast_to.default", "", {{{3, 1}}}, [](P& p, const Args& a) { return p.call("out", "aten.broadcast_to.default", {a[0], ints({2, 3, 4})}); });
  add("aten.numpy_T.default", "", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.numpy_T.default", {a[0]}); });
  add("aten.swapaxes.default", "", {{{2, 3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.swapaxes.default", {a[0], int64_t{0}, int64_t{2}}); });
  add("aten.movedim.int", "", {{{2, 3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.movedim.int", {a[0], int64_t{0}, int64_t{-1}}); });
  add("aten.to.dtype", "to float64", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.to.dtype", {a[0], ST::Double}); });
  add("aten.transpose.int", "", {{{2, 3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.transpose.int", {a[0], int64_t{-1}, int64_t{0}}); });
  add("aten.t.default", "", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.t.default", {a[0]}); });
  add("aten._unsafe_view.default", "", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten._unsafe_view.default", {a[0], ints({2, 6})}); });
  add("aten.split.Tensor", "uneven", {{{7, 3}}}, [](P& p, const Args& a) {
    ir::Node* sp = p.call("split", "aten.split.Tensor", {a[0], int64_t{3}});
    return p.call("out", "_operator.getitem", {sp, int64_t{2}});
  });
  add("aten.unbind.int", "", {{{3, 4}}}, [](P& p, const Args& a) {
    ir::Node* u = p.call("unbind", "aten.unbind.int", {a[0], int64_t{1}});
    return p.call("out", "_operator.getitem", {u, int64_t{3}});
  });
  add("aten.squeeze.default", "", {{{3, 1, 4, 1}}}, [](P& p, const Args& a) { return p.call("out", "aten.squeeze.default", {a[0]}); });
  add("aten.squeeze.dim", "", {{{3, 1, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.squeeze.dim", {a[0], int64_t{1}}); });
  add("aten.stack.default", "inner", {{{3, 4}}, {{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.stack.default", {ir::ArgumentList{{a[0], a[1]}}, int64_t{1}}); });
  add("aten.stack.default", "last", {{{3, 4}}, {{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.stack.default", {ir::ArgumentList{{a[0], a[1]}}, int64_t{2}}); });
  add("aten.select_scatter.default", "", {{{3, 4, 5}}, {{3, 5}}}, [](P& p, const Args& a) { return p.call("out", "aten.select_scatter.default", {a[0], a[1], int64_t{1}, int64_t{2}}); });
  add("aten.select_scatter.default", "negative index", {{{3, 4}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.select_scatter.default", {a[0], a[1], int64_t{0}, int64_t{-1}}); });

  // ---- matrix products ----
  add("aten.linear.default", "2-D bias", {{{2, 3}}, {{4, 3}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.linear.default", {a[0], a[1], a[2]}); });
  add("aten.linear.default", "3-D bias", {{{2, 5, 3}}, {{4, 3}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.linear.default", {a[0], a[1], a[2]}); });
  add("aten.linear.default", "3-D strided bias", {{{5, 2, 3}}, {{4, 3}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.linear.default", {transposed(p, a[0], 0, 1), a[1], a[2]}); });
  add("aten.linear.default", "1-D", {{{3}}, {{4, 3}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.linear.default", {a[0], a[1], a[2]}); });
  add("aten.linear.default", "no bias", {{{2, 5, 3}}, {{4, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten.linear.default", {a[0], a[1]}); });
  for (auto [x, y] : std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
           {{4}, {4}}, {{3, 4}, {4}}, {{4}, {4, 5}}, {{3, 4}, {4, 5}}, {{2, 3, 4}, {4, 5}}, {{2, 3, 4}, {2, 4, 5}},
           {{2, 2, 3, 4}, {2, 4, 5}}, {{3, 4}, {2, 4, 5}}, {{2, 3, 4}, {4}}}) {
    add("aten.matmul.default", std::to_string(x.size()) + "-D x " + std::to_string(y.size()) + "-D", {{x}, {y}},
        [](P& p, const Args& a) { return p.call("out", "aten.matmul.default", {a[0], a[1]}); });
  }
  add("aten.matmul.default", "strided batch", {{{3, 2, 4}}, {{4, 5}}}, [](P& p, const Args& a) { return p.call("out", "aten.matmul.default", {transposed(p, a[0], 0, 1), a[1]}); });
  add("aten.mv.default", "", {{{3, 4}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.mv.default", {a[0], a[1]}); });
  add("aten.dot.default", "", {{{4}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.dot.default", {a[0], a[1]}); });
  add("aten.baddbmm.default", "", {{{2, 3, 5}}, {{2, 3, 4}}, {{2, 4, 5}}}, [](P& p, const Args& a) { return p.call("out", "aten.baddbmm.default", {a[0], a[1], a[2]}); });
  add("aten.baddbmm.default", "beta alpha", {{{2, 3, 5}}, {{2, 3, 4}}, {{2, 4, 5}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.baddbmm.default", {a[0], a[1], a[2]}, {{"beta", 0.5}, {"alpha", 2.0}});
  });

  // ---- convolutions ----
  add("aten.conv1d.default", "", {{{2, 3, 8}}, {{4, 3, 3}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv1d.default", {a[0], a[1], a[2], ints({1}), ints({1})}); });
  add("aten.conv2d.default", "", {{{2, 3, 8, 8}}, {{4, 3, 3, 3}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv2d.default", {a[0], a[1], a[2], ints({2, 2}), ints({1, 1})}); });
  add("aten.conv2d.default", "unbatched", {{{3, 8, 8}}, {{4, 3, 3, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv2d.default", {a[0], a[1]}); });
  add("aten.conv3d.default", "", {{{1, 2, 4, 4, 4}}, {{3, 2, 2, 2, 2}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv3d.default", {a[0], a[1]}); });
  add("aten.conv1d.padding", "same", {{{2, 3, 8}}, {{4, 3, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv1d.padding", {a[0], a[1], ir::None{}, ints({1}), "same"}); });
  add("aten.conv2d.padding", "same, even kernel", {{{2, 3, 8, 8}}, {{4, 3, 2, 2}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv2d.padding", {a[0], a[1], ir::None{}, ints({1, 1}), "same"}); });
  add("aten.conv2d.padding", "valid", {{{2, 3, 8, 8}}, {{4, 3, 3, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv2d.padding", {a[0], a[1]}); });
  add("aten.conv3d.padding", "same", {{{1, 2, 4, 4, 4}}, {{3, 2, 3, 3, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv3d.padding", {a[0], a[1], ir::None{}, ints({1, 1, 1}), "same"}); });
  add("aten.conv_transpose1d.default", "", {{{2, 3, 8}}, {{3, 4, 3}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv_transpose1d.default", {a[0], a[1], a[2], ints({2})}); });
  add("aten.conv_transpose2d.input", "", {{{2, 3, 5, 5}}, {{3, 4, 3, 3}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv_transpose2d.input", {a[0], a[1], a[2], ints({2, 2}), ints({1, 1}), ints({1, 1})}); });
  add("aten.conv_transpose3d.input", "", {{{1, 2, 3, 3, 3}}, {{2, 3, 2, 2, 2}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv_transpose3d.input", {a[0], a[1]}); });

  // ---- normalization ----
  add("aten.batch_norm.default", "train", {{{4, 3, 2, 2}}, {{3}}, {{3}}, {{3}}, {{3}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.batch_norm.default", {a[0], a[1], a[2], a[3], a[4], true, 0.1, 1e-5, false});
  });
  add("aten.batch_norm.default", "eval", {{{4, 3, 2, 2}}, {{3}}, {{3}}, {{3}}, {{3}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.batch_norm.default", {a[0], a[1], a[2], p.call("rm", "aten.abs.default", {a[3]}), p.call("rv", "aten.abs.default", {a[4]}), false, 0.1, 1e-5, false});
  });
  add("aten.batch_norm.default", "no stats", {{{4, 3, 5}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.batch_norm.default", {a[0], ir::None{}, ir::None{}, ir::None{}, ir::None{}, true, 0.1, 1e-5, false});
  });
  add("aten.native_batch_norm.default", "train", {{{4, 3, 2}}, {{3}}, {{3}}, {{3}}, {{3}}}, [](P& p, const Args& a) {
    ir::Node* bn = p.call("bn", "aten.native_batch_norm.default", {a[0], a[1], a[2], a[3], a[4], true, 0.1, 1e-5});
    return p.call("out", "_operator.getitem", {bn, int64_t{0}});
  });
  add("aten.layer_norm.default", "affine", {{{2, 3, 4}}, {{4}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.layer_norm.default", {a[0], ints({4}), a[1], a[2]}); });
  add("aten.layer_norm.default", "2 dims, no affine", {{{2, 3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.layer_norm.default", {a[0], ints({3, 4})}); });
  add("aten.group_norm.default", "", {{{2, 4, 3, 3}}, {{4}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.group_norm.default", {a[0], int64_t{2}, a[1], a[2]}); });
  add("aten._weight_norm.default", "dim 0", {{{4, 6}}, {{4, 1}}}, [](P& p, const Args& a) { return p.call("out", "aten._weight_norm.default", {a[0], a[1], int64_t{0}}); });
  add("aten._weight_norm.default", "last dim", {{{4, 4, 3}}, {{1, 1, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten._weight_norm.default", {a[0], a[1], int64_t{2}}); });
  for (int64_t item : {0, 1})
    add("aten._weight_norm_interface.default", item ? "norm" : "weight", {{{4, 4, 3}}, {{4, 1, 1}}}, [item](P& p, const Args& a) {
      ir::Node* wn = p.call("wn", "aten._weight_norm_interface.default", {a[0], a[1], int64_t{0}});
      return p.call("out", "_operator.getitem", {wn, item});
    });
  add("aten.group_norm.default", "strided", {{{2, 3, 4, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten.group_norm.default", {transposed(p, a[0], 1, 2), int64_t{2}}); });

  // ---- activations ----
  add("aten.softmax.int", "", {{{3, 5}}}, [](P& p, const Args& a) { return p.call("out", "aten.softmax.int", {a[0], int64_t{-1}}); });
  add("aten.softmax.int", "dtype", {{{3, 5}}}, [](P& p, const Args& a) { return p.call("out", "aten.softmax.int", {a[0], int64_t{0}, ST::Double}); });
  add("aten.log_softmax.int", "", {{{3, 5}}}, [](P& p, const Args& a) { return p.call("out", "aten.log_softmax.int", {a[0], int64_t{1}}); });
  add("aten._safe_softmax.default", "", {{{3, 5}}}, [](P& p, const Args& a) { return p.call("out", "aten._safe_softmax.default", {a[0], int64_t{-1}}); });
  unary("aten.silu.default", {3, 5});
  unary("aten.relu6.default", {3, 5});
  unary("aten.hardswish.default", {3, 5});
  unary("aten.hardsigmoid.default", {3, 5});
  add("aten.dropout.default", "eval", {{{3, 5}}}, [](P& p, const Args& a) { return p.call("out", "aten.dropout.default", {a[0], 0.5, false}); });
  add("aten.dropout.default", "p = 0", {{{3, 5}}}, [](P& p, const Args& a) { return p.call("out", "aten.dropout.default", {a[0], 0.0, true}); });
  for (double drop : {0.5, 0.2})
    s.push_back({"aten.dropout.default", "train, p = " + std::to_string(drop).substr(0, 3), {{{30, 50}}},
                 [drop](P& p, const Args& a) { return p.call("out", "aten.dropout.default", {a[0], drop, true}); },
                 true, drop});

  // ---- pooling ----
  add("aten.max_pool2d.default", "", {{{2, 3, 8, 8}}}, [](P& p, const Args& a) { return p.call("out", "aten.max_pool2d.default", {a[0], ints({3, 3}), ints({2, 2}), ints({1, 1})}); });
  add("aten.max_pool1d.default", "", {{{2, 3, 9}}}, [](P& p, const Args& a) { return p.call("out", "aten.max_pool1d.default", {a[0], ints({2}), ints({1})}); });
  add("aten.avg_pool1d.default", "", {{{2, 3, 9}}}, [](P& p, const Args& a) { return p.call("out", "aten.avg_pool1d.default", {a[0], ints({3}), ints({2}), ints({1})}); });
  add("aten.adaptive_avg_pool2d.default", "1x1", {{{2, 3, 5, 6}}}, [](P& p, const Args& a) { return p.call("out", "aten.adaptive_avg_pool2d.default", {a[0], ints({1, 1})}); });
  add("aten.adaptive_avg_pool2d.default", "1x1 channels-last", {{{2, 5, 6, 3}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.adaptive_avg_pool2d.default", {p.call("nhwc", "aten.permute.default", {a[0], ints({0, 3, 1, 2})}), ints({1, 1})});
  });
  add("aten.adaptive_avg_pool2d.default", "2x3", {{{2, 3, 5, 6}}}, [](P& p, const Args& a) { return p.call("out", "aten.adaptive_avg_pool2d.default", {a[0], ints({2, 3})}); });
  add("aten.adaptive_avg_pool1d.default", "", {{{2, 3, 9}}}, [](P& p, const Args& a) { return p.call("out", "aten.adaptive_avg_pool1d.default", {a[0], ints({1})}); });

  // ---- attention ----
  const Input q{{2, 2, 5, 8}}, k{{2, 2, 7, 8}};
  add("aten.scaled_dot_product_attention.default", "plain", {q, k, k}, [](P& p, const Args& a) { return p.call("out", "aten.scaled_dot_product_attention.default", {a[0], a[1], a[2]}); });
  add("aten.scaled_dot_product_attention.default", "causal", {q, k, k}, [](P& p, const Args& a) { return p.call("out", "aten.scaled_dot_product_attention.default", {a[0], a[1], a[2], ir::None{}, 0.0, true}); });
  add("aten.scaled_dot_product_attention.default", "float mask, scale", {q, k, k, {{5, 7}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.scaled_dot_product_attention.default", {a[0], a[1], a[2], a[3]}, {{"scale", 0.3}});
  });
  add("aten.scaled_dot_product_attention.default", "bool mask", {q, k, k, {{5, 7}, false, true}}, [](P& p, const Args& a) {
    return p.call("out", "aten.scaled_dot_product_attention.default", {a[0], a[1], a[2], a[3]});
  });
  add("aten.scaled_dot_product_attention.default", "3-D", {{{2, 5, 8}}, {{2, 7, 8}}, {{2, 7, 8}}}, [](P& p, const Args& a) { return p.call("out", "aten.scaled_dot_product_attention.default", {a[0], a[1], a[2]}); });
  add("aten.scaled_dot_product_attention.default", "strided", {{{2, 5, 2, 8}}, {{2, 7, 2, 8}}, {{2, 7, 2, 8}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.scaled_dot_product_attention.default", {transposed(p, a[0], 1, 2), transposed(p, a[1], 1, 2), transposed(p, a[2], 1, 2)});
  });

  // ---- reductions, factories, scalars ----
  unary("aten.sum.default", {3, 4});
  unary("aten.rsub.Scalar", {3, 4}, {2.5});
  add("aten.rsub.Tensor", "", {{{3, 4}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.rsub.Tensor", {a[0], a[1]}); });
  unary("aten.square.default", {3, 4});
  unary("aten.clamp_min.default", {3, 4}, {0.1});
  unary("aten.clamp_max.default", {3, 4}, {0.1});
  add("aten.item.default", "", {{{}}}, [](P& p, const Args& a) {
    ir::Node* i = p.call("item", "aten.item.default", {a[0]});
    return p.call("out", "aten.mul.Tensor", {a[0], i});
  });
  add("aten.type_as.default", "", {{{3, 4}}, {{2}, true}}, [](P& p, const Args& a) { return p.call("out", "aten.type_as.default", {a[0], a[1]}); });
  add("aten.zeros.default", "", {{{3, 4}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.add.Tensor", {a[0], p.call("z", "aten.zeros.default", {ints({3, 4})}, {{"device", ir::Device{}}, {"pin_memory", false}})});
  });
  add("aten.ones.default", "", {{{3, 4}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.add.Tensor", {a[0], p.call("o", "aten.ones.default", {ints({4})}, {{"dtype", ST::Float}})});
  });
  add("aten.zeros_like.default", "", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.zeros_like.default", {transposed(p, a[0], 0, 1)}); });
  add("aten.ones_like.default", "", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.ones_like.default", {a[0]}, {{"pin_memory", false}}); });
  add("aten.arange.default", "", {{{3, 4}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.add.Tensor", {a[0], p.call("r", "aten.arange.default", {int64_t{4}}, {{"device", ir::Device{}}, {"pin_memory", false}})});
  });
  add("aten.arange.start", "", {{{3, 4}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.add.Tensor", {a[0], p.call("r", "aten.arange.start", {int64_t{2}, int64_t{6}}, {{"dtype", ST::Float}})});
  });
  add("aten.pad.default", "", {{{2, 3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.pad.default", {a[0], ints({1, 2, 0, 1})}); });
  // ---- positions: roll, triu / tril; addcmul, fill.Tensor ----
  add("aten.roll.default", "two dims", {{{2, 5, 6}}}, [](P& p, const Args& a) { return p.call("out", "aten.roll.default", {a[0], ints({2, -7}), ints({1, -1})}); });
  add("aten.roll.default", "flattened", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.roll.default", {transposed(p, a[0], 0, 1), ints({5})}); });
  add("aten.triu.default", "", {{{4, 6}}}, [](P& p, const Args& a) { return p.call("out", "aten.triu.default", {a[0], int64_t{1}}); });
  add("aten.triu.default", "batched, strided", {{{2, 5, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten.triu.default", {transposed(p, a[0], 1, 2), int64_t{-1}}); });
  add("aten.tril.default", "", {{{4, 6}}}, [](P& p, const Args& a) { return p.call("out", "aten.tril.default", {a[0]}); });
  add("aten.tril.default", "bool", {{{4, 6}, false, true}}, [](P& p, const Args& a) { return p.call("out", "aten.tril.default", {a[0], int64_t{2}}); });
  add("aten.addcmul.default", "", {{{3, 4}}, {{4}}, {{3, 1}}}, [](P& p, const Args& a) { return p.call("out", "aten.addcmul.default", {a[0], a[1], a[2]}); });
  add("aten.addcmul.default", "value", {{{3, 4}}, {{3, 4}}, {{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.addcmul.default", {a[0], a[1], a[2]}, {{"value", 0.5}}); });
  add("aten.addcdiv.default", "value", {{{3, 4}}, {{4}}, {{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.addcdiv.default", {a[0], a[1], a[2]}, {{"value", -2.0}}); });
  add("aten.fill.Tensor", "", {{{3, 4}}, {{}}}, [](P& p, const Args& a) { return p.call("out", "aten.fill.Tensor", {transposed(p, a[0], 0, 1), a[1]}); });
  add("aten.masked_fill.Scalar", "", {{{3, 4}}, {{3, 4}, false, true}}, [](P& p, const Args& a) { return p.call("out", "aten.masked_fill.Scalar", {a[0], a[1], 1.5}); });
  add("aten.where.ScalarOther", "", {{{3, 4}, false, true}, {{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.where.ScalarOther", {a[0], a[1], -2.5}); });
  add("aten.where.ScalarSelf", "", {{{3, 4}, false, true}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.where.ScalarSelf", {a[0], 1.5, a[1]}); });
  add("aten.floor_divide.default", "", {{{3, 4}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.floor_divide.default", {a[0], a[1]}); });
  add("aten.floor_divide.Scalar", "", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.floor_divide.Scalar", {a[0], int64_t{2}}); });
  // empty_like's values are undefined: filled through index_put over every index, as MoE routing does
  add("aten.empty_like.default", "filled", {{{4}}}, [](P& p, const Args& a) {
    ir::Node* e = p.call("e", "aten.empty_like.default", {a[0]}, {{"pin_memory", false}});
    ir::Node* idx = p.call("idx", "aten.arange.default", {int64_t{4}}, {{"device", ir::Device{}}, {"pin_memory", false}});
    return p.call("out", "aten.index_put.default", {e, ir::ArgumentList{{idx}}, a[0]});
  });
  add("aten.var.dim", "", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.var.dim", {a[0], ints({1})}); });
  add("aten.var.dim", "biased, keepdim", {{{3, 4}}}, [](P& p, const Args& a) { return p.call("out", "aten.var.dim", {a[0], ints({0}), false, true}); });

  add("aten.new_ones.default", "", {{{3, 4}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.add.Tensor", {a[0], p.call("o", "aten.new_ones.default", {a[0], ints({4})}, {{"pin_memory", false}})});
  });
  add("aten.new_zeros.default", "", {{{3, 4}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.add.Tensor", {a[0], p.call("z", "aten.new_zeros.default", {a[0], ints({3, 4})})});
  });
  add("aten.new_full.default", "", {{{3, 4}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.add.Tensor", {a[0], p.call("f", "aten.new_full.default", {a[0], ints({4}), 2.5})});
  });
  add("aten.min.other", "", {{{3, 4}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.min.other", {a[0], a[1]}); });
  add("aten.max.other", "", {{{3, 4}}, {{4}}}, [](P& p, const Args& a) { return p.call("out", "aten.max.other", {a[0], a[1]}); });
  for (const char* op : {"aten.__and__.Tensor", "aten.__or__.Tensor", "aten.__xor__.Tensor"})
    add(op, "", {{{3, 4}, false, true}, {{4}, false, true}}, [op](P& p, const Args& a) { return p.call("out", op, {a[0], a[1]}); });
  unary("aten.lift_fresh_copy.default", {3, 4});
  for (const char* op : {"aten.detach.default", "aten.lift_fresh.default"}) unary(op, {3, 4});
  add("aten.diff.default", "prepend", {{{3, 5}}, {{3, 1}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.diff.default", {a[0], int64_t{1}, int64_t{-1}, a[1]});
  });
  add("aten.diff.default", "twice along dim 0", {{{5, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten.diff.default", {a[0], int64_t{2}, int64_t{0}}); });
  add("aten.to.dtype_layout", "to float64", {{{3, 4}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.to.dtype_layout", {a[0]}, {{"dtype", ST::Double}, {"layout", ir::Layout::Strided}, {"device", ir::Device{}}});
  });
  add("aten.to.device", "same device", {{{3, 4}}}, [](P& p, const Args& a) {
    return p.call("out", "aten.mul.Tensor", {p.call("t", "aten.to.device", {a[0], ir::Device{}, ST::Float}), 2.0});
  });

  // ---- recurrent layers: every output of lstm / gru / rnn_* (sequence, final states) ----
  // `inputs`: x, the hidden state(s), then each layer and direction's weights (ih, hh[, biases][, hr]).
  auto recurrent = [&](std::string op, std::string label, std::vector<Input> in, size_t states, bool has_biases,
                       int64_t layers, bool bidirectional, bool batch_first) {
    for (int64_t result = 0; result <= int64_t(states); ++result)
      add(op, label + ", output " + std::to_string(result), in,
          [=](P& p, const Args& a) {
            ir::ArgumentList hx, params;
            for (size_t i = 1; i <= states; ++i) hx.items.push_back(a[i]);
            for (size_t i = 1 + states; i < a.size(); ++i) params.items.push_back(a[i]);
            const ir::Argument h = states == 2 ? ir::Argument(hx) : ir::Argument(a[1]);
            ir::Node* r = p.call("rnn", op, {a[0], h, params, has_biases, layers, 0.0, false, bidirectional, batch_first});
            return p.call("out", "_operator.getitem", {r, result});
          });
  };
  recurrent("aten.lstm.input", "1 layer", {{{4, 2, 3}}, {{1, 2, 5}}, {{1, 2, 5}}, {{20, 3}}, {{20, 5}}, {{20}}, {{20}}},
            2, true, 1, false, false);
  recurrent("aten.lstm.input", "2 layers, bidirectional, batch_first, no biases",
            {{{2, 4, 3}}, {{4, 2, 5}}, {{4, 2, 5}}, {{20, 3}}, {{20, 5}}, {{20, 3}}, {{20, 5}}, {{20, 10}}, {{20, 5}},
             {{20, 10}}, {{20, 5}}},
            2, false, 2, true, true);
  recurrent("aten.lstm.input", "projections",
            {{{3, 2, 3}}, {{1, 2, 2}}, {{1, 2, 5}}, {{20, 3}}, {{20, 2}}, {{20}}, {{20}}, {{2, 5}}}, 2, true, 1, false, false);
  recurrent("aten.gru.input", "2 layers, bidirectional, batch_first",
            {{{2, 4, 3}}, {{4, 2, 5}}, {{15, 3}}, {{15, 5}}, {{15}}, {{15}}, {{15, 3}}, {{15, 5}}, {{15}}, {{15}},
             {{15, 10}}, {{15, 5}}, {{15}}, {{15}}, {{15, 10}}, {{15, 5}}, {{15}}, {{15}}},
            1, true, 2, true, true);
  recurrent("aten.rnn_tanh.input", "1 layer", {{{4, 2, 3}}, {{1, 2, 5}}, {{5, 3}}, {{5, 5}}, {{5}}, {{5}}}, 1, true, 1,
            false, false);
  recurrent("aten.rnn_relu.input", "bidirectional, no biases", {{{4, 2, 3}}, {{2, 2, 5}}, {{5, 3}}, {{5, 5}}, {{5, 3}}, {{5, 5}}},
            1, false, 1, true, false);

  // ---- custom tables ----
  // The seed's double_conv2d: conv2d becomes 2 * convolution.
  add("aten.conv2d.default", "double_conv2d", {{{1, 2, 5, 5}}, {{3, 2, 3, 3}}}, [](P& p, const Args& a) { return p.call("out", "aten.conv2d.default", {a[0], a[1]}); });
  s.back().table = "double_conv2d";
  s.back().want_scale = 2.0;

  // Ops whose rules are dtype-generic also run on integers (views, copies, sums, padding).
  static const std::set<std::string> integer_ops = {
      "aten.reshape.default", "aten.flatten.using_ints", "aten.contiguous.default", "aten.view_as.default",
      "aten.expand_as.default", "aten.unflatten.int", "aten.narrow.default", "aten.chunk.default",
      "aten.swapaxes.default", "aten.movedim.int", "aten.broadcast_to.default", "aten.numpy_T.default", "aten.transpose.int", "aten.t.default",
      "aten._unsafe_view.default", "aten.split.Tensor", "aten.unbind.int", "aten.squeeze.default",
      "aten.squeeze.dim", "aten.stack.default", "aten.select_scatter.default", "aten.sum.default", "aten.square.default",
      "aten.rsub.Tensor", "aten.pad.default", "aten.zeros_like.default", "aten.ones_like.default",
      "aten.masked_fill.Scalar", "aten.mv.default", "aten.dot.default", "aten.matmul.default",
      "aten.lift_fresh_copy.default", "aten.detach.default", "aten.lift_fresh.default",
      "aten.diff.default", "aten.floor_divide.Scalar", "aten.min.other", "aten.max.other", "aten.roll.default",
      "aten.triu.default", "aten.tril.default", "aten.fill.Tensor"};
  for (auto& sample : s) sample.int64_too = integer_ops.count(sample.op) > 0;
  return s;
}

at::Tensor random_input(const Input& in, at::ScalarType dtype) {
  if (in.integer) return at::randint(4, in.sizes, at::kLong);
  if (in.boolean) return at::rand(in.sizes) > 0.3;
  if (dtype == at::kLong) return at::randint(-9, 10, in.sizes, at::kLong);
  return at::randn(in.sizes, at::TensorOptions().dtype(dtype));
}

/// The data rows' dtypes: the IR's and LibTorch's.
struct Dtype {
  ST ir;
  at::ScalarType torch;
};
Dtype dtype_named(const std::string& name) {
  if (name == "f64") return {ST::Double, at::kDouble};
  if (name == "i64") return {ST::Long, at::kLong};
  return {ST::Float, at::kFloat};
}

/// Rules may reassociate float arithmetic: float32 within 1e-4, float64 within 1e-9; NaNs match.
testing::Tolerance rule_tolerance(at::ScalarType want) {
  if (want == at::kDouble) return {1e-9, 1e-9, true};
  return {1e-4, 1e-5, true};
}

/// "" when they agree.
std::string compare_within_rule_tolerance(const c10::IValue& got, const c10::IValue& want) {
  return testing::compare_values(got, want, rule_tolerance);
}

/// A rule's identity across tables: a custom table that replaces an op's
/// rule (double_conv2d's conv2d) has a rule of its own to cover.
std::string rule_id(const passes::DecompositionRule& r) { return r.op + " [" + r.family + ": " + r.reference + "]"; }

/// Every rule the engine provides, read from its tables: every registered
/// table (built-in and custom) and the functionalization rules every
/// lowering applies. A rule added anywhere shows up here.
std::set<std::string> every_rule() {
  std::set<std::string> out;
  for (const auto* r : passes::functionalization_rules().rules()) out.insert(rule_id(*r));
  for (const auto& name : passes::decomposition_table_names()) {
    const auto table = passes::decomposition_table(name);  // rules() points into it
    for (const auto* r : table.rules()) out.insert(rule_id(*r));
  }
  return out;
}

/// The rule a sample exercises: its table's, else the functionalization rule (the lowering's order).
const passes::DecompositionRule* rule_of(const Sample& s, const passes::DecompositionTable& table) {
  if (const auto* r = table.find(s.op)) return r;
  return passes::functionalization_rules().find(s.op);
}

/// One row of rule_matches_op: a sample at one dtype.
struct SampleRow {
  std::string name;  // "op [label] dtype"
  int index;
  std::string dtype;
};

/// One row of lowered_fixture_gives_torchs_outputs: a fixture at one level.
struct LevelRow {
  std::string name;  // fixture/level
  std::string fixture;
  std::string level;
};

}  // namespace

EL_TEST(every_rule_has_a_sample) {
  const auto rules = every_rule();
  VERIFY_MSG(rules.size() > 50, "the engine's tables look empty");
  std::set<std::string> sampled;
  for (const auto& s : samples()) {
    const auto table = passes::decomposition_table(s.table);
    const auto* r = rule_of(s, table);
    VERIFY_MSG(r, s.op + ": no rule in table " + s.table);
    sampled.insert(rule_id(*r));
  }
  std::vector<std::string> missing;
  for (const auto& id : rules)
    if (!sampled.count(id)) missing.push_back(id);
  VERIFY_MSG(missing.empty(), "rules without a numerical sample:\n  " + join(missing, "\n  "));
}

EL_TEST(rule_matches_op) {
  std::vector<SampleRow> rows;
  const auto all = samples();
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string name = all[i].op + (all[i].label.empty() ? "" : " [" + all[i].label + "]");
    std::vector<std::string> dtypes{"f32"};
    if (all[i].float64_too) dtypes.push_back("f64");
    if (all[i].int64_too) dtypes.push_back("i64");
    for (const auto& d : dtypes) rows.push_back({name + " " + d, int(i), d});
  }
  for_each_row(rows, [&all](const SampleRow& row) {
    const int index = row.index;
    const Sample& sample = all[size_t(index)];
    const Dtype dt = dtype_named(row.dtype);
    ProgramBuilder p = pass_program();
    Args inputs;
    for (size_t i = 0; i < sample.inputs.size(); ++i) {
      const Input& in = sample.inputs[i];
      const ST t = in.integer ? ST::Long : in.boolean ? ST::Bool : dt.ir;
      inputs.push_back(p.input("x" + std::to_string(i), ir::InputKind::UserInput, in.sizes, std::nullopt, t));
    }
    p.output({sample.build(p, inputs)});

    passes::LoweringReport report;
    const auto lowered = passes::run_decompositions(p.ep, passes::decomposition_table(sample.table), &report);
    for (const auto& w : report.warnings) std::fprintf(stderr, "%s\n", w.c_str());
    VERIFY_MSG(report.warnings.empty(), "the lowering warned (see above)");
    VERIFY_MSG(!passes::op_histogram(lowered).count(sample.op), "the op is still in the lowered program");

    at::manual_seed(index);
    std::vector<c10::IValue> args;
    for (const auto& in : sample.inputs) args.emplace_back(random_input(in, dt.torch));
    auto clone_all = [&] {
      std::vector<c10::IValue> c;
      for (const auto& a : args) c.emplace_back(a.toTensor().clone());
      return c;
    };
    auto original_inputs = clone_all();
    std::vector<c10::IValue> want, got;
    try {
      want = runtime::Interpreter(p.ep, c10::kCPU).run_graph(original_inputs);
    } catch (const std::exception& e) {
      FAIL(std::string("the original program does not run: ") + e.what());
    }
    if (sample.want_scale != 1.0)
      for (auto& w : want) w = w.toTensor() * sample.want_scale;
    try {
      got = runtime::Interpreter(lowered, c10::kCPU).run_graph(clone_all());
    } catch (const std::exception& e) {
      FAIL(std::string("the lowered program does not run: ") + e.what());
    }

    // Inputs the op updated in place come back from the lowered program as mutation outputs.
    size_t next = 0;
    for (const auto& spec : lowered.signature.outputs) {
      if (spec.kind != ir::OutputKind::UserInputMutation) break;
      size_t input = 0;
      while (input < inputs.size() && inputs[input]->name != spec.target) ++input;
      VERIFY(input < inputs.size());
      const std::string e = compare_within_rule_tolerance(got[next++], original_inputs[input]);
      VERIFY_MSG(e.empty(), "updated input " + *spec.target + ": " + e);
    }
    COMPARE(got.size() - next, want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      if (const double p = sample.dropout_p; p > 0) {
        // Training dropout: each element is 0 or the input scaled by 1 / (1 - p),
        // and the kept fraction is 1 - p within 5 standard deviations.
        const at::Tensor g = got[next + i].toTensor(), x = args[0].toTensor();
        COMPARE(g.sizes(), want[i].toTensor().sizes());
        const at::Tensor kept = g != 0;
        VERIFY(at::allclose(g.masked_select(kept), (x / (1 - p)).masked_select(kept), 1e-5, 1e-6));
        const double n = double(g.numel()), fraction = kept.sum().item<double>() / n;
        const double sd = std::sqrt(p * (1 - p) / n);
        std::ostringstream message;  // a double's shortest form, as before
        message << "kept " << fraction << " of the elements, want " << 1 - p << " ± " << 5 * sd;
        VERIFY_MSG(std::abs(fraction - (1 - p)) <= 5 * sd, message.str());
        continue;
      }
      const std::string e = compare_within_rule_tolerance(got[next + i], want[i]);
      VERIFY_MSG(e.empty(), e);
    }
  });
}

// ---- whole programs -------------------------------------------------------------------

EL_TEST(lowered_fixture_gives_torchs_outputs) {
  // Every fixture; one torch refuses to lower must be refused by ExportLens
  // too. Only the listed known differences are left out, and they say why.
  // And the lowering-only cases (the oracle's LOWERING_CASES: mutations through views).
  std::vector<std::string> names = fixtures_with_status("ok");
  for (auto& n : lowering_cases()) names.push_back(std::move(n));
  std::vector<LevelRow> rows;
  for (const auto& n : names) {
    if (const KnownDifference* k = known_difference("runtime", n, "outputs")) {
      std::fprintf(stderr, "%s: not run: %s\n", n.c_str(), k->reason);
      continue;
    }
    rows.push_back({n + "/functional", n, "functional"});
    rows.push_back({n + "/core", n, "core"});
  }
  for_each_row(rows, [](const LevelRow& row) {
    const std::string& fixture = row.fixture;
    const std::string& level = row.level;
    const auto ep = serde::read_pt2(fixture_file(fixture, "program.pt2"));
    const json torch_lowering = read_json(fixture_file(fixture, "decomp.json")).value(level, json::object());
    // torch refuses it, or ExportLens does (known_differences.h says why): ExportLens must refuse it.
    if (torch_lowering.value("status", std::string()) == "error" ||
        known_difference("decompositions", fixture + "/" + level, "refused")) {
      VERIFY_THROWS(passes::DecompositionError, passes::lower_to(ep, *passes::parse_ir_level(level)));
      return;
    }
    const auto lowered = passes::lower_to(ep, *passes::parse_ir_level(level));
    const auto inputs = load_tuple(fixture_file(fixture, "inputs.pt"));
    const auto want = load_tuple(fixture_file(fixture, "outputs.pt"));
    std::vector<c10::IValue> got;
    try {
      got = runtime::Interpreter(lowered, c10::kCPU).run(inputs);
    } catch (const std::exception& e) {
      FAIL(e.what());
    }
    COMPARE(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      const std::string e = compare_within_rule_tolerance(got[i], want[i]);
      VERIFY_MSG(e.empty(), "output " + std::to_string(i) + ": " + e);
    }
    if (level == "core") {
      VERIFY_MSG(exists(fixture_file(fixture, "core_outputs.pt")), torch_lowering.value("outputs_error", std::string()));
      const auto core_outputs = load_tuple(fixture_file(fixture, "core_outputs.pt"));
      COMPARE(core_outputs.size(), got.size());
      for (size_t i = 0; i < core_outputs.size(); ++i)
        VERIFY_MSG(compare_within_rule_tolerance(got[i], core_outputs[i]).empty(),
                   "differs from torch's Core ATen program's output");
    }
  });
}
