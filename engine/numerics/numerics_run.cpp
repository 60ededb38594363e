#include "engine/numerics/numerics_run.h"

#include <ATen/ATen.h>
#include <c10/core/DeviceGuard.h>

#include <array>
#include <chrono>
#include <span>
#include <unordered_map>

#include "engine/ir/op_key.h"
#include "engine/numerics/data_movement.h"
#include "engine/numerics/tensor_error.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/run_inputs.h"
#include "engine/runtime/saved_values.h"
#include "engine/runtime/torch_types.h"

namespace exportlens::numerics {
namespace {

using c10::IValue;

// Regions bigger than this are not run again on A's inputs (a node's
// decomposition is a few nodes; a region this big is a matching that went wide).
constexpr size_t kMaxRegion = 64;

std::optional<c10::ScalarType> precision_dtype(runtime::Precision p) {
  switch (p) {
    case runtime::Precision::BFloat16: return at::kBFloat16;
    case runtime::Precision::Float16: return at::kHalf;
    case runtime::Precision::Float64: return at::kDouble;
    case runtime::Precision::AsExported: return std::nullopt;
  }
  return std::nullopt;
}

/// The B computation that stands for one pair: the B nodes its B node needs,
/// back to the paired nodes (whose values come from A) and the placeholders.
/// (Views into one array that holds every region: thousands of pairs, mostly
/// of one node each, would otherwise make three small vectors apiece per run.)
struct Region {
  std::span<const ir::Node* const> nodes;   // in B's order, the pair's B node last
  std::span<const ir::Node* const> from_a;  // paired B nodes it reads: their values come from A
  std::span<const ir::Node* const> own;     // other B nodes it reads: B's own values
  bool evaluable = true;
};

// What a pair's introduced error is when its region only moves data
// (data_movement.h) and A ran the very same nodes (one program, one graph):
enum class Shortcut {
  None,       // run the region on A's inputs
  OwnInputs,  // it reads no A value (a weight's permute): B's own computation, so its total error
  Moves,      // one A input x: op(cast(x)) == cast(op(x)), so A's value against its cast; and
              // where A's value is read as x's very sequence (same_sequence), x's figures
};

/// The statistics of a compared pair that a later pair may reuse exactly.
struct Known {
  std::optional<ErrorStats> stats;
  c10::ScalarType a_dtype = c10::ScalarType::Undefined, b_dtype = c10::ScalarType::Undefined;
};

struct Pair {
  const ir::Node* a = nullptr;  // null in reference mode
  std::string a_name;  // the recorded value's name (reference values; else p.a names it)
  const ir::Node* b = nullptr;
  Region region;
  bool done = false;
  Shortcut shortcut = Shortcut::None;
  const ir::Node* moved = nullptr;  // Moves: the A input x the region moves
  bool keeps_order = false;         // Moves: every node of the region keeps the row-major order
  // Its A value against its cast to B's precision is wanted (by a later Moves
  // pair reading it, or for its own introduced error): read in the same pass as its total.
  bool wants_rounding = false;
  Known total;     // B against A, when read in one pass on the CPU (streamed)
  Known rounding;  // A's value against its cast to B's precision, once computed
};

class Lockstep {
 public:
  explicit Lockstep(const NumericsRequest& r) : r_(r), pb_(*r.b.program) {}

  // Graph inputs asked for: both runs start from them, so A's value alone.
  void keep_inputs(const ir::ExportedProgram& program, const std::vector<IValue>& inputs) {
    const auto user = program.signature.user_inputs();
    for (size_t i = 0; i < user.size() && i < inputs.size(); ++i)
      if (r_.keep.count(user[i]->arg.name) && inputs[i].isTensor()) {
        SnapshotPair kept;
        kept.a = snapshot(inputs[i].toTensor(), r_.snapshot_elements);
        kept.only_a = true;
        result_.kept.emplace(user[i]->arg.name, std::move(kept));
      }
  }

