#include "engine/capture/fx_code_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "engine/base/error.h"
#include "engine/ir/graph_builder.h"
#include "engine/symbolic/parsers.h"

namespace exportlens::capture {
namespace {

using ir::Argument;
using ir::ArgumentList;

// ---- Python expressions, the subset FX's codegen writes ----------------------

struct Py {
  enum class Kind { Name, Int, Float, Str, List, Tuple, Call, Subscript, BinOp, Unary };
  Kind kind = Kind::Name;
  std::string text;  // Name: dotted path; Str: the value; BinOp/Unary: the operator
  int64_t integer = 0;
  double real = 0;
  std::vector<Py> items;  // List/Tuple elements; Call arguments; Subscript {value, index}; operands
  // Keyword arguments of a Call, names and values side by side: a vector of pairs holding
  // the enclosing type is rejected by clang with libstdc++ (the pair would be incomplete).
  std::vector<std::string> kwarg_names;
  std::vector<Py> kwarg_values;
};

struct Token {
  enum class Type { Name, Number, String, Op, End };
  Type type = Type::End;
  std::string text;
};

class ReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      out.push_back({Token::Type::Name, std::string(s.substr(i, j - i))});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.' ||
                              ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
        ++j;
      out.push_back({Token::Type::Number, std::string(s.substr(i, j - i))});
      i = j;
    } else if (c == '\'' || c == '"') {
      std::string value;
      size_t j = i + 1;
      while (j < s.size() && s[j] != c) {
        if (s[j] == '\\' && j + 1 < s.size()) {
          const char e = s[++j];
          value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        } else {
          value += s[j];
        }
        ++j;
      }
      if (j >= s.size()) throw ReadError("a string that does not end");
      out.push_back({Token::Type::String, std::move(value)});
      i = j + 1;
    } else {
      static constexpr std::string_view kOps[] = {"**", "//", "<=", ">=", "==", "!=", "<<", ">>"};
      std::string op(1, c);
      for (std::string_view two : kOps)
        if (s.compare(i, 2, two) == 0) op = two;
      out.push_back({Token::Type::Op, op});
      i += op.size();
    }
  }
  out.push_back({Token::Type::End, ""});
  return out;
}

class ExprParser {
 public:
  ExprParser(std::vector<Token> tokens, int max_depth) : t_(std::move(tokens)), max_depth_(max_depth) {}

  Py parse_all() {
    Py v = expression();
    if (peek().type != Token::Type::End) throw ReadError("unexpected '" + peek().text + "'");
    return v;
  }

 private:
  const Token& peek() const { return t_[pos_]; }
  bool accept(std::string_view op) {
    if (peek().type == Token::Type::Op && peek().text == op) return ++pos_, true;
    return false;
  }
  void expect(std::string_view op) {
    if (!accept(op)) throw ReadError("expected '" + std::string(op) + "'");
  }

  struct Depth {
    Depth(int& d, int max) : d_(d) {
      if (++d_ > max) throw ReadError("expressions nested deeper than " + std::to_string(max));
    }
    ~Depth() { --d_; }
    int& d_;
  };

  // Comparison < bitwise or < xor < and < shift < additive < multiplicative < unary < power < postfix.
  Py expression() { return binary(0); }

