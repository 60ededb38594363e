#include "engine/diff/signature_diff.h"

#include <map>

#include "engine/structure/instance_comparison.h"

namespace exportlens::diff {
namespace {

std::string entry_text(std::string_view kind, const ir::Node* node) {
  return std::string(kind) + (node ? " " + structure::value_text(node->value) : std::string());
}

bool same_value(const SymbolCorrespondence& s, const ir::Node* x, const ir::Node* y) {
  if (!x || !y) return x == y;
  if (const auto *sx = x->value.sym_int(), *sy = y->value.sym_int(); sx && sy) return s.same(*sx, *sy);
  const auto* tx = x->value.tensor();
  const auto* ty = y->value.tensor();
  if (!tx || !ty) return structure::value_text(x->value) == structure::value_text(y->value);
  if (tx->dtype != ty->dtype || tx->rank() != ty->rank()) return false;
  for (size_t d = 0; d < tx->rank(); ++d)
    if (!s.same(tx->sizes[d], ty->sizes[d])) return false;
  return true;
}

class SignatureDiff {
 public:
  SignatureDiff(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                const matching::ProgramMatching& m, const SymbolCorrespondence& s)
      : a_(a), b_(b), m_(m), s_(s) {}

  std::vector<SignatureChange> run() {
    inputs();
    outputs();
    return std::move(out_);
  }

 private:
  const ir::Node* node_a(const std::string& name) const { return a_.program().graph().find(name); }
  const ir::Node* node_b(const std::string& name) const { return b_.program().graph().find(name); }

  void inputs() {
    for (size_t i = 0; i < a_.size(); ++i) {
      const ir::InputSpec* in = a_.input_spec(static_cast<int>(i));
      if (!in) continue;
      const int j = m_.a_to_b[i].node;
      const ir::InputSpec* there = j >= 0 ? b_.input_spec(j) : nullptr;
      const ir::Node* x = a_.nodes()[i];
      const bool user = in->kind == ir::InputKind::UserInput;
      if (!there) {
        if (user) out_.push_back({Status::Removed, "input " + x->name, entry_text(kind_name(in->kind), x), ""});
        continue;
      }
      const ir::Node* y = b_.nodes()[static_cast<size_t>(j)];
      const std::string what = user ? "input " + x->name : std::string(kind_name(in->kind)) + " " + in->target.value_or(x->name);
      if (in->kind != there->kind || in->persistent != there->persistent || (user && !same_value(s_, x, y)))
        out_.push_back({Status::Changed, what, entry_text(kind_name(in->kind), user ? x : nullptr) + persistence(*in),
                        entry_text(kind_name(there->kind), user ? y : nullptr) + persistence(*there)});
    }
    for (size_t j = 0; j < b_.size(); ++j) {
      const ir::InputSpec* in = b_.input_spec(static_cast<int>(j));
      if (in && in->kind == ir::InputKind::UserInput && !m_.b_to_a[j].matched())
        out_.push_back({Status::Added, "input " + b_.nodes()[j]->name, "", entry_text(kind_name(in->kind), b_.nodes()[j])});
    }
  }

  static std::string persistence(const ir::InputSpec& in) {
    return in.persistent && !*in.persistent ? " (not persistent)" : "";
  }

  // A mutation's key: what it updates, in B's names (a buffer through the weight matching).
  std::string mutated_in_b(const ir::OutputSpec& o) const {
    const std::string target = o.target.value_or("");
    for (size_t i = 0; i < a_.size(); ++i) {
      const ir::InputSpec* in = a_.input_spec(static_cast<int>(i));
      const bool names_it = in && ((in->target && *in->target == target) || a_.nodes()[i]->name == target);
      if (!names_it) continue;
      const int j = m_.a_to_b[i].node;
      const ir::InputSpec* there = j >= 0 ? b_.input_spec(j) : nullptr;
      if (!there) return "";
      return there->target ? *there->target : b_.nodes()[static_cast<size_t>(j)]->name;
    }
    return target;
  }

  void outputs() {
    std::vector<const ir::OutputSpec*> user_a, user_b;
    std::map<std::string, const ir::OutputSpec*> mutated_b;
    for (const auto& o : a_.program().signature.outputs)
      if (o.kind == ir::OutputKind::UserOutput) user_a.push_back(&o);
    for (const auto& o : b_.program().signature.outputs) {
      if (o.kind == ir::OutputKind::UserOutput) user_b.push_back(&o);
      else mutated_b.emplace(std::string(kind_name(o.kind)) + " " + o.target.value_or(""), &o);
    }
    for (size_t k = 0; k < std::max(user_a.size(), user_b.size()); ++k) {
      const std::string what = "output " + std::to_string(k);
      const ir::Node* x = k < user_a.size() ? node_a(user_a[k]->arg.name) : nullptr;
      const ir::Node* y = k < user_b.size() ? node_b(user_b[k]->arg.name) : nullptr;
      if (k >= user_a.size()) out_.push_back({Status::Added, what, "", entry_text("USER_OUTPUT", y)});
      else if (k >= user_b.size()) out_.push_back({Status::Removed, what, entry_text("USER_OUTPUT", x), ""});
      else if (!same_value(s_, x, y))
        out_.push_back({Status::Changed, what, entry_text("USER_OUTPUT", x), entry_text("USER_OUTPUT", y)});
    }
    for (const auto& o : a_.program().signature.outputs) {
      if (o.kind == ir::OutputKind::UserOutput) continue;
      const std::string key = std::string(kind_name(o.kind)) + " " + mutated_in_b(o);
      if (mutated_b.erase(key) == 0)
        out_.push_back({Status::Removed, std::string(kind_name(o.kind)) + " " + o.target.value_or(""), o.arg.name, ""});
    }
    for (const auto& [key, o] : mutated_b) out_.push_back({Status::Added, key, "", o->arg.name});
  }

  const matching::IndexedProgram& a_;
  const matching::IndexedProgram& b_;
  const matching::ProgramMatching& m_;
  const SymbolCorrespondence& s_;
  std::vector<SignatureChange> out_;
};

}  // namespace

std::vector<SignatureChange> diff_signatures(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                                             const matching::ProgramMatching& m, const SymbolCorrespondence& symbols) {
  return SignatureDiff(a, b, m, symbols).run();
}

}  // namespace exportlens::diff
