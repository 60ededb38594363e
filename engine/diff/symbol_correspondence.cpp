#include "engine/diff/symbol_correspondence.h"

#include <cctype>

namespace exportlens::diff {

SymbolCorrespondence::SymbolCorrespondence(const matching::IndexedProgram& a, const matching::IndexedProgram& b,
                                           const matching::ProgramMatching& m) {
  // Graph order: the placeholders (user inputs) come first, so an input's
  // dims name a symbol before any node derived from it can.
  for (const auto& [x, y] : m.pairs())
    read(a.nodes()[static_cast<size_t>(x)]->value, b.nodes()[static_cast<size_t>(y)]->value);
}

void SymbolCorrespondence::read(const ir::SymInt& a, const ir::SymInt& b) {
  if (a.expr.is_integer()) return;
  if (a.expr.is_symbol()) {
    if (b.expr.is_symbol() || b.expr.is_integer()) to_b_.emplace(a.expr.symbol_name(), b.expr);
    return;
  }
  // A size derived from one symbol (`4*s1`, `s0 + 1`): its symbol is B's that makes it B's size.
  const auto free_a = a.expr.free_symbols(), free_b = b.expr.free_symbols();
  if (free_a.size() != 1 || free_b.size() != 1 || to_b_.count(free_a.front())) return;
  const symbolic::Expr candidate = symbolic::Expr::symbol(free_b.front());
  if (a.expr.substitute({{free_a.front(), candidate}}) == b.expr) to_b_.emplace(free_a.front(), candidate);
}

void SymbolCorrespondence::read(const ir::ValueInfo& a, const ir::ValueInfo& b) {
  if (const auto *ta = a.tensor(), *tb = b.tensor(); ta && tb && ta->rank() == tb->rank()) {
    for (size_t d = 0; d < ta->rank(); ++d) read(ta->sizes[d], tb->sizes[d]);
  } else if (const auto *sa = a.sym_int(), *sb = b.sym_int(); sa && sb) {
    read(*sa, *sb);
  } else if (const auto *ua = a.tuple(), *ub = b.tuple(); ua && ub && ua->size() == ub->size()) {
    for (size_t k = 0; k < ua->size(); ++k) read((*ua)[k], (*ub)[k]);
  }
}

symbolic::Expr SymbolCorrespondence::in_b(const symbolic::Expr& e) const {
  if (to_b_.empty() || e.is_integer()) return e;
  return e.substitute(to_b_);
}

std::string SymbolCorrespondence::in_b_text(const std::string& text) const {
  // Symbol names are s<N>, u<N> (and torch's other prefixes): letters then digits, a whole word.
  std::string out;
  size_t i = 0;
  auto word = [&](size_t k) { return k < text.size() && (std::isalnum(static_cast<unsigned char>(text[k])) || text[k] == '_'); };
  while (i < text.size()) {
    if (!word(i) || (i > 0 && word(i - 1))) {
      out += text[i++];
      continue;
    }
    size_t end = i;
    while (word(end)) ++end;
    const std::string token = text.substr(i, end - i);
    const auto it = to_b_.find(token);
    out += it == to_b_.end() ? token : it->second.str();
    i = end;
  }
  return out;
}

std::string SymbolCorrespondence::describe() const {
  std::string out;
  for (const auto& [name, e] : to_b_)
    if (!e.is_symbol() || e.symbol_name() != name) out += name + " -> " + e.str() + "\n";
  return out;
}

}  // namespace exportlens::diff
