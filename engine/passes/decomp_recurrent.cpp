// Recurrent layers: torch._decomp's lstm_impl, gru_impl, rnn_tanh_input and
// rnn_relu_input (the .input overloads, padded sequences). Every layer is
// unrolled over the sequence as torch's Python decomposition unrolls it: the
// input projection once per layer (linear over the whole sequence, flipped
// for the reverse direction), then per step the hidden projection and the
// cell's gates; the steps' outputs concatenated, the final hidden states
// stacked. Iterating a tensor in Python is unbind(0), so the hidden states
// and the steps come from unbind, whose own rule makes slices and squeezes.
// Training-mode dropout between layers is never applied, as in torch's
// _rnn_helper (its condition `num_layers < i - 1` never holds).
#include <algorithm>
#include <functional>

#include "engine/passes/decomp_helpers.h"

namespace exportlens::passes {

using namespace detail;

namespace {

/// One layer and direction's weights (gather_params): nullptr where absent.
struct LayerParams {
  ir::Node* ih_weight = nullptr;
  ir::Node* hh_weight = nullptr;
  ir::Node* ih_bias = nullptr;
  ir::Node* hh_bias = nullptr;
  ir::Node* hr_weight = nullptr;  // LSTM projections
};

std::vector<LayerParams> gather_params(const OpCall& c, const std::vector<ir::Node*>& params, bool has_biases,
                                       bool has_projections) {
  const size_t group = has_biases ? (has_projections ? 5 : 4) : (has_projections ? 3 : 2);
  if (params.size() % group != 0)
    c.fail("len(params)=" + std::to_string(params.size()) + " is not divisible by group_size=" + std::to_string(group));
  std::vector<LayerParams> out;
  for (size_t i = 0; i < params.size(); i += group) {
    LayerParams p;
    p.ih_weight = params[i];
    p.hh_weight = params[i + 1];
    if (has_biases) {
      p.ih_bias = params[i + 2];
      p.hh_bias = params[i + 3];
    }
    if (group == 5) p.hr_weight = params[i + 4];
    if (group == 3) p.hr_weight = params[i + 2];
    out.push_back(p);
  }
  return out;
}

/// A layer's hidden state: h alone (GRU, RNN), or h and c (LSTM).
struct Hidden {
  ir::Node* h = nullptr;
  ir::Node* c = nullptr;
};

/// One layer's result: the sequence of outputs and the final hidden state.
struct LayerResult {
  ir::Node* out = nullptr;
  Hidden last;
};

ir::Node* linear(Rewriter& b, ir::Node* x, ir::Node* weight, ir::Node* bias) {
  std::vector<ir::Argument> args{x, weight};
  if (bias) args.push_back(bias);
  return b.call1("aten.linear.default", std::move(args));
}

ir::Node* call(Rewriter& b, const char* op, ir::Node* x, ir::Node* y) { return b.call1(op, {x, y}); }
ir::Node* call(Rewriter& b, const char* op, ir::Node* x) { return b.call1(op, {x}); }

/// Python's `for t in x`: x.unbind(0).
std::vector<ir::Node*> iterate(Rewriter& b, ir::Node* x) { return b.call_n("aten.unbind.int", {x}); }

std::vector<ir::Node*> chunk(Rewriter& b, ir::Node* x, int64_t chunks, int64_t dim) {
  return b.call_n("aten.chunk.default", {x, chunks, dim});
}

/// The layer's steps (flipped for the reverse direction) and the outputs' concatenation.
ir::Node* concatenate_steps(Rewriter& b, std::vector<ir::Node*> steps, bool reverse) {
  if (reverse) std::reverse(steps.begin(), steps.end());
  ir::ArgumentList list;
  for (ir::Node* s : steps) list.items.push_back(s);
  return b.call1("aten.cat.default", {list});
}

ir::Node* precomputed_input(Rewriter& b, ir::Node* inp, const LayerParams& p, bool reverse) {
  ir::Node* x = linear(b, inp, p.ih_weight, p.ih_bias);
  return reverse ? b.call1("aten.flip.default", {x, ints({0})}) : x;
}

/// lstm_cell (chunk_dim 2: the step input is [1, N, 4H] after the hidden projection's broadcast).
Hidden lstm_cell(Rewriter& b, ir::Node* inp, Hidden state, const LayerParams& p) {
  ir::Node* gates = call(b, "aten.add.Tensor", linear(b, state.h, p.hh_weight, p.hh_bias), inp);
  const std::vector<ir::Node*> g = chunk(b, gates, 4, 2);
  ir::Node* in_gate = call(b, "aten.sigmoid.default", g[0]);
  ir::Node* forget_gate = call(b, "aten.sigmoid.default", g[1]);
  ir::Node* cell_gate = call(b, "aten.tanh.default", g[2]);
  ir::Node* out_gate = call(b, "aten.sigmoid.default", g[3]);
  ir::Node* kept = call(b, "aten.mul.Tensor", forget_gate, state.c);
  ir::Node* cy = call(b, "aten.add.Tensor", kept, call(b, "aten.mul.Tensor", in_gate, cell_gate));
  ir::Node* hy = call(b, "aten.mul.Tensor", out_gate, call(b, "aten.tanh.default", cy));
  if (p.hr_weight) hy = linear(b, hy, p.hr_weight, nullptr);
  return {hy, cy};
}

/// one_layer_lstm
LayerResult one_layer_lstm(Rewriter& b, ir::Node* inp, Hidden hidden, const LayerParams& p, bool reverse) {
  Hidden state{b.call1("aten.unsqueeze.default", {hidden.h, int64_t{0}}),
               b.call1("aten.unsqueeze.default", {hidden.c, int64_t{0}})};
  ir::Node* pre = precomputed_input(b, inp, p, reverse);
  std::vector<ir::Node*> outputs;
  for (ir::Node* step : iterate(b, pre)) {
    state = lstm_cell(b, step, state, p);
    outputs.push_back(state.h);
  }
  ir::Node* out = concatenate_steps(b, std::move(outputs), reverse);
  ir::Node* h = b.call1("aten.squeeze.dim", {state.h, int64_t{0}});
  ir::Node* c = b.call1("aten.squeeze.dim", {state.c, int64_t{0}});
  return {out, {h, c}};
}

/// The cell of one_layer_rnn: the next hidden state from a step's projected input.
using RnnCell = ir::Node* (*)(Rewriter&, ir::Node* inp, ir::Node* hidden, const LayerParams&);

/// gru_cell: the step input is [N, 3H] (chunked on dim 1), the hidden projection [1, N, 3H] (dim 2).
ir::Node* gru_cell(Rewriter& b, ir::Node* inp, ir::Node* hidden, const LayerParams& p) {
  const std::vector<ir::Node*> ig = chunk(b, inp, 3, 1);
  const std::vector<ir::Node*> hg = chunk(b, linear(b, hidden, p.hh_weight, p.hh_bias), 3, 2);
  ir::Node* reset_gate = call(b, "aten.sigmoid.default", call(b, "aten.add.Tensor", hg[0], ig[0]));
  ir::Node* input_gate = call(b, "aten.sigmoid.default", call(b, "aten.add.Tensor", hg[1], ig[1]));
  ir::Node* new_gate =
      call(b, "aten.tanh.default", call(b, "aten.add.Tensor", ig[2], call(b, "aten.mul.Tensor", hg[2], reset_gate)));
  ir::Node* kept = call(b, "aten.mul.Tensor", call(b, "aten.sub.Tensor", hidden, new_gate), input_gate);
  return call(b, "aten.add.Tensor", kept, new_gate);
}

template <const char* Nonlinearity>
ir::Node* rnn_cell(Rewriter& b, ir::Node* inp, ir::Node* hidden, const LayerParams& p) {
  return call(b, Nonlinearity, call(b, "aten.add.Tensor", linear(b, hidden, p.hh_weight, p.hh_bias), inp));
}
constexpr char kTanh[] = "aten.tanh.default";
constexpr char kRelu[] = "aten.relu.default";

/// one_layer_rnn
LayerResult one_layer_rnn(Rewriter& b, ir::Node* inp, ir::Node* hidden, const LayerParams& p, bool reverse,
                          RnnCell cell) {
  ir::Node* pre = precomputed_input(b, inp, p, reverse);
  ir::Node* state = b.call1("aten.unsqueeze.default", {hidden, int64_t{0}});
  std::vector<ir::Node*> outputs;
  for (ir::Node* step : iterate(b, pre)) {
    state = cell(b, step, state, p);
    outputs.push_back(state);
  }
  ir::Node* out = concatenate_steps(b, std::move(outputs), reverse);
  return {out, {b.call1("aten.squeeze.dim", {state, int64_t{0}}), nullptr}};
}

using LayerFn = std::function<LayerResult(Rewriter&, ir::Node* inp, Hidden, const LayerParams&, bool reverse)>;

/// The arguments after `hx` and `params`, as every .input overload has them.
struct RnnOptions {
  bool has_biases = true;
  int64_t num_layers = 1;
  bool bidirectional = false;
  bool batch_first = false;
};
RnnOptions rnn_options(const OpCall& c) {
  RnnOptions o;
  o.has_biases = c.boolean_or(3, "has_biases", true);
  o.num_layers = c.integer(4, "num_layers");
  o.bidirectional = c.boolean_or(7, "bidirectional", false);
  o.batch_first = c.boolean_or(8, "batch_first", false);
  if (o.num_layers < 1) c.fail("num_layers must be positive");
  return o;
}

ir::Node* transpose01(Rewriter& b, ir::Node* x) { return b.call1("aten.transpose.int", {x, int64_t{0}, int64_t{1}}); }

/// _rnn_helper: the layers in order (each direction from the same input), the
/// directions' outputs concatenated on the last dim; the final hidden states in
/// torch's order (layer by layer, forward before backward).
std::pair<ir::Node*, std::vector<Hidden>> rnn_helper(Rewriter& b, const OpCall& c, ir::Node* input,
                                                     const std::vector<Hidden>& hidden,
                                                     const std::vector<LayerParams>& params, const RnnOptions& o,
                                                     const LayerFn& layer_fn) {
  const size_t directions = o.bidirectional ? 2 : 1;
  if (params.size() != size_t(o.num_layers) * directions || hidden.size() != params.size())
    c.fail("expected " + std::to_string(o.num_layers * int64_t(directions)) + " layer parameter groups and hidden states, got " +
           std::to_string(params.size()) + " and " + std::to_string(hidden.size()));
  if (o.batch_first) input = transpose01(b, input);
  std::vector<Hidden> final_hiddens;
  for (int64_t i = 0; i < o.num_layers; ++i) {
    const size_t at = size_t(i) * directions;
    const LayerResult fwd = layer_fn(b, input, hidden[at], params[at], false);
    final_hiddens.push_back(fwd.last);
    if (o.bidirectional) {
      const LayerResult bwd = layer_fn(b, input, hidden[at + 1], params[at + 1], true);
      final_hiddens.push_back(bwd.last);
      const int64_t last_dim = int64_t(b.rank(fwd.out)) - 1;
      input = b.call1("aten.cat.default", {ir::ArgumentList{{fwd.out, bwd.out}}, last_dim});
    } else {
      input = fwd.out;
    }
  }
  if (o.batch_first) input = transpose01(b, input);
  return {input, final_hiddens};
}

ir::Node* stack(Rewriter& b, const std::vector<ir::Node*>& tensors) {
  ir::ArgumentList list;
  for (ir::Node* t : tensors) list.items.push_back(t);
  return b.call1("aten.stack.default", {list});
}

/// lstm_impl with one_layer_lstm: torch 2.13's export retrace takes that path, not
/// mkldnn_one_layer_lstm (the corpus' LSTM, tests/oracle/corpus_models.py, shows it).
ir::Argument lstm(Rewriter& b, const OpCall& c) {
  ir::Node* input = c.tensor(0, "input");
  const std::vector<ir::Node*> hx = c.tensors(1, "hx");
  if (hx.size() != 2) c.fail("lstm expects two hidden states, got " + std::to_string(hx.size()));
  const RnnOptions o = rnn_options(c);
  if (b.rank(hx[0]) != 3 || b.rank(hx[1]) != 3) c.fail("lstm expects 3-D hidden states");
  const bool has_projections = hint_of(b, b.sizes(hx[0])[2]) != hint_of(b, b.sizes(hx[1])[2]);
  const std::vector<LayerParams> params = gather_params(c, c.tensors(2, "params"), o.has_biases, has_projections);
  // list(zip(hx[0], hx[1])): both iterated before the first pair is taken
  const std::vector<ir::Node*> hs = iterate(b, hx[0]);
  const std::vector<ir::Node*> cs = iterate(b, hx[1]);
  std::vector<Hidden> hidden;
  for (size_t i = 0; i < std::min(hs.size(), cs.size()); ++i) hidden.push_back({hs[i], cs[i]});
  auto [out, final_hiddens] = rnn_helper(b, c, input, hidden, params, o, one_layer_lstm);
  std::vector<ir::Node*> h, cell;
  for (const Hidden& f : final_hiddens) {
    h.push_back(f.h);
    cell.push_back(f.c);
  }
  ir::Node* h_n = stack(b, h);
  ir::Node* c_n = stack(b, cell);
  return ir::ArgumentList{{out, h_n, c_n}, true};
}

/// gru_impl / rnn_tanh_input / rnn_relu_input: hx.unbind(0), one_layer_rnn with the cell.
DecompositionFn single_state_rnn(RnnCell cell) {
  return [cell](Rewriter& b, const OpCall& c) -> ir::Argument {
    ir::Node* input = c.tensor(0, "input");
    ir::Node* hx = c.tensor(1, "hx");
    const RnnOptions o = rnn_options(c);
    std::vector<Hidden> hidden;
    for (ir::Node* h : iterate(b, hx)) hidden.push_back({h, nullptr});
    const std::vector<LayerParams> params = gather_params(c, c.tensors(2, "params"), o.has_biases, false);
    const LayerFn layer = [cell](Rewriter& b, ir::Node* inp, Hidden h, const LayerParams& p, bool reverse) {
      return one_layer_rnn(b, inp, h.h, p, reverse, cell);
    };
    auto [out, final_hiddens] = rnn_helper(b, c, input, hidden, params, o, layer);
    std::vector<ir::Node*> h;
    for (const Hidden& f : final_hiddens) h.push_back(f.h);
    return ir::ArgumentList{{out, stack(b, h)}, true};
  };
}

}  // namespace

void add_recurrent_decompositions(DecompositionTable& t) {
  const char* f = "recurrent";
  t.set(rule("aten.lstm.input", f, "torch._decomp lstm_impl", lstm));
  t.set(rule("aten.gru.input", f, "torch._decomp gru_impl", single_state_rnn(gru_cell)));
  t.set(rule("aten.rnn_tanh.input", f, "torch._decomp rnn_tanh_input", single_state_rnn(rnn_cell<kTanh>)));
  t.set(rule("aten.rnn_relu.input", f, "torch._decomp rnn_relu_input", single_state_rnn(rnn_cell<kRelu>)));
}

}  // namespace exportlens::passes