  NumericsResult run() {
    const auto started = std::chrono::steady_clock::now();
    result_.report.a_label = r_.a.label;
    result_.report.b_label = r_.b.label;
    if (!r_.b.program || (!r_.reference && !r_.a.program))
      throw Error(ErrorKind::Usage, {}, "a numerics run needs a program for A (or reference values) and for B");
    const ir::ExportedProgram& inputs_for = r_.reference ? pb_ : *r_.a.program;
    runtime::RunRequest in;
    in.inputs_file = r_.inputs_file;
    in.random_inputs = !r_.inputs_file;
    in.seed = r_.seed;
    in.limits = r_.limits;
    const std::vector<IValue> inputs = runtime::gather_inputs(inputs_for, in);
    keep_inputs(inputs_for, inputs);
    if (r_.reference) load_reference();

    const c10::Device device_b(r_.b.device);
    std::optional<c10::DeviceGuard> on_b;
    if (!device_b.is_cpu()) on_b.emplace(device_b);
    std::optional<runtime::Interpreter> ia, ib;
    if (!r_.reference) {
      ia.emplace(*r_.a.program, c10::Device(r_.a.device), r_.a.precision);
      configure(*ia);
    }
    // One program on one device both ways (a precision against another): B shares A's set-up.
    if (ia && r_.a.program == r_.b.program && ia->device() == device_b) ib.emplace(*ia, r_.b.precision);
    else ib.emplace(pb_, device_b, r_.b.precision);
    configure(*ib);
    b_dtype_ = precision_dtype(r_.b.precision);
    b_device_ = device_b;
    pair_nodes();
    runtime::RunStepper b = ib->start(inputs);
    std::optional<runtime::RunStepper> a;
    if (ia) a.emplace(ia->start(inputs));
    a_ = a ? &*a : nullptr;
    hold_region_inputs(b, a_, true);

    finite_[kB].assign(pb_.graph().size(), kFinite);
    if (r_.a.program) finite_[kA].assign(r_.a.program->graph().size(), kFinite);
    const int total = int(pb_.graph().size());
    int done = 0;
    while (const ir::Node* m = b.step()) {
      if (r_.cancel) r_.cancel->check();
      if (r_.progress) r_.progress(++done, total);
      const int pi = paired(*m);
      note_finiteness(*m, b, kB, /*compared=*/pi >= 0);
      if (pi >= 0) {
        Pair& p = pairs_[size_t(pi)];
        const IValue* va = a_value(p);
        compare(p, va, b);
        release_pair(p, b);
      }
      b.release();
    }
    if (a)
      while (a->step()) a->release();  // A's nodes after its last paired one
    compare_outputs(b);
    for (int side : {0, 1})
      if (!pending_origin_[side].empty() && !(side ? result_.report.first_nonfinite_b : result_.report.first_nonfinite_a))
        result_.report.notes.push_back(std::string("the first node turning finite inputs into NaN/Inf in ") +
                                       (side ? "B" : "A") + " is '" + pending_origin_[side] + "' (not compared)");
    result_.report.peak_bytes = b.peak_bytes() + (a ? a->peak_bytes() : 0);
    result_.report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result_.report.skipped += r_.pairing.unpaired;
    if (!r_.pairing.basis.empty()) result_.report.notes.push_back("nodes paired by " + r_.pairing.basis);
    return std::move(result_);
  }

 private:
  void configure(runtime::Interpreter& i) const {
    i.set_allowed_ops(r_.allowed_ops);
    i.set_memory_limit(r_.limits.max_run_bytes);
  }

  void load_reference() {
    const IValue v = runtime::load_saved_value(*r_.reference, "reference values", r_.limits);
    if (!v.isGenericDict())
      throw Error(ErrorKind::Input, {.file = r_.reference->string()},
                  "expected a dict of {node name: tensor} (exportlens_reference writes one)");
    for (const auto& entry : v.toGenericDict())
      if (entry.key().isString()) reference_.emplace(entry.key().toStringRef(), entry.value());
  }

