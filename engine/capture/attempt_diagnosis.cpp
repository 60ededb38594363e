#include "engine/capture/attempt_diagnosis.h"

#include <cctype>
#include <set>

#include "engine/capture/failure_class.h"
#include "engine/ir/graph.h"
#include "engine/ir/stack_trace.h"
#include "engine/symbolic/dynamic_shapes_spec.h"

namespace exportlens::capture {
namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whole-word occurrences of identifiers in `text`.
std::vector<std::string> identifiers(std::string_view text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
      size_t j = i;
      while (j < text.size() && is_word_char(text[j])) ++j;
      if (i == 0 || (text[i - 1] != '.' && text[i - 1] != '\'')) out.emplace_back(text.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

bool contains_word(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !is_word_char(text[at - 1]);
    const bool right = at + word.size() >= text.size() || !is_word_char(text[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

// Replaces whole-word `from` tokens by their text in `to`.
std::string substitute_words(std::string_view text, const std::map<std::string, std::string>& to) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if ((std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') && (i == 0 || !is_word_char(text[i - 1]))) {
      size_t j = i;
      while (j < text.size() && is_word_char(text[j])) ++j;
      const auto it = to.find(std::string(text.substr(i, j - i)));
      out += it != to.end() ? it->second : std::string(text.substr(i, j - i));
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}

// Every "L[...]...size()[d]" source named in torch's text.
std::vector<std::string> sources_in(std::string_view text) {
  std::vector<std::string> out;
  for (size_t at = text.find("L["); at != std::string_view::npos; at = text.find("L[", at + 1)) {
    if (at > 0 && is_word_char(text[at - 1])) continue;
    const size_t size_call = text.find(".size()[", at);
    if (size_call == std::string_view::npos) break;
    const size_t close = text.find(']', size_call + 8);
    if (close == std::string_view::npos) break;
    const std::string_view source = text.substr(at, close + 1 - at);
    if (source.find(' ') != std::string_view::npos) continue;
    if (std::find(out.begin(), out.end(), source) == out.end()) out.emplace_back(source);
  }
  return out;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The lines of torch's message under a header ("Suggested fixes:"), each trimmed, up to a blank line.
std::vector<std::string> lines_under(const std::string& message, std::string_view header) {
  std::vector<std::string> out;
  const size_t at = message.find(header);
  if (at == std::string::npos) return out;
  size_t start = message.find('\n', at);
  while (start != std::string::npos && start + 1 < message.size()) {
    const size_t end = std::min(message.find('\n', start + 1), message.size());
    std::string line = message.substr(start + 1, end - start - 1);
    if (line.empty() || !std::isspace(static_cast<unsigned char>(line[0]))) break;
    line.erase(0, line.find_first_not_of(" \t"));
    if (line.empty()) break;
    out.push_back(line);
    start = end;
  }
  return out;
}

// torch's bullets under "Constraints violated (...)!": "  - ..." lines, with their continuation lines.
std::vector<std::string> violation_bullets(const std::string& message) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < message.size()) {
    const size_t end = std::min(message.find('\n', start), message.size());
    const std::string_view line(message.data() + start, end - start);
    if (line.starts_with("  - ")) {
      out.emplace_back(line.substr(4));
    } else if (!out.empty() && line.starts_with("    ")) {
      out.back() += " " + std::string(line.substr(line.find_first_not_of(' ')));
    } else if (line.starts_with("Suggested fixes:")) {
      break;
    }
    start = end + 1;
  }
  return out;
}

std::string fix_name(const std::string& fix) {
  const size_t eq = fix.find(" = ");
  return eq == std::string::npos ? std::string() : fix.substr(0, eq);
}

struct SpecView {
  std::optional<symbolic::DynamicShapesSpec> spec;
  std::vector<std::string> dim_names;

  explicit SpecView(const std::string& text) {
    if (text.empty()) return;
    try {
      spec = symbolic::parse_dynamic_shapes(text);
      for (const auto& [name, _] : spec->dims) dim_names.push_back(name);
    } catch (const std::exception&) {
      // A spec ExportLens cannot read: the entries stay unnamed.
    }
  }

  std::string entry_for(const InputDim& d, const std::vector<CapturedInput>& inputs) const {
    if (!spec || d.dim < 0) return {};
    size_t position = 0;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i].name == d.input || inputs[i].path == d.input) position = i;
    const symbolic::InputShapeSpec* input = spec->input(d.input, position);
    if (!input || input->container || input->scalar) return {};  // a nested argument's parts stay unnamed here
    const symbolic::DimSpec entry = input->at(d.dim);
    using K = symbolic::DimSpec::Kind;
    switch (entry.kind) {
      case K::Named: return entry.dim;
      case K::Derived: return symbolic::DynamicShapesSpec::derived_name(entry);
      case K::Auto: return "Dim.AUTO";
      case K::Dynamic: return "Dim.DYNAMIC";
      case K::Int: return std::to_string(entry.value);
      default: return "static";
    }
  }
};

// Strict export's "from user code:" section: the innermost frame of it outside torch.
std::optional<PythonFrame> user_code_frame_in(const std::string& message, const FrameFilter& frames) {
  const size_t at = message.find("from user code:");
  if (at == std::string::npos) return std::nullopt;
  const auto located = ir::traceback_frames(std::string_view(message).substr(at));
  for (auto it = located.rbegin(); it != located.rend(); ++it)
    if (!frames.is_framework(it->file)) return PythonFrame{it->file, it->line, it->function, it->code};
  return std::nullopt;
}

std::optional<PythonFrame> caused_by_frame(const std::string& message) {
  // "Caused by: (mp/exp/dde.py:6 in forward)" — torch shortens the file name.
  const size_t at = message.find("Caused by: (");
  if (at == std::string::npos) return std::nullopt;
  const size_t end = message.find(')', at);
  const std::string inner = message.substr(at + 12, end == std::string::npos ? std::string::npos : end - at - 12);
  const size_t colon = inner.rfind(':', inner.find(" in "));
  if (colon == std::string::npos) return std::nullopt;
  PythonFrame f;
  f.file = inner.substr(0, colon);
  f.line = std::atoi(inner.c_str() + colon + 1);
  if (const size_t in = inner.find(" in "); in != std::string::npos) f.function = inner.substr(in + 4);
  return f;
}

class Diagnoser {
 public:
  Diagnoser(const TraceFacts& facts, FrameFilter frames, std::vector<CapturedInput> inputs, const std::string& spec)
      : facts_(facts), frames_(std::move(frames)), inputs_(std::move(inputs)), spec_(spec) {
    if (inputs_.empty())  // a plain log: the inputs torch described ("L['x']")
      for (const DescribedInput& d : facts_.inputs) {
        CapturedInput in;
        in.name = d.source.size() > 4 ? d.source.substr(3, d.source.size() - 5) : d.source;
        in.path = in.name;
        in.kind = "tensor";
        in.shape = d.sizes;
        in.dtype = d.dtype;
        in.device = d.device;
        inputs_.push_back(std::move(in));
      }
  }

  AttemptDiagnosis run(const std::string& type, const std::string& message, const std::string& failure_class,
                       std::optional<PythonFrame> user_frame, std::vector<std::string> fixes) {
    AttemptDiagnosis d;
    d.torch_version = facts_.torch_version;
    d.torch_dir = frames_.torch_dir();
    d.error_type = type.substr(type.rfind('.') + 1);
    d.message = message;
    d.headline = first_line(message);
    d.ok = message.empty() && type.empty();
    d.failure_class = failure_class.empty() && !d.ok ? classify_failure(d.error_type, message) : failure_class;
    d.user_frame = user_frame ? user_frame : caused_by_frame(message);
    if (!d.user_frame) d.user_frame = user_code_frame(message);
    d.suggested_fixes = fixes.empty() ? lines_under(message, "Suggested fixes:") : std::move(fixes);
    bind_symbols(d);
    add_guards(d);
    add_violations(d);
    // A constraint violation is raised at the export call; the line it arose
    // from is the user line of the first guard behind a violated entry.
    for (const ViolatedEntry& v : d.violations)
      if (d.failure_class == "constraint_violation" && !v.guards.empty())
        if (const auto& f = d.guards[static_cast<size_t>(v.guards.front())].user_frame) {
          d.raised_at = d.user_frame;
          d.user_frame = f;
          break;
        }
    add_specializations(d);
    add_data_dependent(d);
    d.fake_kernels = facts_.fake_kernels;
    d.other_events = facts_.other_events;
    for (const GraphText& g : facts_.graphs)
      if (!d.graph_text || g.kind == "make_fx_fail_partial") d.graph_text = g;
    return d;
  }

 private:
  std::optional<PythonFrame> user_code_frame(const std::string& message) const {
    return user_code_frame_in(message, frames_);
  }

  void bind_symbols(AttemptDiagnosis& d) {
    for (const SymbolRecord& s : facts_.symbols) {
      SymbolBinding b;
      b.symbol = s.symbol;
      b.unbacked = s.unbacked;
      b.source = s.source;
      b.range = s.range;
      b.hint = s.hint;
      if (!s.source.empty()) b.input = input_of_source(s.source, inputs_);
      if (b.input) b.spec_entry = spec_.entry_for(*b.input, inputs_);
      if (s.unbacked) b.origin = frames_.user_frame(s.stack);
      if (b.input) over_inputs_[b.symbol] = b.input->text();
      d.symbols.push_back(std::move(b));
    }
    // Sources verbose guards name for symbols the log did not create (a log cut short).
    for (const GuardRecord& g : facts_.guards)
      for (const auto& [sym, src] : g.symbol_to_sources)
        if (!over_inputs_.count(sym))
          if (const auto in = input_of_source(src, inputs_)) over_inputs_[sym] = in->text();
  }

  std::vector<std::string> symbols_in(const std::string& expr) const {
    std::vector<std::string> out;
    for (const std::string& id : identifiers(expr))
      if ((facts_.symbol(id) || over_inputs_.count(id)) && std::find(out.begin(), out.end(), id) == out.end())
        out.push_back(id);
    return out;
  }

  void add_guards(AttemptDiagnosis& d) {
    for (const GuardRecord& g : facts_.guards) {
      GuardLine line;
      line.expr = g.expr;
      line.over_inputs = substitute_words(g.expr, over_inputs_);
      line.user_frame = frames_.user_frame(g.stack);
      line.user_code = !g.user_code.empty() ? g.user_code : line.user_frame ? line.user_frame->code : std::string();
      line.stack = g.stack;
      line.symbols = symbols_in(g.expr);
      d.guards.push_back(std::move(line));
    }
  }

  void add_violations(AttemptDiagnosis& d) {
    for (const std::string& bullet : violation_bullets(d.message)) {
      ViolatedEntry v;
      v.message = bullet;
      const auto sources = sources_in(bullet);
      if (!sources.empty()) {
        v.source = sources.front();
        v.input = input_of_source(v.source, inputs_);
      }
      std::vector<std::string> dims;
      for (const std::string& name : spec_.dim_names)
        if (contains_word(bullet, name)) dims.push_back(name);
      // The Dim the bullet is about is the one it names first ("The values of
      // dy = L['y']... and dx = L['x']... must always be equal" is about dy).
      size_t first = std::string::npos;
      for (const std::string& name : dims)
        for (const std::string& form : {name + " = L[", "marked " + name + " "})
          if (const size_t at = bullet.find(form); at < first) {
            first = at;
            v.dim = name;
          }
      if (v.dim.empty() && !dims.empty()) v.dim = dims.front();
      if (v.dim.empty() && v.input) v.dim = spec_.entry_for(*v.input, inputs_);
      v.fixes = fixes_for(dims.empty() && !v.dim.empty() ? std::vector<std::string>{v.dim} : dims, d.suggested_fixes);
      // The guards behind it: those over a symbol whose source the bullet
      // names, or (bullets that name only the Dim) whose spec entry is the Dim.
      std::set<std::string> symbols;
      for (const SymbolBinding& b : d.symbols) {
        const bool named = std::find(sources.begin(), sources.end(), b.source) != sources.end();
        const bool of_dim = sources.empty() && !v.dim.empty() && b.spec_entry == v.dim;
        if (!named && !of_dim) continue;
        symbols.insert(b.symbol);
        if (v.source.empty()) {
          v.source = b.source;
          v.input = b.input;
        }
      }
      for (size_t i = 0; i < d.guards.size(); ++i)
        for (const std::string& s : d.guards[i].symbols)
          if (symbols.count(s)) {
            v.guards.push_back(static_cast<int>(i));
            break;
          }
      d.violations.push_back(std::move(v));
    }
  }

  // The fixes that name one of `dims`, and the fixes defining a name those use ("_n = Dim(...)" for "n = 4*_n").
  static std::vector<std::string> fixes_for(const std::vector<std::string>& dims, const std::vector<std::string>& fixes) {
    std::vector<std::string> out;
    std::set<std::string> names(dims.begin(), dims.end());
    for (int round = 0; round < 2; ++round)
      for (const std::string& f : fixes) {
        const std::string lhs = fix_name(f);
        const bool about = names.count(lhs) > 0;
        bool mentions = false;
        for (const std::string& n : names) mentions = mentions || contains_word(f, n);
        if ((about || mentions) && std::find(out.begin(), out.end(), f) == out.end()) {
          out.push_back(f);
          for (const std::string& id : identifiers(f.substr(f.find('=') == std::string::npos ? 0 : f.find('='))))
            if (id != "Dim" && id != "min" && id != "max") names.insert(id);
          names.insert(lhs);
        }
      }
    // In torch's order.
    std::vector<std::string> ordered;
    for (const std::string& f : fixes)
      if (std::find(out.begin(), out.end(), f) != out.end()) ordered.push_back(f);
    return ordered;
  }

  void add_specializations(AttemptDiagnosis& d) {
    for (const SpecializationRecord& s : facts_.specializations) {
      SpecializationLine line{s, std::nullopt, frames_.user_frame(s.stack)};
      if (!s.sources.empty()) line.input = input_of_source(s.sources.front(), inputs_);
      d.specializations.push_back(std::move(line));
    }
  }

  void add_data_dependent(AttemptDiagnosis& d) {
    auto unbacked_in = [&](const std::string& expr) {
      std::vector<std::string> out;
      for (const std::string& id : identifiers(expr))
        if (const SymbolRecord* s = facts_.symbol(id); s && s->unbacked) out.push_back(id);
      return out;
    };
    auto origin_of = [&](const std::vector<std::string>& symbols) -> std::optional<PythonFrame> {
      for (const std::string& sym : symbols)
        if (const SymbolRecord* s = facts_.symbol(sym))
          if (auto f = frames_.user_frame(s->stack)) return f;
      return std::nullopt;
    };
    std::vector<std::string> hints;
    for (size_t at = d.message.find("torch._check("); at != std::string::npos;
         at = d.message.find("torch._check(", at + 1)) {
      const size_t end = d.message.find('\n', at);
      std::string hint = d.message.substr(at, end == std::string::npos ? std::string::npos : end - at);
      if (std::find(hints.begin(), hints.end(), hint) == hints.end()) hints.push_back(hint);
    }
    auto advise = [](DataDependentLine& line) {
      if (!line.hints.empty()) return;
      const std::string code = line.guard_frame ? line.guard_frame->code : std::string();
      const bool branch = code.starts_with("if ") || code.starts_with("elif ") || code.starts_with("while ") ||
                          code.find(" if ") != std::string::npos;
      const bool size = !line.symbols.empty() && line.symbols.front().starts_with("u");
      if (branch)
        line.advice = "the line branches on a value computed from the data: export traces one path, so write the "
                      "branch with torch.cond (both sides traced), or branch on something static";
      else if (size)
        line.advice = "the value is a size computed from the data: state what you know about it before this line, "
                      "e.g. torch._check(" + line.expr + ") or torch._check_is_size(...) on the value";
      else
        line.advice = "the value is computed from the data: use torch.cond for a branch on it, or torch._check to "
                      "state what the trace may assume";
    };
    if (d.failure_class == "data_dependent") {
      DataDependentLine line;
      for (const char* marker : {"data-dependent expression ", "data-dependent expression: "}) {
        const size_t at = d.message.find(marker);
        if (at == std::string::npos) continue;
        const size_t start = at + std::string_view(marker).size();
        size_t end = d.message.find(" (unhinted", start);
        if (end == std::string::npos) end = d.message.find('\n', start);
        line.expr = d.message.substr(start, end == std::string::npos ? std::string::npos : end - start);
        break;
      }
      line.symbols = unbacked_in(line.expr);
      line.origin = origin_of(line.symbols);
      line.guard_frame = d.user_frame;
      line.hints = hints;
      advise(line);
      d.data_dependent.push_back(std::move(line));
    }
    for (const DataDependentRecord& r : facts_.data_dependent) {
      if (!d.data_dependent.empty() && d.data_dependent.front().expr == r.expr) {
        if (!d.data_dependent.front().guard_frame) d.data_dependent.front().guard_frame = frames_.user_frame(r.stack);
        continue;
      }
      DataDependentLine line;
      line.expr = r.expr;
      line.symbols = unbacked_in(r.expr);
      line.origin = origin_of(line.symbols);
      line.guard_frame = frames_.user_frame(r.stack);
      advise(line);
      d.data_dependent.push_back(std::move(line));
    }
  }

  const TraceFacts& facts_;
  FrameFilter frames_;
  std::vector<CapturedInput> inputs_;
  SpecView spec_;
  std::map<std::string, std::string> over_inputs_;  // symbol -> "x.shape[0]"
};

TraceFacts facts_of(const std::filesystem::path& trace, const serde::ReadLimits& limits,
                    std::vector<std::string>& notes) {
  if (trace.empty()) return {};
  std::error_code ec;
  if (!std::filesystem::exists(trace, ec)) return {};
  const TraceLog log = read_trace_log(trace, limits);
  notes = log.notes;
  return read_trace_facts(log, limits);
}

}  // namespace

std::string InputDim::text() const { return dim < 0 ? input : input + ".shape[" + std::to_string(dim) + "]"; }

std::optional<InputDim> input_of_source(const std::string& source, const std::vector<CapturedInput>& inputs) {
  // L['x'] / L['flat_args'][0] / L['args'][0] / L['kwargs']['k'], then [i] / ['k'] steps, then .size()[d].
  if (!source.starts_with("L['")) return std::nullopt;
  const size_t name_end = source.find("']", 3);
  if (name_end == std::string::npos) return std::nullopt;
  std::string root = source.substr(3, name_end - 3);
  size_t at = name_end + 2;
  std::string steps;
  while (at < source.size() && source[at] == '[') {
    const size_t close = source.find(']', at);
    if (close == std::string::npos) return std::nullopt;
    steps += source.substr(at, close + 1 - at);
    at = close + 1;
  }
  int dim = -1;
  if (source.compare(at, 8, ".size()[") == 0) dim = std::atoi(source.c_str() + at + 8);
  InputDim d;
  if ((root == "flat_args" || root == "args") && !steps.empty() && std::isdigit(static_cast<unsigned char>(steps[1]))) {
    const size_t index = static_cast<size_t>(std::atoi(steps.c_str() + 1));
    steps = steps.substr(steps.find(']') + 1);
    if (index < inputs.size()) root = !inputs[index].name.empty() ? inputs[index].name : inputs[index].path;
    else root = "args[" + std::to_string(index) + "]";
  } else if (root == "kwargs" && steps.size() > 4 && steps[1] == '\'') {
    const size_t close = steps.find("']");
    root = steps.substr(2, close - 2);
    steps = steps.substr(close + 2);
  }
  d.input = root + steps;
  d.dim = dim;
  return d;
}

AttemptDiagnosis diagnose(const Capture& capture, const Attempt& attempt, const serde::ReadLimits& limits) {
  std::vector<std::string> notes;
  const TraceFacts facts = facts_of(attempt.trace, limits, notes);
  FrameFilter frames(capture.torch_dir.empty() ? facts.torch_dir : capture.torch_dir);
  Diagnoser diagnoser(facts, frames, attempt.inputs, attempt.spec_text);
  AttemptDiagnosis d = attempt.error
                           ? diagnoser.run(attempt.error->type.empty() ? "Error" : attempt.error->type,
                                           attempt.error->message, attempt.error->failure_class,
                                           attempt.error->user_frame, attempt.error->suggested_fixes)
                           : diagnoser.run("", "", "", std::nullopt, {});
  d.ok = attempt.ok;
  d.notes = std::move(notes);
  if (d.torch_version.empty()) d.torch_version = attempt.torch_version;
  return d;
}

AttemptDiagnosis diagnose(const TraceLog& log, const serde::ReadLimits& limits) {
  const TraceFacts facts = read_trace_facts(log, limits);
  Diagnoser diagnoser(facts, FrameFilter(facts.torch_dir), {}, "");
  AttemptDiagnosis d;
  if (!facts.failures.empty()) {
    const CompileFailure& f = facts.failures.back();
    std::optional<PythonFrame> frame;
    if (!f.user_file.empty()) frame = PythonFrame{f.user_file, f.user_line, "", ""};
    d = diagnoser.run(f.fail_type, f.fail_reason, "", frame, {});
  } else {
    d = diagnoser.run("", "", "", std::nullopt, {});
  }
  d.notes = log.notes;
  return d;
}

void link_graph(AttemptDiagnosis& diagnosis, const ir::Graph& graph) {
  std::map<std::pair<std::string, int>, std::vector<std::string>> by_line;
  for (const ir::Node* n : graph.nodes())
    if (const auto loc = ir::innermost_frame(n->meta.stack_trace)) by_line[{loc->file, loc->line}].push_back(n->name);
  for (GuardLine& g : diagnosis.guards) {
    g.nodes.clear();
    if (!g.user_frame) continue;
    const auto it = by_line.find({g.user_frame->file, g.user_frame->line});
    if (it != by_line.end()) g.nodes = it->second;
  }
}

}  // namespace exportlens::capture
