#include "engine/ir/fx_namespace.h"

#include <cctype>

namespace exportlens::ir {

namespace {

// FX's _illegal_names: Python keywords, the builtins module's names (as seen
// in a normal interpreter, site helpers included) and FX's custom builtins.
constexpr std::string_view kIllegalNames[] = {
    "ArithmeticError", "AssertionError", "AttributeError", "BaseException",
    "BaseExceptionGroup", "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning",
    "ChildProcessError", "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError",
    "ConnectionResetError", "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning",
    "EnvironmentError", "Exception", "ExceptionGroup", "False", "FileExistsError",
    "FileNotFoundError", "FloatingPointError", "FutureWarning", "GeneratorExit", "IOError",
    "ImportError", "ImportWarning", "IndentationError", "IndexError", "InterruptedError",
    "IsADirectoryError", "KeyError", "KeyboardInterrupt", "LookupError", "MemoryError",
    "ModuleNotFoundError", "NameError", "None", "NotADirectoryError", "NotImplemented",
    "NotImplementedError", "OSError", "OverflowError", "PendingDeprecationWarning",
    "PermissionError", "ProcessLookupError", "RecursionError", "ReferenceError",
    "ResourceWarning", "RuntimeError", "RuntimeWarning", "StopAsyncIteration", "StopIteration",
    "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit", "TabError", "TimeoutError",
    "True", "TypeError", "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError",
    "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError",
    "Warning", "ZeroDivisionError", "__build_class__", "__debug__", "__doc__", "__import__",
    "__loader__", "__name__", "__package__", "__spec__", "abs", "aiter", "all", "and", "anext",
    "any", "as", "ascii", "assert", "async", "await", "bin", "bool", "break", "breakpoint",
    "bytearray", "bytes", "callable", "chr", "class", "classmethod", "compile", "complex",
    "continue", "copyright", "credits", "def", "del", "delattr", "dict", "dir", "divmod", "elif",
    "else", "enumerate", "eval", "except", "exec", "exit", "filter", "finally", "float", "for",
    "format", "from", "frozenset", "getattr", "global", "globals", "hasattr", "hash", "help",
    "hex", "id", "if", "import", "in", "input", "int", "is", "isinstance", "issubclass", "iter",
    "lambda", "len", "license", "list", "locals", "map", "max", "memoryview", "min", "next",
    "nonlocal", "not", "object", "oct", "open", "or", "ord", "pass", "pow", "print", "property",
    "quit", "raise", "range", "repr", "return", "reversed", "round", "set", "setattr", "slice",
    "sorted", "staticmethod", "str", "sum", "super", "try", "tuple", "type", "vars", "while",
    "with", "yield", "zip",
    // FX's custom builtins
    "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree",
};

constexpr std::string_view kCodegenGlobals[] = {
    "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree"};

bool is_illegal(std::string_view name) {
  for (auto n : kIllegalNames)
    if (n == name) return true;
  return false;
}

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// FX's _illegal_char_regex.sub("_", s): each run of non-identifier characters becomes "_".
std::string legalize(std::string_view s) {
  std::string out;
  bool in_run = false;
  for (char c : s) {
    const bool ok = c >= 0 && is_ident_char(c);
    if (ok) {
      out += c;
    } else if (!in_run) {
      out += '_';
    }
    in_run = !ok;
  }
  return out;
}

/// FX's _name_regex ^([a-zA-Z_][0-9a-zA-Z_]*?)(?:_(\d+))?$ : the base and the
/// numeric suffix (empty when there is none). False if `s` is not an identifier.
bool split_name(std::string_view s, std::string* base, std::string* num) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  for (char c : s)
    if (c < 0 || !is_ident_char(c)) return false;
  // The lazy base makes the suffix as long as possible: the first "_" whose
  // tail is all digits (and non-empty), leaving a non-empty base.
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i] != '_' || i + 1 >= s.size()) continue;
    auto tail = s.substr(i + 1);
    bool digits = true;
    for (char c : tail) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (digits) {
      *base = std::string(s.substr(0, i));
      *num = std::string(tail);
      return true;
    }
  }
  *base = std::string(s);
  num->clear();
  return true;
}

long long parse_count(const std::string& digits) {
  long long v = 0;
  for (char c : digits) {
    if (v > (1LL << 59)) return v;  // absurd suffixes: stop growing, stay unique via the loop
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

FxNamespace FxNamespace::for_codegen() {
  FxNamespace ns;
  for (auto name : kCodegenGlobals) {
    ns.allocate(name, name.data(), /*owner_is_that_builtin=*/true);
  }
  return ns;
}

std::string FxNamespace::create_name(std::string_view candidate, const void* owner) {
  return allocate(candidate, owner, false);
}

std::string FxNamespace::allocate(std::string_view candidate_in, const void* owner,
                                  bool owner_is_that_builtin) {
  if (owner) {
    auto it = owner_names_.find(owner);
    if (it != owner_names_.end()) return it->second;
  }
  std::string candidate(candidate_in);
  std::string base, num;
  if (!split_name(candidate, &base, &num)) {
    candidate = legalize(candidate);
    if (candidate.empty()) candidate = "_unnamed";
    if (std::isdigit(static_cast<unsigned char>(candidate[0]))) candidate = "_" + candidate;
    split_name(candidate, &base, &num);
  }
  long long count = 0;
  if (num.empty() || used_.count(candidate)) {
    auto bc = base_count_.find(base);
    count = bc == base_count_.end() ? 0 : bc->second;
    // Only the builtin itself may take a builtin's name.
    if (is_illegal(candidate) && !owner_is_that_builtin) {
      ++count;
      candidate = base + "_" + std::to_string(count);
    }
  } else {
    count = parse_count(num);
  }
  while (used_.count(candidate)) {
    ++count;
    candidate = base + "_" + std::to_string(count);
  }
  used_.insert(candidate);
  base_count_[base] = count;
  if (owner) owner_names_[owner] = candidate;
  return candidate;
}

}  // namespace exportlens::ir