  void pair_nodes() {
    const ir::Graph& gb = pb_.graph();
    pair_index_.assign(gb.size(), -1);
    region_seen_.assign(gb.size(), 0);
    holds_b_.assign(gb.size(), 0);
    cast_readers_.assign(gb.size(), 0);
    cast_.assign(gb.size(), IValue());
    if (r_.a.program) holds_a_.assign(r_.a.program->graph().size(), 0);
    if (r_.a.program) compared_a_.assign(r_.a.program->graph().size(), 0);
    const ir::Graph* ga = r_.a.program && !r_.reference ? &r_.a.program->graph() : nullptr;
    const bool a_nodes = ga && r_.pairing.a_graph == ga, b_nodes = r_.pairing.b_graph == &gb;
    pairs_.reserve(r_.pairing.pairs.size());
    for (const NodePair& np : r_.pairing.pairs) {
      Pair p;
      p.b = b_nodes && np.b_node ? np.b_node : gb.find(np.b);
      if (ga) p.a = a_nodes && np.a_node ? np.a_node : ga->find(np.a);
      else p.a_name = np.a;
      if (!p.b || (!r_.reference && !p.a)) {
        ++result_.report.skipped;
        continue;
      }
      pair_index_[size_t(p.b->index())] = int(pairs_.size());
      if (p.a) compared_a_[size_t(p.a->index())] = 1;
      pairs_.push_back(std::move(p));
    }
    regions_.clear();
    movement_b_.assign(gb.size(), Movement::None);  // of the regions' nodes, found by their walks
    std::vector<std::array<uint32_t, 4>> spans(pairs_.size());  // where each region lies in regions_
    for (size_t i = 0; i < pairs_.size(); ++i) spans[i] = region_of(pairs_[i].b);
    for (size_t i = 0; i < pairs_.size(); ++i) {
      const auto [first, nodes, from_a, own] = spans[i];
      Region& region = pairs_[i].region;
      region.evaluable = nodes > 0;
      const ir::Node* const* at = regions_.data() + first;
      region.nodes = {at, nodes};
      region.from_a = {at + nodes, from_a};
      region.own = {at + nodes + from_a, own};
      for (const ir::Node* in : region.from_a) ++cast_readers_[size_t(in->index())];
    }
    if (r_.a.program && !r_.reference && r_.a.program == r_.b.program) {
      movement_a_ = movement_b_;
    } else if (r_.a.program && !r_.reference) {
      movement_a_.resize(r_.a.program->graph().size(), Movement::None);
      for (const ir::Node* n : r_.a.program->graph().nodes()) movement_a_[size_t(n->index())] = movement_of(*n);
    }
    if (r_.shortcuts)
      for (Pair& p : pairs_) classify(p);
  }

  // A region that only moves data, of nodes A ran too (the same node objects:
  // one program, paired by the same graph), skips its computation (Shortcut).
  void classify(Pair& p) {
    const Region& region = p.region;
    if (!p.a || p.a != p.b || !region.evaluable || region.nodes.empty()) return;
    bool keeps_order = true;
    for (const ir::Node* n : region.nodes) {
      const Movement m = movement_b_[size_t(n->index())];
      if (m == Movement::None) return;
      keeps_order = keeps_order && m == Movement::KeepsOrder;
    }
    const ir::Node* moved = nullptr;
    for (const ir::Node* in : region.from_a) {
      if (pairs_[size_t(paired(*in))].a != in) return;  // A's counterpart is another node
      if (in->value.tensor()) {
        if (moved) return;  // two tensors moved together (not in the table's ops, but not ours to assume)
        moved = in;
      } else if (!in->value.sym_int()) {
        return;
      }
    }
    if (!moved) {
      // B's own values only (sym ints from A are checked equal to B's when compared).
      for (const ir::Node* in : region.own)
        if (!in->value.tensor()) return;
      p.shortcut = Shortcut::OwnInputs;
      return;
    }
    if (!region.own.empty()) return;
    // view and _unsafe_view fail on strides a cast may change: only a single one, on a contiguous x (checked when run).
    p.moved = moved;
    p.shortcut = Shortcut::Moves;
    p.keeps_order = keeps_order;
    if (r_.introduced) p.wants_rounding = pairs_[size_t(paired(*moved))].wants_rounding = true;
  }

