#include "engine/diff/weight_diff.h"

#include <cmath>
#include <iterator>

#include "engine/ir/payload_values.h"

namespace exportlens::diff {
namespace {

bool is_weight(const ir::InputSpec* in) {
  return in && in->target &&
         (in->kind == ir::InputKind::Parameter || in->kind == ir::InputKind::Buffer ||
          in->kind == ir::InputKind::ConstantTensor);
}

std::string kind_text(ir::InputKind k) {
  return k == ir::InputKind::Parameter ? "parameter" : k == ir::InputKind::Buffer ? "buffer" : "constant";
}

const ir::TensorPayload* payload(const ir::ExportedProgram& p, const ir::InputSpec& in) {
  return in.kind == ir::InputKind::ConstantTensor ? p.find_constant(*in.target) : p.find_state(*in.target);
}

std::string meta_text(const ir::TensorPayload* p, const ir::Node* node) {
  if (p) return p->meta.annotation();
  const auto* t = node->value.tensor();
  return t ? t->annotation() : "?";
}

// The largest |x - y| over the elements in index order; NaN where exactly one side is NaN.
double max_abs_difference(ir::PayloadElements& x, ir::PayloadElements& y, const CancelToken* cancel) {
  double worst = 0, cx[4096], cy[4096];
  for (;;) {
    if (cancel) cancel->check();
    const size_t n = x.read(cx, std::size(cx));
    if (y.read(cy, n) != n) throw std::runtime_error("element counts differ");
    if (n == 0) return worst;
    for (size_t i = 0; i < n; ++i) {
      if (std::isnan(cx[i]) && std::isnan(cy[i])) continue;
      const double d = std::abs(cx[i] - cy[i]);
      if (std::isnan(d)) return d;
      worst = std::max(worst, d);
    }
  }
}

void compare_values(const ir::TensorPayload& x, const ir::TensorPayload& y, WeightDiff& w, const DiffOptions& options) {
  try {
    ir::PayloadElements ex(x), ey(y);
    if (ex.count() != ey.count()) {
      w.note = "values not compared: element counts differ";
      return;
    }
    w.max_abs_diff = max_abs_difference(ex, ey, options.cancel);
    if (*w.max_abs_diff != 0 && w.status == Status::Same) w.status = Status::Changed;
  } catch (const Cancelled&) {
    throw;
  } catch (const std::exception& e) {
    w.note = std::string("values not compared: ") + e.what();
  }
}

}  // namespace

std::vector<WeightDiff> diff_weights(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                                     const matching::ProgramMatching& m, const DiffOptions& options) {
  std::vector<WeightDiff> out;
  for (size_t i = 0; i < a.size(); ++i) {
    const ir::InputSpec* in = a.input_spec(static_cast<int>(i));
    if (!is_weight(in)) continue;
    const int j = m.a_to_b[i].node;
    const ir::InputSpec* there = j >= 0 ? b.input_spec(j) : nullptr;
    const ir::TensorPayload* px = payload(a.program(), *in);
    WeightDiff w;
    w.kind = kind_text(in->kind);
    w.name_a = *in->target;
    w.before = meta_text(px, a.nodes()[i]);
    if (!is_weight(there)) {
      w.status = Status::Removed;
      out.push_back(std::move(w));
      continue;
    }
    const ir::TensorPayload* py = payload(b.program(), *there);
    w.name_b = *there->target;
    w.after = meta_text(py, b.nodes()[static_cast<size_t>(j)]);
    w.status = w.before == w.after ? Status::Same : Status::Changed;
    if (options.weight_values && px && py && w.status == Status::Same) compare_values(*px, *py, w, options);
    if (w.status != Status::Same || options.weight_values) out.push_back(std::move(w));
  }
  for (size_t j = 0; j < b.size(); ++j) {
    const ir::InputSpec* in = b.input_spec(static_cast<int>(j));
    if (!is_weight(in) || m.b_to_a[j].matched()) continue;
    WeightDiff w;
    w.status = Status::Added;
    w.kind = kind_text(in->kind);
    w.name_b = *in->target;
    w.after = meta_text(payload(b.program(), *in), b.nodes()[j]);
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace exportlens::diff