  Py binary(int level) {
    static const std::vector<std::vector<std::string_view>> kLevels = {
        {"<", ">", "<=", ">=", "==", "!="}, {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};
    if (level == static_cast<int>(kLevels.size())) return unary();
    Depth d(depth_, max_depth_);
    Py left = binary(level + 1);
    for (;;) {
      std::string_view op;
      for (std::string_view candidate : kLevels[static_cast<size_t>(level)])
        if (peek().type == Token::Type::Op && peek().text == candidate) op = candidate;
      if (op.empty()) return left;
      ++pos_;
      Py node;
      node.kind = Py::Kind::BinOp;
      node.text = op;
      node.items = {std::move(left), binary(level + 1)};
      left = std::move(node);
    }
  }

  Py unary() {
    Depth d(depth_, max_depth_);
    for (std::string_view op : {"-", "+", "~"}) {
      if (accept(op)) {
        Py operand = unary();
        if (op == "-" && operand.kind == Py::Kind::Int) return operand.integer = -operand.integer, operand;
        if (op == "-" && operand.kind == Py::Kind::Float) return operand.real = -operand.real, operand;
        Py node;
        node.kind = Py::Kind::Unary;
        node.text = op;
        node.items = {std::move(operand)};
        return node;
      }
    }
    Py base = postfix();
    if (accept("**")) {
      Py node;
      node.kind = Py::Kind::BinOp;
      node.text = "**";
      node.items = {std::move(base), unary()};
      return node;
    }
    return base;
  }

  Py postfix() {
    Py v = atom();
    for (;;) {
      if (accept(".")) {
        if (peek().type != Token::Type::Name || v.kind != Py::Kind::Name) throw ReadError("an attribute FX does not write");
        v.text += "." + t_[pos_++].text;
      } else if (accept("(")) {
        Py call;
        call.kind = Py::Kind::Call;
        call.text = v.kind == Py::Kind::Name ? v.text : "";
        arguments(call, ")");
        v = std::move(call);
      } else if (accept("[")) {
        Py sub;
        sub.kind = Py::Kind::Subscript;
        Py index = expression();
        if (accept(",")) {  // x[a, b]: a tuple index
          Py tuple;
          tuple.kind = Py::Kind::Tuple;
          tuple.items.push_back(std::move(index));
          while (!accept("]")) {
            tuple.items.push_back(expression());
            if (!accept(",")) {
              expect("]");
              break;
            }
          }
          index = std::move(tuple);
        } else {
          expect("]");
        }
        sub.items = {std::move(v), std::move(index)};
        v = std::move(sub);
      } else {
        return v;
      }
    }
  }

  void arguments(Py& call, std::string_view close) {
    Depth d(depth_, max_depth_);
    while (!accept(close)) {
      if (peek().type == Token::Type::Name && t_[pos_ + 1].type == Token::Type::Op && t_[pos_ + 1].text == "=") {
        std::string key = t_[pos_].text;
        pos_ += 2;
        call.kwarg_names.push_back(std::move(key));
        call.kwarg_values.push_back(expression());
      } else {
        call.items.push_back(expression());
      }
      if (!accept(",")) {
        expect(close);
        break;
      }
    }
  }

  Py atom() {
    Depth d(depth_, max_depth_);
    const Token tok = t_[pos_];
    Py v;
    switch (tok.type) {
      case Token::Type::Name:
      case Token::Type::String:
        ++pos_;
        v.kind = tok.type == Token::Type::Name ? Py::Kind::Name : Py::Kind::Str;
        v.text = tok.text;
        return v;
      case Token::Type::Number:
        ++pos_;
        if (tok.text.find_first_of(".eE") != std::string::npos) {
          v.kind = Py::Kind::Float;
          v.real = std::strtod(tok.text.c_str(), nullptr);
        } else {
          v.kind = Py::Kind::Int;
          errno = 0;
          v.integer = std::strtoll(tok.text.c_str(), nullptr, 10);
          if (errno == ERANGE) throw ReadError("integer out of range: " + tok.text);
        }
        return v;
      case Token::Type::Op:
        if (accept("(") || accept("[")) {
          const bool tuple = tok.text == "(";
          v.kind = tuple ? Py::Kind::Tuple : Py::Kind::List;
          bool trailing_comma = false;
          while (!accept(tuple ? ")" : "]")) {
            v.items.push_back(expression());
            trailing_comma = accept(",");
            if (!trailing_comma) {
              expect(tuple ? ")" : "]");
              break;
            }
          }
          // "(x)" is x; "(x,)" is a tuple.
          if (tuple && v.items.size() == 1 && !trailing_comma) return std::move(v.items.front());
          return v;
        }
        throw ReadError("unexpected '" + tok.text + "'");
      case Token::Type::End:
        break;
    }
    throw ReadError("the statement ends early");
  }

  std::vector<Token> t_;
  size_t pos_ = 0;
  int depth_ = 0;
  int max_depth_;
};

Py parse_expression(std::string_view text, int max_depth) { return ExprParser(tokenize(text), max_depth).parse_all(); }

// ---- annotations --------------------------------------------------------------

std::optional<ir::ScalarType> dtype_of_short(std::string_view s) {
  static const std::map<std::string_view, ir::ScalarType> kShort = [] {
    std::map<std::string_view, ir::ScalarType> m;
    for (int code = 0; code <= 40; ++code)
      if (const auto t = ir::scalar_type_from_code(code); t && *t != ir::ScalarType::Unknown)
        m.emplace(ir::short_name(*t), *t);
    return m;
  }();
  const auto it = kShort.find(s);
  return it == kShort.end() ? std::nullopt : std::optional(it->second);
}

std::vector<ir::SymInt> sizes_of(std::string_view list) {
  std::vector<ir::SymInt> out;
  size_t depth = 0, start = 0;
  for (size_t i = 0; i <= list.size(); ++i) {
    const char c = i < list.size() ? list[i] : ',';
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      std::string_view item = list.substr(start, i - start);
      while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
      while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
      if (!item.empty()) {
        const symbolic::Expr e = symbolic::parse_str_text(item);
        out.emplace_back(e, e.as_integer());
      }
      start = i + 1;
    }
  }
  return out;
}