  // The pair of a B node (its index in pairs_), or -1.
  int paired(const ir::Node& n) const {
    const size_t i = size_t(n.index());
    return i < pair_index_.size() ? pair_index_[i] : -1;
  }

  // The region of a pair's B node, appended to regions_ (its nodes, then
  // from_a, then own): {first, nodes, from_a, own}; no nodes: not evaluable.
  std::array<uint32_t, 4> region_of(const ir::Node* m) {
    auto &stack = walk_, &members = members_, &from_a = from_a_, &own = own_;  // reused: no allocation per walk
    stack.assign(1, m);
    members.clear(), from_a.clear(), own.clear();
    const int stamp = ++region_stamp_;  // nodes seen by this walk: region_seen_ == stamp
    region_seen_[size_t(m->index())] = stamp;
    while (!stack.empty()) {
      const ir::Node* n = stack.back();
      stack.pop_back();
      members.push_back(n);
      movement_b_[size_t(n->index())] = movement_of(*n);  // while the node is at hand
      n->for_each_input([&](const ir::Node* in) {
        int& seen = region_seen_[size_t(in->index())];
        if (seen == stamp) return;
        seen = stamp;
        if (paired(*in) >= 0) from_a.push_back(in);
        else if (in->op != ir::OpKind::CallFunction) own.push_back(in);
        else stack.push_back(in);
      });
      if (members.size() > kMaxRegion) return {uint32_t(regions_.size()), 0, 0, 0};
    }
    std::sort(members.begin(), members.end(), [](const ir::Node* x, const ir::Node* y) { return x->index() < y->index(); });
    const auto first = uint32_t(regions_.size());
    regions_.insert(regions_.end(), members.begin(), members.end());
    regions_.insert(regions_.end(), from_a.begin(), from_a.end());
    regions_.insert(regions_.end(), own.begin(), own.end());
    return {first, uint32_t(members.size()), uint32_t(from_a.size()), uint32_t(own.size())};
  }

  // Values a region reads stay alive until the pair is compared: A's for the
  // paired inputs, B's own for the others; each pair's A node, until compared.
  void hold_region_inputs(runtime::RunStepper& b, runtime::RunStepper* a, bool on) {
    for (Pair& p : pairs_) {
      if (a && p.a) hold_a(*a, p.a, on);
      if (a && !r_.introduced && p.shortcut == Shortcut::Moves) hold_a(*a, p.moved, on);  // for same_sequence
      if (!r_.introduced || !p.region.evaluable) continue;
      for (const ir::Node* in : p.region.own) hold_b(b, in, on);
      if (a)
        for (const ir::Node* in : p.region.from_a) hold_a(*a, pairs_[size_t(paired(*in))].a, on);
    }
  }
  void hold_a(runtime::RunStepper& a, const ir::Node* n, bool on) { count(a, holds_a_, n, on); }
  void hold_b(runtime::RunStepper& b, const ir::Node* n, bool on) { count(b, holds_b_, n, on); }
  static void count(runtime::RunStepper& s, std::vector<int>& holds, const ir::Node* n, bool on) {
    int& c = holds[size_t(n->index())];
    c += on ? 1 : -1;
    if (on && c == 1) s.hold(*n, true);
    if (!on && c == 0) s.hold(*n, false);
  }

