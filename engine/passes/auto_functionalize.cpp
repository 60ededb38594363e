#include "engine/passes/auto_functionalize.h"

#include <algorithm>

#include "engine/ir/argument_lookup.h"
#include "engine/passes/op_call.h"

namespace exportlens::passes {

namespace {

/// The argument `n` passes for schema argument `i`: positionally, by keyword,
/// or the schema's default (torch's normalized_kwargs).
ir::Argument argument_for(const ir::Node* n, const ir::OpSignature& schema, size_t i) {
  const ir::OpArgumentSignature& a = schema.arguments[i];
  if (const ir::Argument* given = ir::find_argument(n->args(), n->kwargs(), i, a.name)) return *given;
  if (a.default_value) return *a.default_value;
  throw DecompositionError("'" + n->name + "' (" + n->target.qualified() + ") leaves out '" + a.name + "', " +
                           (a.has_default ? "whose default is not a plain value" : "which has no default"));
}

}  // namespace

void lower_auto_functionalized(Rewriter& b, Functionalizer& f, const ir::Node* n, const ir::OpSignature& schema) {
  const std::string where = "'" + n->name + "' (" + n->target.qualified() + ")";
  for (const char* tag : {"inplace", "out"})
    if (std::find(schema.tags.begin(), schema.tags.end(), tag) != schema.tags.end())
      throw DecompositionError(where + " is tagged " + tag + ": torch functionalizes it by its " + tag +
                               " path, which ExportLens does not follow yet");

  std::vector<ir::NamedArgument> kwargs;     // the arguments it reads, in schema order
  std::vector<ir::NamedArgument> indexes;    // _<name>_base_index (_<name>_length) of each it writes
  std::vector<const ir::Node*> bases;        // _all_bases, as nodes of the input program
  auto base_index = [&](const ir::Argument& written, const std::string& arg) -> ir::Argument {
    if (written.is_none()) return ir::None{};
    const ir::Node* t = written.node();
    if (!t) throw DecompositionError(where + " writes '" + arg + "', which is no tensor");
    if (f.is_view(t))
      throw DecompositionError(where + " writes '" + arg + "', a view of '" + f.base_of(t)->name +
                               "': torch passes the view's slice or strides to auto_functionalized_v2, which "
                               "ExportLens does not write yet");
    const ir::Node* base = f.base_of(t);
    auto it = std::find(bases.begin(), bases.end(), base);
    if (it == bases.end()) it = bases.insert(bases.end(), base);
    return int64_t(it - bases.begin());
  };
  for (size_t i = 0; i < schema.arguments.size(); ++i) {
    const ir::OpArgumentSignature& a = schema.arguments[i];
    const ir::Argument value = argument_for(n, schema, i);
    if (!a.writes) {
      kwargs.push_back({a.name, f.map(value)});
    } else if (const ir::ArgumentList* list = value.list()) {
      indexes.push_back({"_" + a.name + "_length", int64_t(list->items.size())});
      for (size_t k = 0; k < list->items.size(); ++k)
        indexes.push_back({"_" + a.name + "_" + std::to_string(k) + "_base_index",
                           base_index(list->items[k], a.name + "[" + std::to_string(k) + "]")});
    } else if (value.is_none() && a.list == ir::ListKind::Tensor) {
      indexes.push_back({"_" + a.name + "_length", ir::None{}});
    } else {
      indexes.push_back({"_" + a.name + "_base_index", base_index(value, a.name)});
    }
  }
  for (auto& i : indexes) kwargs.push_back(std::move(i));
  ir::ArgumentList all_bases;
  for (const ir::Node* base : bases) all_bases.items.push_back(f.value_of(base));
  kwargs.push_back({"_all_bases", all_bases});

  // Its value: the op's results (one None for an op that returns nothing),
  // then each base's new value, of the base's own layout.
  ir::ValueTuple values;
  const size_t results = std::max<size_t>(schema.returns.size(), 1);
  if (schema.returns.size() > 1) {
    const ir::ValueTuple* op_values = n->value.tuple();
    if (!op_values || op_values->size() != schema.returns.size())
      throw DecompositionError(where + ": its value does not hold its schema's " +
                               std::to_string(schema.returns.size()) + " results");
    values = *op_values;
  } else {
    values.push_back(schema.returns.empty() ? ir::ValueInfo{} : n->value);
  }
  for (const ir::Argument& base : all_bases.items) values.push_back(ir::ValueInfo::of(b.meta(base.node())));
  const ir::ValueInfo value = ir::ValueInfo::of_tuple(std::move(values));

  const ir::Argument outs = b.emit(ir::Target("torch.ops.higher_order.auto_functionalized_v2"),
                                   {ir::OperatorRef{n->target.qualified()}}, std::move(kwargs), &value);
  const ir::ArgumentList* items = outs.list();
  if (!items || items->items.size() != results + bases.size())
    throw DecompositionError(where + ": auto_functionalized_v2 gave no value per result and base");
  for (size_t k = 0; k < bases.size(); ++k) f.assign(bases[k], items->items[results + k]);
  if (schema.returns.empty()) f.bind(n, ir::None{});
  else if (schema.returns.size() == 1) f.bind(n, items->items[0]);
  else f.bind(n, ir::ArgumentList{{items->items.begin(), items->items.begin() + long(results)}, true});
}

}  // namespace exportlens::passes