bool is_relation(std::string_view e) {
  for (std::string_view op : {"<", ">", "==", "!=", "Eq(", "Ne(", "And(", "Or(", "Not(", "True", "False"})
    if (e.find(op) != std::string_view::npos) return true;
  return false;
}

// "f32[10][1]cpu" / "f32[s0, 5]" / "Sym(u0)" / "Sym(zuf0 > 0.0)" / "i64[u0, 1]".
ir::ValueInfo value_of_annotation(std::string_view a) {
  if (a.starts_with("Sym(") && a.ends_with(")")) {
    const std::string_view inner = a.substr(4, a.size() - 5);
    if (is_relation(inner)) {
      try {
        return ir::ValueInfo{ir::SymBool{symbolic::parse_str_text(inner), std::nullopt}};
      } catch (const std::exception&) {
        return {};
      }
    }
    try {
      const symbolic::Expr e = symbolic::parse_str_text(inner);
      if (inner.find("zuf") == std::string_view::npos && inner.find('.') == std::string_view::npos)
        return ir::ValueInfo::of(ir::SymInt(e, e.as_integer()));
    } catch (const std::exception&) {
    }
    return ir::ValueInfo{ir::SymFloat{std::string(inner), std::nullopt}};
  }
  const size_t open = a.find('[');
  if (open == std::string_view::npos) return {};
  const auto dtype = dtype_of_short(a.substr(0, open));
  const size_t close = a.find(']', open);
  if (!dtype || close == std::string_view::npos) return {};
  ir::TensorMeta m;
  m.dtype = *dtype;
  m.sizes = sizes_of(a.substr(open + 1, close - open - 1));
  std::string_view rest = a.substr(close + 1);
  if (rest.starts_with("[")) {
    const size_t end = rest.find(']');
    if (end != std::string_view::npos) {
      m.strides = sizes_of(rest.substr(1, end - 1));
      rest = rest.substr(end + 1);
    }
  }
  if (m.strides.size() != m.sizes.size()) {  // contiguous strides, as the annotation did not say
    m.strides.assign(m.sizes.size(), ir::SymInt(int64_t{1}));
    for (size_t i = m.sizes.size(); i-- > 1;)
      m.strides[i - 1] = ir::SymInt(m.strides[i].expr * m.sizes[i].expr);
  }
  if (!rest.empty()) {
    const size_t colon = rest.find(':');
    m.device.type = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) m.device.index = std::atoi(std::string(rest.substr(colon + 1)).c_str());
  }
  return ir::ValueInfo::of(std::move(m));
}

// ---- statements into nodes ----------------------------------------------------

std::string operator_target(std::string_view op, bool unary) {
  static const std::map<std::string_view, std::string_view> kBinary = {
      {"<", "lt"},  {">", "gt"},  {"<=", "le"}, {">=", "ge"}, {"==", "eq"},       {"!=", "ne"},
      {"|", "or_"}, {"^", "xor"}, {"&", "and_"}, {"<<", "lshift"}, {">>", "rshift"}, {"+", "add"},
      {"-", "sub"}, {"*", "mul"}, {"/", "truediv"}, {"//", "floordiv"}, {"%", "mod"}, {"@", "matmul"},
      {"**", "pow"}};
  static const std::map<std::string_view, std::string_view> kUnary = {{"-", "neg"}, {"+", "pos"}, {"~", "invert"}};
  const auto& table = unary ? kUnary : kBinary;
  const auto it = table.find(op);
  return it == table.end() ? std::string() : "_operator." + std::string(it->second);
}