  void release_pair(Pair& p, runtime::RunStepper& b) {
    p.done = true;
    if (a_ && p.a) hold_a(*a_, p.a, false);
    if (a_ && !r_.introduced && p.shortcut == Shortcut::Moves) hold_a(*a_, p.moved, false);
    if (!p.region.evaluable) return;
    for (const ir::Node* in : p.region.from_a)
      if (--cast_readers_[size_t(in->index())] == 0) cast_[size_t(in->index())] = IValue();
    if (!r_.introduced) return;
    for (const ir::Node* in : p.region.own) hold_b(b, in, false);
    if (a_)
      for (const ir::Node* in : p.region.from_a) hold_a(*a_, pairs_[size_t(paired(*in))].a, false);
  }

  // A's value for a pair: A run on until it made it (or the reference's).
  const IValue* a_value(const Pair& p) {
    if (!a_) return ref(p.a_name);
    while (!a_->value(*p.a) && !a_->done()) {
      const ir::Node* n = a_->step();
      if (r_.cancel) r_.cancel->check();
      if (n) note_finiteness(*n, *a_, kA, /*compared=*/compared_a_[size_t(n->index())]);
      a_->release();
    }
    return a_->value(*p.a);
  }

  // Finite inputs, NaN or Inf out: where non-finite values start in a run.
  // (The report points at the origin when it is a compared node; else a note names it.)
  // Data movement (data_movement.h) makes no NaN/Inf: finite inputs, finite output, no pass over it.
  // A compared node is settled by its comparison, whose pass counts NaN and Inf anyway.
  void note_finiteness(const ir::Node& n, const runtime::RunStepper& s, int side, bool compared) {
    const IValue* v = s.value(n);
    if (!v) return;
    const bool inputs_finite = inputs_finite_of(n, side);
    const std::vector<Movement>& movement = side == kB ? movement_b_ : movement_a_;
    if (r_.shortcuts && inputs_finite && size_t(n.index()) < movement.size() &&
        movement[size_t(n.index())] != Movement::None) {
      finite_[side][size_t(n.index())] = kFinite;
      return;
    }
    if (compared) finite_[side][size_t(n.index())] = kAtCompare;
    else settle(n, side, all_finite(*v));
  }

  bool inputs_finite_of(const ir::Node& n, int side) {
    bool finite = true;
    n.for_each_input([&](const ir::Node* in) {
      char& state = finite_[side][size_t(in->index())];
      if (state == kAtCompare) {  // read before its comparison (A ran ahead): settled here
        const IValue* v = side == kB ? nullptr : a_->value(*in);
        settle(*in, side, !v || all_finite(*v));
      }
      finite = finite && state == kFinite;
    });
    return finite;
  }

  void settle(const ir::Node& n, int side, bool finite) {
    finite_[side][size_t(n.index())] = finite ? kFinite : kNotFinite;
    if (!finite && pending_origin_[side].empty() && inputs_finite_of(n, side)) pending_origin_[side] = n.name;
  }

  // A compared node's finiteness, from its comparison's counts (or a pass of its own).
  void settle_compared(const Pair& p, const IValue* va, const IValue* vb, const std::optional<ErrorStats>& total) {
    if (finite_[kB][size_t(p.b->index())] == kAtCompare)
      settle(*p.b, kB, total ? total->nan_b + total->inf_b == 0 : !vb || all_finite(*vb));
    if (p.a && a_ && finite_[kA][size_t(p.a->index())] == kAtCompare)
      settle(*p.a, kA, total ? total->nan_a + total->inf_a == 0 : !va || all_finite(*va));
  }

  // A's value as B's computation reads it: on B's device, floating ones in B's precision (elementwise).
  IValue to_b(const IValue& v, const ir::Node& b_input) const {
    if (v.isTensor()) {
      at::Tensor t = v.toTensor().to(b_device_);
      if (t.is_floating_point()) {
        if (b_dtype_) return t.to(*b_dtype_);
        if (const ir::TensorMeta* meta = b_input.value.tensor()) return t.to(runtime::to_torch(meta->dtype));
      }
      return t;
    }
    if (v.isTuple() || v.isList()) return v;  // (tuples are not paired: their getitems are)
    return v;
  }

