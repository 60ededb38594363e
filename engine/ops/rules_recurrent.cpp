// Recurrent layers (aten.lstm.input, aten.gru.input, aten.rnn_tanh.input,
// aten.rnn_relu.input): the output sequence keeps the input's first two dims
// (time and batch, in batch_first order or not) and has D * H_out features
// (D = 2 when bidirectional, H_out the hidden state's last dim: the
// projection size for an LSTM with projections); the final hidden states
// have the initial ones' sizes. torch's CPU kernels unbind the input over
// time (one step per cell call), so the time dim specializes to its size.
#include "engine/ops/rule_helpers.h"

namespace exportlens::ops {

namespace {

SymTensor sequence_output(RuleContext& ctx, const SymTensor& hidden) {
  SymTensor input = ctx.tensor(0, "input");
  if (input.rank() != 3) throw RuleError("a recurrent layer expects a 3-D input, got " + std::to_string(input.rank()) + "-D");
  if (hidden.rank() != 3) throw RuleError("a recurrent layer expects 3-D hidden states, got " + std::to_string(hidden.rank()) + "-D");
  const int64_t directions = ctx.boolean_or(7, "bidirectional", false) ? 2 : 1;
  const size_t time = ctx.boolean_or(8, "batch_first", false) ? 1 : 0;
  input.sizes[time] = Expr(ctx.env.specialize(input.sizes[time], ctx.origin("recurrent layer: unbind over time")));
  input.sizes[2] = ctx.simplify(Expr(directions) * hidden.sizes[2]);
  return input;
}

SymValue lstm(RuleContext& ctx) {
  const std::vector<SymTensor> hx = ctx.tensors(1, "hx");
  if (hx.size() != 2) throw RuleError("lstm expects two hidden states, got " + std::to_string(hx.size()));
  return SymValue::list({SymValue::of(sequence_output(ctx, hx[0])), SymValue::of(hx[0]), SymValue::of(hx[1])});
}

SymValue single_state(RuleContext& ctx) {
  const SymTensor hx = ctx.tensor(1, "hx");
  return SymValue::list({SymValue::of(sequence_output(ctx, hx)), SymValue::of(hx)});
}

}  // namespace

void add_recurrent_rules(RuleTable& t) {
  t["aten.lstm.input"] = lstm;
  t["aten.gru.input"] = single_state;
  t["aten.rnn_tanh.input"] = single_state;
  t["aten.rnn_relu.input"] = single_state;
}

}  // namespace exportlens::ops
