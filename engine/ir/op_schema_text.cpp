#include "engine/ir/op_schema_text.h"

#include <cctype>
#include <charconv>
#include <vector>

namespace exportlens::ir {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// Walks `s` from `from` outside quoted text, keeping the bracket depth (an
/// opening bracket counts before `visit` sees it, a closing one after);
/// stops where `visit(i, c, depth)` returns true. Returns that index, or npos
/// when the walk ran to the end; `balanced`: brackets and quotes all closed.
template <typename Visit>
size_t scan_unquoted(std::string_view s, size_t from, bool& balanced, Visit&& visit) {
  int depth = 0;
  char quote = 0;
  balanced = false;
  for (size_t i = from; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    if (c == '(' || c == '[') ++depth;
    else if ((c == ')' || c == ']') && --depth < 0) return std::string_view::npos;
    if (visit(i, c, depth)) return i;
  }
  balanced = depth == 0 && !quote;
  return std::string_view::npos;
}

/// `s` cut at the commas outside brackets and quotes; nullopt when they do not balance.
std::optional<std::vector<std::string_view>> split_top_level(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  bool balanced = false;
  scan_unquoted(s, 0, balanced, [&](size_t i, char c, int depth) {
    if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
    return false;
  });
  if (!balanced) return std::nullopt;
  if (!trim(s.substr(start)).empty() || !parts.empty()) parts.push_back(trim(s.substr(start)));
  return parts;
}

/// The index of the ')' that closes the '(' at `open`, or npos.
size_t closing_paren(std::string_view s, size_t open) {
  bool balanced = false;
  const size_t at = scan_unquoted(s, open, balanced, [](size_t, char c, int depth) {
    return (c == ')' || c == ']') && depth == 0;
  });
  return at != std::string_view::npos && s[at] == ')' ? at : std::string_view::npos;
}

/// The type without its alias annotations ("Tensor(a!)[]" -> "Tensor[]").
std::string without_alias(std::string_view type) {
  std::string out;
  for (size_t i = 0; i < type.size(); ++i) {
    if (type[i] == '(' && !out.empty() && (std::isalnum(static_cast<unsigned char>(out.back())) || out.back() == ']')) {
      const size_t close = type.find(')', i);
      const std::string_view inside = type.substr(i + 1, close == std::string_view::npos ? 0 : close - i - 1);
      // An alias set ("a", "a0!", "a -> *"), not a parameterised type (Dict(str, Tensor)).
      if (close != std::string_view::npos && inside.find(',') == std::string_view::npos) {
        i = close;
        continue;
      }
    }
    out += type[i];
  }
  return out;
}

ListKind list_kind(std::string_view bare) {
  const size_t bracket = bare.find('[');
  if (bracket == std::string_view::npos) return ListKind::Unknown;
  // A list of lists (Tensor[][]) holds no one kind of element.
  if (bare.find('[', bare.find(']', bracket)) != std::string_view::npos) return ListKind::Unknown;
  const std::string_view elem = bare.substr(0, bracket);
  if (elem == "int" || elem == "SymInt") return ListKind::Int;
  if (elem == "float") return ListKind::Float;
  if (elem == "bool") return ListKind::Bool;
  if (elem == "str") return ListKind::String;
  if (elem == "Tensor" || elem == "Tensor?") return ListKind::Tensor;
  return ListKind::Unknown;
}

ReturnKind return_kind(std::string_view bare) {
  if (bare == "Tensor") return ReturnKind::Tensor;
  if (bare == "Tensor?") return ReturnKind::OptionalTensor;
  if (bare == "Tensor[]") return ReturnKind::TensorList;
  if (bare == "SymInt" || bare == "int") return ReturnKind::SymInt;
  if (bare == "SymFloat" || bare == "float") return ReturnKind::SymFloat;
  if (bare == "SymBool" || bare == "bool") return ReturnKind::SymBool;
  return ReturnKind::Other;
}

/// A default that is a plain value, as torch's schema parser reads it.
std::optional<Argument> plain_default(std::string_view text, std::string_view bare_type) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  if (text == "None") return Argument(None{});
  if (text == "True") return Argument(true);
  if (text == "False") return Argument(false);
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front()) {
    // Backslash escapes as torch's schema lexer reads them (\" \' \\ \n \t).
    std::string s;
    for (size_t i = 1; i + 1 < text.size(); ++i) {
      char c = text[i];
      if (c == '\\' && i + 2 < text.size()) {
        c = text[++i];
        c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
      }
      s += c;
    }
    return Argument(std::move(s));
  }
  const bool floating = bare_type.rfind("float", 0) == 0;
  if (text.front() == '[' && text.back() == ']') {
    const auto items = split_top_level(text.substr(1, text.size() - 2));
    if (!items) return std::nullopt;
    ArgumentList list;
    for (std::string_view item : *items) {
      auto v = plain_default(item, floating ? "float" : "int");
      if (!v || v->list()) return std::nullopt;
      list.items.push_back(std::move(*v));
    }
    return Argument(std::move(list));
  }
  if (const size_t open = bare_type.find('['); open != std::string_view::npos) {
    // A fixed-size list's scalar default fills it (int[2] stride=1 is [1, 1]), as torch's schema parser reads it.
    const size_t close = bare_type.find(']', open);
    int64_t n = 0;
    const char* first = bare_type.data() + open + 1;
    const char* last = bare_type.data() + (close == std::string_view::npos ? open + 1 : close);
    const auto [end, ec] = std::from_chars(first, last, n);
    if (ec != std::errc() || end != last || n <= 0 || n > 64) return std::nullopt;
    auto item = plain_default(text, bare_type.substr(0, open));
    if (!item || item->list()) return std::nullopt;
    return Argument(ArgumentList{std::vector<Argument>(size_t(n), *item), false});
  }
  const bool looks_float = text.find_first_of(".eE") != std::string_view::npos || text == "inf" || text == "-inf";
  if (floating || looks_float) {
    double d = 0;
    const std::string s(text);
    try {
      size_t used = 0;
      d = std::stod(s, &used);
      if (used != s.size()) return std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
    return Argument(d);
  }
  int64_t i = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return Argument(i);
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

std::optional<ParsedOpSchema> parse_op_schema(std::string_view text) {
  text = trim(text);
  const size_t open = text.find('(');
  if (open == std::string_view::npos || open == 0) return std::nullopt;
  const size_t close = closing_paren(text, open);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view rest = trim(text.substr(close + 1));
  if (rest.rfind("->", 0) != 0) return std::nullopt;
  rest = trim(rest.substr(2));
  if (rest.empty()) return std::nullopt;

  ParsedOpSchema out;
  out.name = std::string(trim(text.substr(0, open)));
  if (out.name.find("::") == std::string::npos || out.name.find_first_of(" \t") != std::string::npos)
    return std::nullopt;
  const auto arguments = split_top_level(text.substr(open + 1, close - open - 1));
  if (!arguments) return std::nullopt;
  bool kwarg_only = false;
  for (std::string_view a : *arguments) {
    if (a == "*") {
      kwarg_only = true;
      continue;
    }
    // "Type name" or "Type name=default": the default may hold spaces, the name none.
    const size_t eq = a.find('=');
    const std::string_view head = trim(a.substr(0, eq));
    const size_t space = head.find_last_of(" \t");
    if (space == std::string_view::npos) return std::nullopt;
    OpArgumentSignature arg;
    arg.name = std::string(trim(head.substr(space + 1)));
    if (!is_identifier(arg.name)) return std::nullopt;
    const std::string_view type = trim(head.substr(0, space));
    const std::string bare = without_alias(type);
    arg.kwarg_only = kwarg_only;
    arg.list = list_kind(bare);
    arg.writes = type.find("!)") != std::string_view::npos;
    if (eq != std::string_view::npos) {
      arg.has_default = true;
      arg.default_value = plain_default(a.substr(eq + 1), bare);
    }
    out.signature.arguments.push_back(std::move(arg));
  }
  // "()", "Tensor", "(Tensor a, Tensor b)", "Tensor(a!)".
  std::vector<std::string_view> returns;
  if (rest.front() == '(' && closing_paren(rest, 0) == rest.size() - 1) {
    const auto items = split_top_level(rest.substr(1, rest.size() - 2));
    if (!items) return std::nullopt;
    returns = *items;
  } else {
    returns.push_back(rest);
  }
  for (std::string_view r : returns) {
    // A named return ("Tensor values"): the type is what precedes the name.
    const std::string bare = without_alias(trim(r));
    const size_t space = bare.find_last_of(" \t");
    out.signature.returns.push_back(return_kind(space == std::string::npos ? bare : trim(std::string_view(bare).substr(0, space))));
  }
  out.signature.complete = true;
  return out;
}

}  // namespace exportlens::ir