  std::optional<IValue> introduced_value(const Pair& p, const runtime::RunStepper& b) {
    if (!r_.introduced || !p.region.evaluable) return std::nullopt;
    std::vector<std::pair<const ir::Node*, IValue>> scratch;  // the region's values so far (a few)
    scratch.reserve(p.region.nodes.size());
    auto input = [&](const ir::Node& in) -> std::optional<IValue> {
      for (const auto& [node, value] : scratch)
        if (node == &in) return value;
      if (const int pi = paired(in); pi >= 0) {
        const Pair& q = pairs_[size_t(pi)];
        IValue& cast = cast_[size_t(in.index())];
        if (!cast.isNone()) return cast;
        const IValue* va = a_ ? (q.a ? a_->value(*q.a) : nullptr) : ref(q.a_name);
        if (va) return cast = to_b(*va, in);
      }
      return std::nullopt;  // B's own value
    };
    try {
      for (const ir::Node* n : p.region.nodes) scratch.emplace_back(n, b.evaluate(*n, input));
    } catch (const std::exception&) {
      return std::nullopt;  // not runnable on A's values (a dtype B's op refuses, say): total only
    }
    return scratch.back().second;  // the pair's B node is the region's last
  }

  const IValue* ref(const std::string& name) const {
    const auto it = reference_.find(name);
    return it == reference_.end() ? nullptr : &it->second;
  }

  // A tensor's dtype when error_stats streams it, else Undefined.
  static c10::ScalarType streamed_dtype(const IValue& v) {
    return v.isTensor() && streamed(v.toTensor()) ? v.toTensor().scalar_type() : c10::ScalarType::Undefined;
  }

  // A pair's total: for a Moves pair whose A value is read as its input x's
  // very sequence (same_sequence), x's (and x's rounding); else one pass,
  // which reads A's value against its cast too where that is wanted.
  std::optional<ErrorStats> total_of(Pair& p, const IValue& va, const IValue& vb) {
    const c10::ScalarType ta = streamed_dtype(va), tb = streamed_dtype(vb);
    const bool both_streamed = ta != c10::ScalarType::Undefined && tb != c10::ScalarType::Undefined;
    if (both_streamed && p.shortcut == Shortcut::Moves && va.toTensor().sizes() == vb.toTensor().sizes()) {
      const Pair& x = pairs_[size_t(paired(*p.moved))];
      const IValue* vx = a_->value(*p.moved);
      if (x.total.stats && x.total.a_dtype == ta && x.total.b_dtype == tb && vx && vx->isTensor() &&
          same_sequence(vx->toTensor(), va.toTensor(), p.keeps_order)) {
        p.total = x.total;
        p.rounding = x.rounding;
        return p.total.stats;
      }
    }
    std::optional<ErrorStats> total;
    if (p.wants_rounding && both_streamed && b_device_.is_cpu()) {
      const c10::ScalarType to = b_dtype_of(va.toTensor(), *p.b);
      if (auto both = error_and_rounding_stats(va.toTensor(), vb.toTensor(), to)) {
        total = both->first;
        p.rounding = {both->second, ta, to};
      }
    }
    if (!total) total = error_stats(va, vb);
    if (total && both_streamed) p.total = {total, ta, tb};
    return total;
  }

  // The dtype to_b gives a tensor read as `b_input`.
  c10::ScalarType b_dtype_of(const at::Tensor& t, const ir::Node& b_input) const {
    if (!t.is_floating_point()) return t.scalar_type();
    if (b_dtype_) return *b_dtype_;
    if (const ir::TensorMeta* meta = b_input.value.tensor()) return runtime::to_torch(meta->dtype);
    return t.scalar_type();
  }