// "# File: /x/model.py:12 in forward, code: y = x + 1" as a Python traceback frame.
std::string stack_trace_of_comment(std::string_view comment) {
  const size_t code_at = comment.find(", code: ");
  const std::string_view head = comment.substr(0, code_at);
  const size_t in_at = head.rfind(" in ");
  const std::string_view file_line = head.substr(0, in_at);
  const size_t colon = file_line.rfind(':');
  if (colon == std::string_view::npos || in_at == std::string_view::npos) return {};
  std::string out = "  File \"" + std::string(file_line.substr(0, colon)) + "\", line " +
                    std::string(file_line.substr(colon + 1)) + ", in " + std::string(head.substr(in_at + 4)) + "\n";
  if (code_at != std::string_view::npos) out += "    " + std::string(comment.substr(code_at + 8)) + "\n";
  return out;
}

class GraphReader {
 public:
  GraphReader(FxCodeProgram& out, const serde::ReadLimits& limits)
      : out_(out), limits_(limits), builder_(out.program.graph()) {}

  void forward_arguments(std::string_view params) {
    // "self, x: "f32[10]", y" — split at top-level commas.
    size_t depth = 0, start = 0;
    bool quoted = false;
    for (size_t i = 0; i <= params.size(); ++i) {
      const char c = i < params.size() ? params[i] : ',';
      if (c == '"') quoted = !quoted;
      if (!quoted && (c == '(' || c == '[')) ++depth;
      if (!quoted && (c == ')' || c == ']')) --depth;
      if (c == ',' && depth == 0 && !quoted) {
        std::string_view p = trim(params.substr(start, i - start));
        start = i + 1;
        if (p.empty() || p == "self" || p.starts_with("*")) continue;
        const size_t colon = p.find(':');
        const std::string name(trim(p.substr(0, colon)));
        if (nodes_.count(name))  // not Python (found by fuzz_trace_log); the graph would refuse the second one
          throw Error(ErrorKind::Input, {}, "the graph text's forward takes '" + name + "' twice");
        auto node = builder_.make_exact(ir::OpKind::Placeholder, name);
        if (colon != std::string_view::npos) {
          try {
            node->value = value_of_annotation(unquote(trim(p.substr(colon + 1))));
          } catch (const std::exception& e) {  // an annotation FX would not write (found by fuzz_trace_log)
            if (out_.notes.size() < 50) out_.notes.push_back("argument '" + name + "': its annotation left out (" + e.what() + ")");
          }
        }
        ir::InputSpec spec;
        spec.arg.name = name;
        spec.arg.type = node->value.tensor() || !node->value.known() ? ir::SpecArgument::Type::Tensor
                                                                    : ir::SpecArgument::Type::SymInt;
        out_.program.signature.inputs.push_back(spec);
        add(std::move(node));
      }
    }
  }

  void statement(std::string_view line, int line_no) {
    try {
      if (line.starts_with("# File: ")) {
        stack_trace_ = stack_trace_of_comment(line.substr(8));
        return;
      }
      if (line.starts_with("# No stacktrace found")) {
        stack_trace_.clear();
        return;
      }
      if (line.starts_with("#")) return;
      line = strip_frees(line);
      if (line.starts_with("return ") || line == "return") {
        returned(line.substr(std::min<size_t>(7, line.size())));
        return;
      }
      const size_t eq = top_level_assignment(line);
      if (eq == std::string_view::npos) throw ReadError("not an assignment");
      std::string_view lhs = trim(line.substr(0, eq));
      std::string annotation;
      if (const size_t colon = lhs.find(':'); colon != std::string_view::npos) {
        annotation = unquote(trim(lhs.substr(colon + 1)));
        lhs = trim(lhs.substr(0, colon));
      }
      if (lhs.find(',') != std::string_view::npos) throw ReadError("an unpacking assignment");
      assign(std::string(lhs), annotation, parse_expression(line.substr(eq + 1), limits_.max_nesting));
    } catch (const ReadError& e) {
      note(line_no, e.what());
    } catch (const std::exception& e) {
      note(line_no, e.what());
    }
  }

  void finish() {
    if (!output_) {
      add(builder_.make_output(Argument(ArgumentList{{}, true})));
    }
  }

