#pragma once
// Comparing program text and op lists with torch's: node numbering
// normalised, torch's spelling of call targets, op multisets, the first line
// where two texts differ. Shared by the lowering and corpus suites.
#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/ir/exported_program.h"
#include "engine/ir/op_key.h"
#include "support/unit/strings.h"

namespace exportlens::testing {

namespace detail {
inline bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
inline bool letter(char c) { return std::isalpha(static_cast<unsigned char>(c)); }
inline bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
}  // namespace detail

/// `text` with every name's numbering replaced by its order of first use per
/// base name (add_9, add_12 -> add#0, add#1; sym_size_int_8 -> sym_size_int#0;
/// attribute names such as the op in aten.add.Tensor are left alone),
/// so two programs that differ only in how the retrace numbered its nodes
/// compare equal; with `symbols`, unbacked and backed symbols (u3, s0) too.
inline std::string renumbered(const std::string& text, bool symbols) {
  std::map<std::string, std::string> seen;
  std::map<std::string, int> next;
  std::string out;
  size_t at = 0;  // copied up to here
  for (size_t i = 0; i < text.size();) {
    if (!detail::word_char(text[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && detail::word_char(text[end])) ++end;
    const size_t start = i;
    i = end;
    // An identifier starts with a letter or '_'; after a '.' it is an attribute (aten.add: an op, not a node).
    if (std::isdigit(static_cast<unsigned char>(text[start])) || (start > 0 && text[start - 1] == '.')) continue;
    const std::string token = text.substr(start, end - start);
    std::string base = token;
    const size_t underscore = token.rfind('_');
    if (underscore != std::string::npos && underscore > 0 && detail::letter(token[underscore - 1]) &&
        detail::all_digits(std::string_view(token).substr(underscore + 1)))
      base = token.substr(0, underscore);
    else if (symbols && (token[0] == 's' || token[0] == 'u') && detail::all_digits(std::string_view(token).substr(1)))
      base = token.substr(0, 1);
    auto [entry, fresh] = seen.emplace(token, std::string());
    if (fresh) entry->second = base + "#" + std::to_string(next[base]++);
    out += text.substr(at, start - at) + entry->second;
    at = end;
  }
  return out + text.substr(at);
}

/// `text` without the range-constraint entries of unbacked symbols (", u3: VR[...]").
inline std::string without_unbacked_ranges(const std::string& text) {
  static const std::regex first(R"(\{u\d+: VR\[[^\]]*\](, )?)"), other(R"(, u\d+: VR\[[^\]]*\])");
  std::string out = std::regex_replace(text, other, "");
  for (std::string next; (next = std::regex_replace(out, first, "{")) != out;) out = next;
  return out;
}

/// torch's str(node.target) for one of our targets.
inline std::string torch_target_name(const ir::Target& t) {
  const std::string& q = t.qualified();
  if (q.rfind("_operator.", 0) == 0) return "<built-in function " + q.substr(10) + ">";
  if (t.is_higher_order()) return t.op_name();
  return ir::op_key(t);
}

inline void collect_ops(const ir::GraphModule& gm, std::multiset<std::string>& out) {
  for (const ir::Node* n : gm.graph.nodes())
    if (n->op == ir::OpKind::CallFunction) out.insert(torch_target_name(n->target));
  for (const auto& [name, sub] : gm.submodules) collect_ops(*sub, out);
}

inline std::string describe(const std::multiset<std::string>& ops) {
  std::map<std::string, int> counts;
  for (const auto& o : ops) ++counts[o];
  std::string s;
  for (const auto& [o, c] : counts) s += o + " x" + std::to_string(c) + "\n";
  return s;
}

inline std::multiset<std::string> json_ops(const nlohmann::json& a) {
  std::multiset<std::string> out;
  for (const auto& v : a) out.insert(v.get<std::string>());
  return out;
}

/// The first line where two texts differ, for failure messages.
inline std::string first_difference(const std::string& a, const std::string& b) {
  const auto la = unit::split(a, '\n'), lb = unit::split(b, '\n');
  for (size_t i = 0; i < std::max(la.size(), lb.size()); ++i) {
    const std::string x = i < la.size() ? la[i] : "<end>", y = i < lb.size() ? lb[i] : "<end>";
    if (x != y) return "line " + std::to_string(i + 1) + ":\n  ours:  " + x + "\n  torch: " + y;
  }
  return {};
}

/// `text` with a higher-order op's operand tuples and the returns written as
/// lists: a .pt2 does not say whether a sequence was a tuple or a list (it
/// writes a HOP's operand tuple as a list, and a subgraph's returned list is
/// read back as a tuple), so torch's print of the program in its memory and
/// a print of the program read from its file differ only there.
inline std::string operand_containers_as_lists(const std::string& text) {
  static const std::regex tuple(R"(\(((?:[A-Za-z_]\w*, )*[A-Za-z_]\w*),?\))");
  std::vector<std::string> lines = unit::split(text, '\n');
  for (std::string& line : lines)
    if (unit::contains(line, "torch.ops.higher_order.") || unit::trimmed(line).starts_with("return "))
      line = std::regex_replace(line, tuple, "[$1]");
  return unit::join(lines, "\n");
}

}  // namespace exportlens::testing
