#include "engine/passes/op_call.h"

#include "engine/ir/argument_lookup.h"

namespace exportlens::passes {

const ir::Argument* OpCall::get(size_t index, std::string_view name) const {
  return ir::find_argument(args, kwargs, index, name);
}

bool OpCall::has(size_t index, std::string_view name) const {
  const ir::Argument* a = get(index, name);
  return a && !a->is_none();
}

void OpCall::fail(const std::string& what) const { throw DecompositionError(key() + ": " + what); }

ir::Node* OpCall::tensor(size_t index, std::string_view name) const {
  ir::Node* n = optional_tensor(index, name);
  if (!n) fail("argument '" + std::string(name) + "' is not a tensor");
  return n;
}

ir::Node* OpCall::optional_tensor(size_t index, std::string_view name) const {
  const ir::Argument* a = get(index, name);
  if (!a || a->is_none()) return nullptr;
  ir::Node* n = a->node();
  if (!n || !n->value.tensor()) fail("argument '" + std::string(name) + "' is not a tensor");
  return n;
}

std::vector<ir::Node*> OpCall::tensors(size_t index, std::string_view name) const {
  const ir::Argument* a = get(index, name);
  const ir::ArgumentList* l = a ? a->list() : nullptr;
  if (!l) fail("argument '" + std::string(name) + "' is not a list of tensors");
  std::vector<ir::Node*> out;
  for (const auto& item : l->items) {
    if (!item.node()) fail("argument '" + std::string(name) + "' holds a non-tensor");
    out.push_back(item.node());
  }
  return out;
}

int64_t OpCall::integer(size_t index, std::string_view name) const {
  const ir::Argument* a = get(index, name);
  if (a) {
    if (auto* i = std::get_if<int64_t>(&a->v)) return *i;
    if (auto* b = std::get_if<bool>(&a->v)) return *b;
    if (const ir::Node* n = a->node())
      if (const auto* s = n->value.sym_int())
        if (auto v = s->expr.as_integer()) return *v;
  }
  fail("argument '" + std::string(name) + "' is not a constant integer");
}

int64_t OpCall::integer_or(size_t index, std::string_view name, int64_t fallback) const {
  return has(index, name) ? integer(index, name) : fallback;
}

std::optional<double> OpCall::optional_number(size_t index, std::string_view name) const {
  const ir::Argument* a = get(index, name);
  if (!a || a->is_none()) return std::nullopt;
  if (auto* d = std::get_if<double>(&a->v)) return *d;
  if (auto* i = std::get_if<int64_t>(&a->v)) return double(*i);
  if (auto* b = std::get_if<bool>(&a->v)) return *b ? 1.0 : 0.0;
  fail("argument '" + std::string(name) + "' is not a number");
}

double OpCall::number_or(size_t index, std::string_view name, double fallback) const {
  return optional_number(index, name).value_or(fallback);
}

bool OpCall::boolean_or(size_t index, std::string_view name, bool fallback) const {
  const ir::Argument* a = get(index, name);
  if (!a || a->is_none()) return fallback;
  if (auto* b = std::get_if<bool>(&a->v)) return *b;
  if (auto* i = std::get_if<int64_t>(&a->v)) return *i != 0;
  fail("argument '" + std::string(name) + "' is not a bool");
}

std::string OpCall::string_or(size_t index, std::string_view name, std::string fallback) const {
  const ir::Argument* a = get(index, name);
  if (!a || a->is_none()) return fallback;
  if (auto* s = std::get_if<std::string>(&a->v)) return *s;
  fail("argument '" + std::string(name) + "' is not a string");
}

std::vector<int64_t> OpCall::integers(size_t index, std::string_view name) const {
  const ir::Argument* a = get(index, name);
  if (!a) fail("argument '" + std::string(name) + "' is missing");
  if (auto* i = std::get_if<int64_t>(&a->v)) return {*i};
  const ir::ArgumentList* l = a->list();
  if (!l) fail("argument '" + std::string(name) + "' is not a list of ints");
  std::vector<int64_t> out;
  for (const auto& item : l->items) {
    if (auto* i = std::get_if<int64_t>(&item.v)) {
      out.push_back(*i);
      continue;
    }
    const ir::Node* n = item.node();
    const auto* s = n ? n->value.sym_int() : nullptr;
    if (!s || !s->expr.is_integer()) fail("argument '" + std::string(name) + "' holds a symbolic int");
    out.push_back(*s->expr.as_integer());
  }
  return out;
}

std::vector<int64_t> OpCall::integers_or(size_t index, std::string_view name, std::vector<int64_t> fallback) const {
  return has(index, name) ? integers(index, name) : fallback;
}

std::optional<ir::ScalarType> OpCall::dtype(size_t index, std::string_view name) const {
  const ir::Argument* a = get(index, name);
  if (!a) return std::nullopt;
  if (auto* t = std::get_if<ir::ScalarType>(&a->v)) return *t;
  return std::nullopt;
}

ir::Argument OpCall::value_or(size_t index, std::string_view name, ir::Argument fallback) const {
  const ir::Argument* a = get(index, name);
  return a ? *a : fallback;
}

}  // namespace exportlens::passes