 private:
  static std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  }
  static std::string unquote(std::string_view s) {
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
      return std::string(s.substr(1, s.size() - 2));
    return std::string(s);
  }
  // "x = f(a);  a = None" -> "x = f(a)": FX frees values it no longer needs.
  static std::string_view strip_frees(std::string_view line) {
    bool quoted = false;
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      if (quoted) {
        if (line[i] == '\\') ++i;
        else if (line[i] == quote) quoted = false;
      } else if (line[i] == '"' || line[i] == '\'') {
        quoted = true, quote = line[i];
      } else if (line[i] == ';') {
        return trim(line.substr(0, i));
      }
    }
    return line;
  }
  static size_t top_level_assignment(std::string_view line) {
    bool quoted = false;
    char quote = 0;
    int depth = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted) {
        if (c == '\\') ++i;
        else if (c == quote) quoted = false;
        continue;
      }
      if (c == '"' || c == '\'') quoted = true, quote = c;
      else if (c == '(' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == ']' || c == '}') --depth;
      else if (c == '=' && depth == 0 && (i + 1 >= line.size() || line[i + 1] != '=') &&
               (i == 0 || std::string_view("<>!=").find(line[i - 1]) == std::string_view::npos))
        return i;
    }
    return std::string_view::npos;
  }

  Argument argument(const Py& v) {
    switch (v.kind) {
      case Py::Kind::Int: return Argument(v.integer);
      case Py::Kind::Float: return Argument(v.real);
      case Py::Kind::Str: return Argument(v.text);
      case Py::Kind::List:
      case Py::Kind::Tuple: {
        ArgumentList list{{}, v.kind == Py::Kind::Tuple};
        for (const Py& item : v.items) list.items.push_back(argument(item));
        return Argument(std::move(list));
      }
      case Py::Kind::Name: {
        if (const auto it = nodes_.find(v.text); it != nodes_.end()) return Argument(it->second);
        if (v.text == "None") return Argument(ir::None{});
        if (v.text == "True" || v.text == "False") return Argument(v.text == "True");
        if (v.text == "inf") return Argument(std::numeric_limits<double>::infinity());
        if (v.text == "nan") return Argument(std::numeric_limits<double>::quiet_NaN());
        if (v.text.starts_with("torch.")) {
          const std::string_view name = std::string_view(v.text).substr(6);
          for (int code = 0; code <= 40; ++code)
            if (const auto t = ir::scalar_type_from_code(code); t && ir::torch_name(*t) == v.text) return Argument(*t);
          if (name == "contiguous_format") return Argument(ir::MemoryFormat::ContiguousFormat);
          if (name == "channels_last") return Argument(ir::MemoryFormat::ChannelsLast);
          if (name == "preserve_format") return Argument(ir::MemoryFormat::PreserveFormat);
          if (name == "strided") return Argument(ir::Layout::Strided);
        }
        throw ReadError("'" + v.text + "' is not a value the graph defined");
      }
      case Py::Kind::Call:
        if (v.text == "device" || v.text == "torch.device") {
          ir::Device d;
          for (size_t i = 0; i < v.kwarg_names.size(); ++i) {
            const std::string& k = v.kwarg_names[i];
            const Py& val = v.kwarg_values[i];
            if (k == "type" && val.kind == Py::Kind::Str) d.type = val.text;
            else if (k == "index" && val.kind == Py::Kind::Int) d.index = static_cast<int>(val.integer);
          }
          if (!v.items.empty() && v.items[0].kind == Py::Kind::Str) d.type = v.items[0].text;
          return Argument(std::move(d));
        }
        throw ReadError("a call inside an argument");
      default:
        throw ReadError("an expression inside an argument");
    }
  }

  void assign(std::string name, const std::string& annotation, const Py& rhs) {
    std::unique_ptr<ir::Node> node;
    if (rhs.kind == Py::Kind::Call) {
      if (rhs.text.empty()) throw ReadError("a call of something that is not a name");
      if (rhs.text.starts_with("self.") || rhs.text.starts_with("getattr(")) throw ReadError("a call of a submodule");
      std::vector<Argument> args;
      for (const Py& a : rhs.items) args.push_back(argument(a));
      std::vector<ir::NamedArgument> kwargs;
      for (size_t i = 0; i < rhs.kwarg_names.size(); ++i)
        kwargs.push_back({rhs.kwarg_names[i], argument(rhs.kwarg_values[i])});
      node = builder_.make_call(ir::Target(rhs.text), name, std::move(args), std::move(kwargs));
    } else if (rhs.kind == Py::Kind::BinOp || rhs.kind == Py::Kind::Unary) {
      const std::string target = operator_target(rhs.text, rhs.kind == Py::Kind::Unary);
      if (target.empty()) throw ReadError("operator " + rhs.text);
      std::vector<Argument> args;
      for (const Py& a : rhs.items) args.push_back(argument(a));
      node = builder_.make_call(ir::Target(target), name, std::move(args));
    } else if (rhs.kind == Py::Kind::Subscript) {
      node = builder_.make_call(ir::Target("_operator.getitem"), name, {argument(rhs.items[0]), argument(rhs.items[1])});
    } else if (rhs.kind == Py::Kind::Name && rhs.text.starts_with("self.")) {
      node = builder_.make_get_attr(name, rhs.text.substr(5));
    } else {
      throw ReadError("a value that is not a call");
    }
    if (node->name != name) throw ReadError("'" + name + "' is defined twice");
    if (!annotation.empty()) node->value = value_of_annotation(annotation);
    node->meta.stack_trace = stack_trace_;
    add(std::move(node));
  }

  void returned(std::string_view expr) {
    expr = trim(expr);
    Argument value = expr.empty() ? Argument(ir::None{}) : argument(parse_expression(expr, limits_.max_nesting));
    // FX returns a tuple of outputs; each named one is a user output.
    if (const ArgumentList* list = value.list())
      for (const Argument& a : list->items)
        if (const ir::Node* n = a.node())
          out_.program.signature.outputs.push_back({ir::OutputKind::UserOutput, {ir::SpecArgument::Type::Tensor, n->name, {}}, {}});
    add(builder_.make_output(std::move(value)));
    output_ = true;
  }

  void add(std::unique_ptr<ir::Node> node) {
    if (++count_ > limits_.max_nodes)
      throw Error(ErrorKind::Limit, {}, "the graph text has more than " + std::to_string(limits_.max_nodes) + " nodes");
    ir::Node* n = nullptr;
    try {
      n = builder_.insert(std::move(node));
    } catch (const std::invalid_argument& e) {  // a name taken twice: the text is not a graph FX wrote
      throw Error(ErrorKind::Input, {}, std::string("the graph text cannot be read: ") + e.what());
    }
    nodes_[n->name] = n;
  }

  void note(int line_no, const std::string& why) {
    if (out_.notes.size() < 50) out_.notes.push_back("line " + std::to_string(line_no) + ": left out (" + why + ")");
  }

  FxCodeProgram& out_;
  const serde::ReadLimits& limits_;
  ir::GraphBuilder builder_;
  std::map<std::string, ir::Node*> nodes_;
  std::string stack_trace_;
  uint64_t count_ = 0;
  bool output_ = false;
};

