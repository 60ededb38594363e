#include "engine/compiled/wrapper_source.h"

#include <cctype>
#include <charconv>
#include <map>

namespace exportlens::compiled {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "\"l.weight\";" -> l.weight (the first quoted string of `s`).
std::string quoted(std::string_view s) {
  const auto a = s.find('"');
  if (a == std::string_view::npos) return {};
  const auto b = s.find('"', a + 1);
  return b == std::string_view::npos ? std::string() : std::string(s.substr(a + 1, b - a - 1));
}

// "{4, 8};" -> {4, 8}; symbolic entries ("s77") read as -1.
std::vector<int64_t> int_list(std::string_view s) {
  std::vector<int64_t> out;
  const auto a = s.find('{'), b = s.find('}');
  if (a == std::string_view::npos || b == std::string_view::npos || b < a) return out;
  std::string_view body = s.substr(a + 1, b - a - 1);
  while (!body.empty()) {
    const auto comma = body.find(',');
    std::string_view item = trim(body.substr(0, comma));
    if (!item.empty()) {
      int64_t v = -1;
      const auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
      out.push_back(ec == std::errc() ? v : -1);
    }
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  return out;
}

uint64_t number(std::string_view s) {
  s = trim(s);
  uint64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

// "name_[3].field = value;" split into index, field and value text; false when the line is not one.
bool info_assignment(std::string_view line, std::string_view array, size_t& index, std::string_view& field,
                     std::string_view& value) {
  if (!line.starts_with(array) || line.size() <= array.size() || line[array.size()] != '[') return false;
  const auto close = line.find(']', array.size());
  if (close == std::string_view::npos) return false;
  std::string_view digits = line.substr(array.size() + 1, close - array.size() - 1);
  const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc()) return false;
  const auto eq = line.find('=', close);
  if (line.size() < close + 2 || line[close + 1] != '.' || eq == std::string_view::npos) return false;
  field = trim(line.substr(close + 2, eq - close - 2));
  value = trim(line.substr(eq + 1));
  if (value.ends_with(';')) value.remove_suffix(1);
  return true;
}

// Inductor writes the infos in order, 0 to n-1: an index past the next one is
// left out (so a lying index cannot make the reader allocate).
template <typename T>
T* at(std::vector<T>& v, size_t i) {
  if (i > v.size()) return nullptr;
  if (i == v.size()) v.emplace_back();
  return &v[i];
}

// cached_torch_dtype_float32 -> float32; static_cast<int32_t>(...ConstantType::Parameter) -> Parameter.
std::string after_last(std::string_view s, std::string_view marker) {
  const auto p = s.rfind(marker);
  if (p == std::string_view::npos) return std::string(s);
  std::string_view rest = s.substr(p + marker.size());
  size_t n = 0;
  while (n < rest.size() && is_ident(rest[n])) ++n;
  return std::string(rest.substr(0, n));
}

void read_constant_field(ConstantInfo& c, std::string_view field, std::string_view value) {
  if (field == "name") c.name = quoted(value);
  else if (field == "original_fqn") c.original_fqn = quoted(value);
  else if (field == "dtype") c.dtype = after_last(value, "dtype_");
  else if (field == "type") c.type = after_last(value, "ConstantType::");
  else if (field == "shape") c.shape = int_list(value);
  else if (field == "stride") c.stride = int_list(value);
  else if (field == "data_size") c.data_size = number(value);
  else if (field == "from_folded") c.from_folded = value == "true";
}

// The kernel a run_impl statement launches, or "": an inductor kernel
// (cpp_fused_*, triton_*, called directly or as kernels.NAME) or an ATen
// fallback through the C shim (aoti_torch_cpu_*, aoti_torch_cuda_*).
std::string launched_kernel(std::string_view line) {
  constexpr std::string_view kCheck = "AOTI_TORCH_ERROR_CODE_CHECK(";
  if (line.starts_with(kCheck)) line.remove_prefix(kCheck.size());
  if (line.starts_with("kernels.")) line.remove_prefix(8);
  size_t n = 0;
  while (n < line.size() && is_ident(line[n])) ++n;
  if (n == 0 || n >= line.size() || line[n] != '(') return {};
  const std::string_view name = line.substr(0, n);
  const bool inductor = name.starts_with("cpp_fused") || name.starts_with("triton_") || name.starts_with("cpp_");
  const bool fallback = name.starts_with("aoti_torch_cpu_") || name.starts_with("aoti_torch_cuda_") ||
                        name.starts_with("aoti_torch_xpu_") || name.starts_with("aoti_torch_mps_");
  return inductor || fallback ? std::string(name) : std::string();
}

}  // namespace

std::vector<std::string> bracketed_names(std::string_view text) {
  std::vector<std::string> out;
  const auto a = text.find('['), b = text.find(']');
  if (a == std::string_view::npos || b == std::string_view::npos || b < a) return out;
  std::string_view body = text.substr(a + 1, b - a - 1);
  while (!body.empty()) {
    const auto comma = body.find(',');
    const std::string_view item = trim(body.substr(0, comma));
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  return out;
}

void read_wrapper_source(std::string_view text, const std::string& entry, CompiledModel& model) {
  constexpr std::string_view kHandle = "// [Provenance debug handles] ";
  constexpr std::string_view kSourceNodes = "// Topologically Sorted Source Nodes: ";
  std::string pending_handle;
  std::vector<std::string> pending_sources;
  bool in_run = false;
  int line_no = 0, out_of_order = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    const auto end = text.find('\n', pos);
    const std::string_view raw = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    pos = end == std::string_view::npos ? text.size() + 1 : end + 1;
    ++line_no;
    const std::string_view line = trim(raw);
    size_t index = 0;
    std::string_view field, value;
    if (info_assignment(line, "inputs_info_", index, field, value)) {
      if (auto* name = at(model.inputs, index); name && field == "name") *name = quoted(value);
      else if (!name) ++out_of_order;
    } else if (info_assignment(line, "outputs_info_", index, field, value)) {
      if (auto* name = at(model.outputs, index); name && field == "name") *name = quoted(value);
      else if (!name) ++out_of_order;
    } else if (info_assignment(line, "constants_info_", index, field, value)) {
      if (auto* constant = at(model.constants, index)) read_constant_field(*constant, field, value);
      else ++out_of_order;
    } else if (line.starts_with("in_spec_ = R\"(") || line.starts_with("out_spec_ = R\"(")) {
      const auto open = line.find("R\"(") + 3, close = line.rfind(")\"");
      if (close != std::string_view::npos && close >= open)
        (line.starts_with("in_") ? model.in_spec : model.out_spec) = std::string(line.substr(open, close - open));
    } else if (line.starts_with("void AOTInductorModel::run_impl(")) {
      in_run = true;
    } else if (in_run && line.starts_with("} // AOTInductorModel::run_impl")) {
      in_run = false;
    } else if (in_run && line.starts_with(kHandle)) {
      pending_handle = std::string(trim(line.substr(kHandle.size())));
    } else if (in_run && line.starts_with(kSourceNodes)) {
      pending_sources = bracketed_names(line.substr(kSourceNodes.size()));
    } else if (in_run) {
      std::string name = launched_kernel(line);
      // A provenance handle names its kernel: a launch of another name is a statement in between.
      if (name.empty() || (!pending_handle.empty() && !pending_handle.starts_with(name + ":"))) continue;
      Kernel k;
      k.name = std::move(name);
      k.handle = std::move(pending_handle);
      k.wrapper_entry = entry;
      k.wrapper_line = line_no;
      if (!pending_sources.empty()) {
        k.nodes = std::move(pending_sources);
        k.mapped_by = "source comment";
      }
      model.kernels.push_back(std::move(k));
      pending_handle.clear();
      pending_sources.clear();
    }
  }
  if (out_of_order)
    model.notes.push_back(entry + ": " + std::to_string(out_of_order) +
                          " input, output or constant lines out of order left out");
}

void read_kernel_source(std::string_view text, const std::string& entry, CompiledModel& model) {
  std::map<std::string, int, std::less<>> defined;  // name -> line
  int line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const auto end = text.find('\n', pos);
    const std::string_view line = trim(text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++line_no;
    std::string_view rest;
    if (line.starts_with("extern \"C\"")) {
      // extern "C"  void  NAME(   (possibly with attributes between)
      const auto paren = line.find('(');
      if (paren == std::string_view::npos) continue;
      size_t b = paren;
      while (b > 0 && is_ident(line[b - 1])) --b;
      rest = line.substr(b, paren - b);
    } else if (line.starts_with("def ")) {
      const auto paren = line.find('(');
      if (paren == std::string_view::npos) continue;
      rest = trim(line.substr(4, paren - 4));
    } else {
      continue;
    }
    if (!rest.empty()) defined.emplace(std::string(rest), line_no);
  }
  for (Kernel& k : model.kernels) {
    const auto it = defined.find(k.name);
    if (it != defined.end() && k.defined_in.empty()) {
      k.defined_in = entry;
      k.definition_line = it->second;
    }
  }
}

}  // namespace exportlens::compiled