  static bool views_strides(const ir::Node& n) {
    const std::string& t = n.target.qualified();
    return t == "torch.ops.aten.view.default" || t == "torch.ops.aten._unsafe_view.default" ||
           t == "torch.ops.aten.view_copy.default";
  }

  // The error a pair introduces: its region run on A's inputs, or what a
  // shortcut proves that run gives (Shortcut); nullopt to run it.
  std::optional<std::optional<ErrorStats>> introduced_shortcut(Pair& p, const IValue& va, const ErrorStats& total,
                                                               const runtime::RunStepper& b) {
    switch (p.shortcut) {
      case Shortcut::None: return std::nullopt;
      case Shortcut::OwnInputs:
        for (const ir::Node* in : p.region.from_a) {
          const IValue* x = a_->value(*in);
          const IValue* y = b.value(*in);
          if (!x || !y || !x->isInt() || !y->isInt() || x->toInt() != y->toInt()) return std::nullopt;
        }
        return std::optional<ErrorStats>(total);
      case Shortcut::Moves: break;
    }
    const IValue* vx = a_->value(*p.moved);
    if (!vx || !vx->isTensor() || !va.isTensor() || !streamed(va.toTensor()) || !b_device_.is_cpu()) return std::nullopt;
    // view and _unsafe_view fail on some strides: only a single one, on an
    // input whose cast keeps its strides (dense) or is contiguous (the cast of
    // a value neither dense nor like channels-last), so it views as A's did.
    const at::Tensor& x = vx->toTensor();
    const bool views_as_a = x.is_non_overlapping_and_dense() || x.suggest_memory_format() == at::MemoryFormat::Contiguous;
    for (const ir::Node* n : p.region.nodes)
      if (views_strides(*n) && (p.region.nodes.size() != 1 || !views_as_a)) return std::nullopt;
    // A's value against its cast: read with the total (or x's, the same sequence), else now.
    const c10::ScalarType ta = va.toTensor().scalar_type(), to = b_dtype_of(va.toTensor(), *p.b);
    if (!streamed(to)) return std::nullopt;
    if (!(p.rounding.stats && p.rounding.a_dtype == ta && p.rounding.b_dtype == to))
      p.rounding = {rounding_stats(va.toTensor(), to), ta, to};
    if (!p.rounding.stats) return std::nullopt;
    return p.rounding.stats;
  }

  void compare(Pair& p, const IValue* va, const runtime::RunStepper& b) {
    const IValue* vb = b.value(*p.b);
    if (!va || !vb) {
      settle_compared(p, va, vb, std::nullopt);
      ++result_.report.skipped;
      return;
    }
    const auto total = total_of(p, *va, *vb);
    settle_compared(p, va, vb, total);
    if (!total) {
      ++result_.report.skipped;
      return;
    }
    NodeNumerics n;
    n.node = p.a ? p.a->name : p.a_name;
    n.b_node = p.b->name;
    const ir::Node& shown = p.a ? *p.a : *p.b;
    n.op = ir::op_key(shown.target);
    if (const ir::TensorMeta* t = shown.value.tensor()) n.value = t->annotation();
    n.total = *total;
    std::optional<std::optional<ErrorStats>> shortcut;
    if (r_.introduced && p.region.evaluable && a_) shortcut = introduced_shortcut(p, *va, *total, b);
    if (shortcut) {
      n.introduced = *shortcut;
    } else if (auto vi = introduced_value(p, b)) {
      n.introduced = error_stats(*va, *vi);
    }
    if (n.introduced) n.inherited_max_abs = std::max(0.0, n.total.max_abs - n.introduced->max_abs);
    const size_t index = result_.report.nodes.size();
    if (pending_origin_[1] == n.b_node) {
      n.nonfinite_origin_b = true;
      result_.report.first_nonfinite_b = index;
    }
    if (pending_origin_[0] == n.node) {
      n.nonfinite_origin_a = true;
      result_.report.first_nonfinite_a = index;
    }
    if (!result_.report.first_divergent && n.total.beyond_tolerance) result_.report.first_divergent = index;
    if (!result_.report.first_introducing && n.introduced && n.introduced->beyond_tolerance)
      result_.report.first_introducing = index;
    if (r_.keep.count(n.node) && va->isTensor() && vb->isTensor()) {
      SnapshotPair kept{snapshot(va->toTensor(), r_.snapshot_elements), snapshot(vb->toTensor(), r_.snapshot_elements), {}};
      if (va->toTensor().sizes() == vb->toTensor().sizes())
        kept.difference = difference_snapshot(va->toTensor(), vb->toTensor(), r_.snapshot_elements);
      result_.kept.emplace(n.node, std::move(kept));
    }
    result_.report.nodes.push_back(std::move(n));
  }