size_t indentation(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) ++n;
  return n;
}

}  // namespace

FxCodeProgram read_fx_code(std::string_view code, const serde::ReadLimits& limits) {
  const size_t def = code.find("def forward(");
  if (def == std::string_view::npos) throw Error(ErrorKind::Input, {}, "the text holds no 'def forward(' of a graph");
  FxCodeProgram out;
  out.program.verifiers = {"TRAINING"};
  GraphReader reader(out, limits);
  const size_t line_start = code.rfind('\n', def) == std::string_view::npos ? 0 : code.rfind('\n', def) + 1;
  const size_t def_indent = indentation(code.substr(line_start, def - line_start));
  // The parameters may run over several lines: up to the "):" that ends them.
  const size_t params_end = code.find("):", def);
  if (params_end == std::string_view::npos) throw Error(ErrorKind::Input, {}, "the forward's parameters do not end");
  reader.forward_arguments(code.substr(def + 12, params_end - def - 12));
  size_t start = code.find('\n', params_end);
  int line_no = static_cast<int>(std::count(code.begin(), code.begin() + static_cast<std::ptrdiff_t>(params_end), '\n')) + 1;
  while (start != std::string_view::npos && start < code.size()) {
    const size_t end = std::min(code.find('\n', start + 1), code.size());
    const std::string_view line = code.substr(start + 1, end - start - 1);
    ++line_no;
    start = end;
    const size_t indent = indentation(line);
    if (indent == line.size()) continue;  // blank
    if (indent <= def_indent) break;      // the forward ended
    reader.statement(line.substr(indent), line_no);
  }
  reader.finish();
  return out;
}

}  // namespace exportlens::capture
