#include "engine/passes/decomposition_table.h"

#include <mutex>
#include <stdexcept>

#include "engine/passes/rewriter.h"

namespace exportlens::passes {

void DecompositionTable::set(DecompositionRule rule) {
  std::string key = rule.op;
  rules_.insert_or_assign(std::move(key), std::move(rule));
}

void DecompositionTable::remove(std::string_view op) {
  if (auto it = rules_.find(op); it != rules_.end()) rules_.erase(it);
}

const DecompositionRule* DecompositionTable::find(std::string_view op) const {
  auto it = rules_.find(op);
  return it == rules_.end() ? nullptr : &it->second;
}

std::vector<std::string> DecompositionTable::ops() const {
  std::vector<std::string> out;
  for (const auto& [k, r] : rules_) out.push_back(k);
  return out;
}

std::vector<const DecompositionRule*> DecompositionTable::rules() const {
  std::vector<const DecompositionRule*> out;
  for (const auto& [k, r] : rules_) out.push_back(&r);
  return out;
}

const DecompositionTable& functionalization_rules() {
  static const DecompositionTable t = [] {
    DecompositionTable r("functionalization", "composite ops that may alias or mutate: always decomposed");
    add_functional_view_decompositions(r);
    add_functional_norm_decompositions(r);
    add_functional_dropout_decompositions(r);
    add_functional_misc_decompositions(r);
    return r;
  }();
  return t;
}

DecompositionTable default_decompositions() {
  DecompositionTable t("core", "torch.export.default_decompositions(): lower to the Core ATen operator set");
  add_view_decompositions(t);
  add_linear_decompositions(t);
  add_conv_decompositions(t);
  add_norm_decompositions(t);
  add_activation_decompositions(t);
  add_pool_decompositions(t);
  add_attention_decompositions(t);
  add_misc_decompositions(t);
  add_position_decompositions(t);
  add_recurrent_decompositions(t);
  return t;
}

// ---- the seed's custom table ------------------------------------------------------

namespace {

/// Seed 002, "IR/Decompositions": my_awesome_custom_conv2d_function doubles the convolution:
///   return 2 * torch.ops.aten.convolution(x, weight, bias, stride, padding, dilation, False, [0, 0], groups)
ir::Argument double_conv2d(Rewriter& b, const OpCall& c) {
  ir::Node* conv = b.call1("aten.convolution.default",
                           {c.tensor(0, "input"), c.value_or(1, "weight", ir::None{}), c.value_or(2, "bias", ir::None{}),
                            c.value_or(3, "stride", ir::ArgumentList{{int64_t{1}, int64_t{1}}}),
                            c.value_or(4, "padding", ir::ArgumentList{{int64_t{0}, int64_t{0}}}),
                            c.value_or(5, "dilation", ir::ArgumentList{{int64_t{1}, int64_t{1}}}), false,
                            ir::ArgumentList{{int64_t{0}, int64_t{0}}}, c.value_or(6, "groups", int64_t{1})});
  return b.call1("aten.mul.Tensor", {conv, int64_t{2}});
}

DecompositionTable double_conv2d_table() {
  DecompositionTable t = default_decompositions();
  t.set_name("double_conv2d");
  t.set_description("the PyTorch 2.5 torch.export tutorial's custom table: default decompositions, conv2d as 2 * convolution");
  t.set({"aten.conv2d.default", "custom", "torch.export tutorial (PyTorch 2.5): my_awesome_custom_conv2d_function", double_conv2d});
  return t;
}

struct Registry {
  std::mutex mutex;
  std::vector<DecompositionTable> tables;
  Registry() {
    tables.push_back(default_decompositions());
    tables.push_back(DecompositionTable("functional", "the empty table: functionalization only"));
    tables.push_back(double_conv2d_table());
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_decomposition_table(DecompositionTable table) {
  if (table.name().empty()) throw std::invalid_argument("register_decomposition_table: the table has no name");
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (auto& t : r.tables)
    if (t.name() == table.name()) {
      t = std::move(table);
      return;
    }
  r.tables.push_back(std::move(table));
}

DecompositionTable decomposition_table(std::string_view name) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::string known;
  for (const auto& t : r.tables) {
    if (t.name() == name) return t;
    known += (known.empty() ? "" : ", ") + t.name();
  }
  throw std::invalid_argument("unknown decomposition table '" + std::string(name) + "' (registered: " + known + ")");
}

bool has_decomposition_table(std::string_view name) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (const auto& t : r.tables)
    if (t.name() == name) return true;
  return false;
}

std::vector<std::string> decomposition_table_names() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<std::string> out;
  for (const auto& t : r.tables) out.push_back(t.name());
  return out;
}

}  // namespace exportlens::passes
