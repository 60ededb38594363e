#include "engine/diff/node_comparison.h"

#include <map>

#include "engine/diff/call_arguments.h"
#include "engine/ir/op_key.h"
#include "engine/structure/instance_comparison.h"

namespace exportlens::diff {
namespace {

bool same_sizes(const SymbolCorrespondence& s, const std::vector<ir::SymInt>& x, const std::vector<ir::SymInt>& y) {
  if (x.size() != y.size()) return false;
  for (size_t k = 0; k < x.size(); ++k)
    if (!s.same(x[k], y[k])) return false;
  return true;
}

std::string sizes_text(const std::vector<ir::SymInt>& sizes) {
  std::string s = "[";
  for (size_t k = 0; k < sizes.size(); ++k) s += (k ? ", " : "") + sizes[k].str();
  return s + "]";
}

// Strides, and the storage offset when there is one: "[1] offset 1".
std::string layout_text(const ir::TensorMeta& t) {
  const std::string offset = t.storage_offset.str();
  return sizes_text(t.strides) + (offset == "0" ? "" : " offset " + offset);
}

}  // namespace

void add_change(NodeDiff& d, Aspect aspect, std::string what, std::string before, std::string after) {
  d.aspects |= static_cast<unsigned>(aspect);
  d.changes.push_back({aspect, std::move(what), std::move(before), std::move(after)});
}

NodeComparison::NodeComparison(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                               const matching::ProgramMatching& m, const SymbolCorrespondence& symbols,
                               ir::OpSignatureLookup signatures)
    : a_(a), b_(b), m_(m), symbols_(symbols), schemas_(a.program(), b.program(), std::move(signatures)) {}

NodeDiff NodeComparison::compare(int node_a, int node_b) const {
  const ir::Node& x = *a_.nodes()[static_cast<size_t>(node_a)];
  const ir::Node& y = *b_.nodes()[static_cast<size_t>(node_b)];
  NodeDiff d;
  d.a = node_a;
  d.b = node_b;
  d.match = m_.a_to_b[static_cast<size_t>(node_a)];
  if (x.op == ir::OpKind::CallFunction && y.op == ir::OpKind::CallFunction && !(x.target == y.target)) {
    const bool same_op = ir::op_packet_key(x.target) == ir::op_packet_key(y.target) && !ir::op_packet_key(x.target).empty();
    add_change(d, same_op ? Aspect::Overload : Aspect::Target, "op", ir::op_key(x.target), ir::op_key(y.target));
  } else if (x.op != y.op) {
    add_change(d, Aspect::Target, "op", std::string(ir::op_kind_name(x.op)), std::string(ir::op_kind_name(y.op)));
  }
  if (x.op != ir::OpKind::GetAttr) arguments(x, y, d);  // a branch's name is no difference
  value("value", x.value, y.value, d);
  d.status = d.changes.empty() ? Status::Same : Status::Changed;
  return d;
}

void NodeComparison::arguments(const ir::Node& x, const ir::Node& y, NodeDiff& d) const {
  std::map<std::string, std::pair<const ir::Argument*, const ir::Argument*>> both;
  for (const NamedValue& v : schemas_.arguments(x)) both[v.name].first = v.value;
  for (const NamedValue& v : schemas_.arguments(y)) both[v.name].second = v.value;
  for (auto& [name, args] : both) {
    // Left out: the schema's default (when it is known).
    if (!args.first) args.first = schemas_.default_of(x, name);
    if (!args.second) args.second = schemas_.default_of(y, name);
    if (args.first && args.second) argument(name, *args.first, *args.second, d);
    else add_change(d, Aspect::Arguments, name, args.first ? ir::argument_text(*args.first) : "(not passed)",
                    args.second ? ir::argument_text(*args.second) : "(not passed)");
  }
}

void NodeComparison::argument(const std::string& what, const ir::Argument& x, const ir::Argument& y, NodeDiff& d) const {
  const ir::Node* nx = x.node();
  const ir::Node* ny = y.node();
  if (nx && ny) {
    const int i = a_.index_of(nx), j = b_.index_of(ny);
    if (i < 0 || j < 0) return;  // a subgraph's node
    const int counterpart = m_.a_to_b[static_cast<size_t>(i)].node;
    // Reading a value only one program has is that value's insertion or removal, not a change here.
    if (counterpart < 0 || !m_.b_to_a[static_cast<size_t>(j)].matched() || counterpart == j) return;
    add_change(d, Aspect::Inputs, what, nx->name, ny->name);
    return;
  }
  const ir::ArgumentList* lx = x.list();
  const ir::ArgumentList* ly = y.list();
  if (lx && ly && lx->items.size() == ly->items.size()) {
    for (size_t k = 0; k < lx->items.size(); ++k)
      argument(what + "[" + std::to_string(k) + "]", lx->items[k], ly->items[k], d);
    return;
  }
  const std::string tx = ir::argument_text(x), ty = ir::argument_text(y);
  // A string may mention symbols (an assert's message): A's are read in B's names.
  const bool text = std::holds_alternative<std::string>(x.v) && std::holds_alternative<std::string>(y.v);
  if (nx || ny || (text ? symbols_.in_b_text(tx) != ty : tx != ty)) add_change(d, Aspect::Arguments, what, tx, ty);
}

void NodeComparison::value(const std::string& what, const ir::ValueInfo& x, const ir::ValueInfo& y, NodeDiff& d) const {
  const ir::TensorMeta* tx = x.tensor();
  const ir::TensorMeta* ty = y.tensor();
  if (tx && ty) {
    if (tx->dtype != ty->dtype)
      add_change(d, Aspect::Dtype, what, std::string(ir::short_name(tx->dtype)), std::string(ir::short_name(ty->dtype)));
    if (!same_sizes(symbols_, tx->sizes, ty->sizes))
      add_change(d, Aspect::Shape, what, sizes_text(tx->sizes), sizes_text(ty->sizes));
    else if (!same_sizes(symbols_, tx->strides, ty->strides) || !symbols_.same(tx->storage_offset, ty->storage_offset))
      add_change(d, Aspect::Strides, what, layout_text(*tx), layout_text(*ty));
    return;
  }
  const ir::SymInt* sx = x.sym_int();
  const ir::SymInt* sy = y.sym_int();
  if (sx && sy) {
    if (!symbols_.same(*sx, *sy)) add_change(d, Aspect::Shape, what, sx->str(), sy->str());
    return;
  }
  const ir::ValueTuple* ux = x.tuple();
  const ir::ValueTuple* uy = y.tuple();
  if (ux && uy && ux->size() == uy->size()) {
    for (size_t k = 0; k < ux->size(); ++k) value(what + "[" + std::to_string(k) + "]", (*ux)[k], (*uy)[k], d);
    return;
  }
  if (x.v.index() != y.v.index()) add_change(d, Aspect::Dtype, what, structure::value_text(x), structure::value_text(y));
}

}  // namespace exportlens::diff