  void compare_outputs(const runtime::RunStepper& b) {
    if (!a_) return;
    const auto oa = a_->user_outputs(), ob = b.user_outputs();
    const auto names = (r_.a.program ? *r_.a.program : pb_).signature.user_outputs();
    for (size_t i = 0; i < oa.size() && i < ob.size(); ++i) {
      const std::string name = i < names.size() ? names[i]->arg.name : "output " + std::to_string(i);
      if (auto s = error_stats(oa[i], ob[i])) {
        result_.report.outputs.emplace_back(name, *s);
        result_.report.all_outputs_close = result_.report.all_outputs_close && !s->beyond_tolerance;
      }
    }
  }

  const NumericsRequest& r_;
  const ir::ExportedProgram& pb_;
  std::vector<Movement> movement_a_, movement_b_;  // by node index (B: its regions' nodes, None elsewhere)
  std::vector<Pair> pairs_;
  std::vector<int> pair_index_;            // by B node index: its pair's, or -1
  std::vector<int> region_seen_;           // by B node index: the region walk that last saw it
  int region_stamp_ = 0;
  std::vector<const ir::Node*> regions_;   // every pair's Region, one after another
  std::vector<const ir::Node*> walk_, members_, from_a_, own_;  // region_of's scratch
  std::vector<int> holds_a_, holds_b_;     // by node index: the pairs holding its value
  // By B node index: A's value as B reads it (to_b), made once for every
  // region reading it and dropped after the last (cast_readers_ counts them).
  std::vector<IValue> cast_;
  std::vector<int> cast_readers_;
  std::unordered_map<std::string, IValue> reference_;
  std::optional<c10::ScalarType> b_dtype_;
  c10::Device b_device_{c10::kCPU};
  runtime::RunStepper* a_ = nullptr;  // A's run (null: reference values)
  // By node index, in A (kA) and in B (kB): whether its value is finite.
  static constexpr int kA = 0, kB = 1;
  enum : char { kNotFinite, kFinite, kAtCompare };
  std::vector<char> finite_[2];
  std::vector<char> compared_a_;   // by A node index: the A node of a pair
  std::string pending_origin_[2];  // the first node making NaN/Inf from finite inputs, in A and in B
  NumericsResult result_;
};

}  // namespace

NumericsResult run_numerics(const NumericsRequest& request) { return Lockstep(request).run(); }

std::vector<std::string> reference_names(const std::filesystem::path& reference) {
  const IValue v = runtime::load_saved_value(reference, "reference values");
  std::vector<std::string> names;
  if (v.isGenericDict())
    for (const auto& entry : v.toGenericDict())
      if (entry.key().isString()) names.push_back(entry.key().toStringRef());
  return names;
}

std::optional<TensorSnapshot> weight_snapshot(const ir::ExportedProgram& program, const std::string& target,
                                              int64_t max_elements) {
  const ir::TensorPayload* payload = program.find_state(target);
  if (!payload) payload = program.find_constant(target);
  if (!payload || !payload->has_data()) return std::nullopt;
  return snapshot(runtime::payload_to_tensor(*payload, target, c10::Device(c10::kCPU)), max_elements);
}

}  // namespace exportlens::numerics
