#include "engine/capture/trace_facts.h"

#include "engine/serde/json_cursor.h"
#include "engine/serde/json_document.h"

namespace exportlens::capture {
namespace {

using serde::JsonCursor;
using serde::JsonType;

std::string text_of(const JsonCursor& obj, const char* key) {
  if (!obj.is_object() || !obj.has(key)) return {};
  const JsonCursor v = obj.at(key);
  switch (v.type()) {
    case JsonType::String: return v.str();
    case JsonType::Integer: return std::to_string(v.integer());
    case JsonType::True: return "True";
    case JsonType::False: return "False";
    default: return {};
  }
}

int64_t integer_of(const JsonCursor& obj, const char* key, int64_t fallback = 0) {
  if (!obj.is_object() || !obj.has(key) || obj.at(key).type() != JsonType::Integer) return fallback;
  return obj.at(key).integer();
}

class FactReader {
 public:
  FactReader(const TraceLog& log, const serde::ReadLimits& limits, TraceFacts& facts)
      : log_(log), limits_(limits), facts_(facts) {}

  void read() {
    std::vector<std::string> files;
    for (const auto& [id, f] : log_.filenames) files.push_back(f);
    facts_.torch_dir = torch_dir_from(files);
    for (size_t i = 0; i < log_.events.size(); ++i) read_event(static_cast<int>(i));
  }

 private:
  PythonStack stack_of(const JsonCursor& frames) const {
    PythonStack stack;
    if (!frames.is_array()) return stack;
    for (const JsonCursor& f : frames.elements()) {
      if (!f.is_object()) continue;
      PythonFrame frame;
      if (f.has("filename")) {
        const JsonCursor file = f.at("filename");
        frame.file = file.type() == JsonType::Integer ? log_.filename(file.integer())
                     : file.is_string()                ? file.str()
                                                       : std::string();
      }
      frame.line = static_cast<int>(integer_of(f, "line"));
      frame.function = text_of(f, "name");
      frame.code = text_of(f, "loc");
      stack.push_back(std::move(frame));
    }
    return stack;
  }

  // The richest stack an event gives: its own user_stack where torch filled
  // it (strict export), else its whole stack, else the event's outer stack.
  PythonStack best_stack(const JsonCursor& inner, const JsonCursor& outer) const {
    for (const char* key : {"user_stack", "stack"}) {
      if (inner.is_object() && inner.has(key)) {
        PythonStack s = stack_of(inner.at(key));
        if (!s.empty()) return s;
      }
    }
    return outer.is_object() && outer.has("stack") ? stack_of(outer.at("stack")) : PythonStack{};
  }

  void read_event(int index) {
    const TraceEvent& event = log_.events[static_cast<size_t>(index)];
    const std::string label = "event " + std::to_string(index);
    serde::JsonDocument doc;
    try {
      doc = serde::JsonDocument::parse(event.body, label, limits_);
    } catch (const std::exception&) {
      ++facts_.other_events[event.name];  // the reader parsed it once already; be lenient
      return;
    }
    const JsonCursor outer(doc, label);
    const JsonCursor e = outer.at(event.name.c_str());
    const std::string& n = event.name;
    if (n == "artifact" || n == "graph_dump") {
      read_artifact(event, e, index);
    } else if (n == "exported_program" || n == "dynamo_output_graph") {
      facts_.graphs.push_back({n, event.payload, index});
    } else if (n == "describe_tensor") {
      tensors_[{integer_of(e, "describer_id"), integer_of(e, "id")}] = e.is_object() ? read_tensor(e) : DescribedInput{};
    } else if (n == "describe_source") {
      const auto it = tensors_.find({integer_of(e, "describer_id"), integer_of(e, "id")});
      if (it != tensors_.end()) {
        it->second.source = text_of(e, "source");
        facts_.inputs.push_back(it->second);
      }
    } else if (n == "create_symbol" || n == "create_unbacked_symbol") {
      SymbolRecord s;
      s.symbol = text_of(e, "symbol");
      s.unbacked = n == "create_unbacked_symbol";
      s.hint = text_of(e, "val");
      s.range = text_of(e, "vr");
      s.source = text_of(e, "source");
      s.stack = best_stack(e, outer);
      s.event = index;
      facts_.symbols.push_back(std::move(s));
    } else if (n == "guard_added" || n == "guard_added_fast") {
      read_guard(n == "guard_added", e, outer, index);
    } else if (n == "symbolic_shape_specialization") {
      SpecializationRecord s;
      s.symbol = text_of(e, "symbol");
      s.value = text_of(e, "value");
      s.reason = text_of(e, "reason");
      if (e.is_object() && e.has("sources") && e.at("sources").is_array())
        for (const JsonCursor& src : e.at("sources").elements())
          if (src.is_string()) s.sources.push_back(src.str());
      s.stack = best_stack(e, outer);
      s.event = index;
      facts_.specializations.push_back(std::move(s));
    } else if (n == "guard_on_data_dependent_error") {
      facts_.data_dependent.push_back({text_of(e, "expr"), best_stack(e, outer), index});
    } else if (n == "missing_fake_kernel" || n == "mismatched_fake_kernel") {
      facts_.fake_kernels.push_back({n, text_of(e, "op"), text_of(e, "reason"), index});
    } else if (n == "expression_created") {
      read_expression(e, outer);
    } else if (n == "compilation_metrics") {
      CompileFailure f{text_of(e, "fail_type"), text_of(e, "fail_reason"), text_of(e, "fail_user_frame_filename"),
                       static_cast<int>(integer_of(e, "fail_user_frame_lineno")), index};
      if (!f.fail_type.empty() || !f.fail_reason.empty()) facts_.failures.push_back(std::move(f));
    } else {
      ++facts_.other_events[n];
    }
  }

  void read_artifact(const TraceEvent& event, const JsonCursor& e, int index) {
    const std::string name = text_of(e, "name");
    if (name == "torch_version") {
      try {
        const std::string label = "torch_version";
        const auto payload = serde::JsonDocument::parse(event.payload, label, limits_);
        facts_.torch_version = text_of(JsonCursor(payload, label), "pytorch_version");
      } catch (const std::exception&) {
      }
    } else if (name == "make_fx_fail_partial" || name == "exported_program") {
      facts_.graphs.push_back({name, event.payload, index});
    } else {
      ++facts_.other_events["artifact " + (name.empty() ? std::string("(unnamed)") : name)];
    }
  }

  DescribedInput read_tensor(const JsonCursor& e) const {
    DescribedInput t;
    if (e.has("size") && e.at("size").is_array())
      for (const JsonCursor& s : e.at("size").elements())
        t.sizes.push_back(s.type() == JsonType::Integer ? s.integer() : -1);
    t.dtype = text_of(e, "dtype");
    t.device = text_of(e, "device");
    // torch writes repr(device): "device(type='cpu')".
    if (const size_t q = t.device.find('\''); q != std::string::npos) {
      const size_t end = t.device.find('\'', q + 1);
      t.device = t.device.substr(q + 1, end == std::string::npos ? std::string::npos : end - q - 1);
    }
    return t;
  }

  void read_guard(bool verbose, const JsonCursor& e, const JsonCursor& outer, int index) {
    GuardRecord g;
    g.expr = text_of(e, "expr");
    g.stack = best_stack(e, outer);
    g.verbose = verbose;
    g.event = index;
    if (verbose && e.is_object()) {
      if (e.has("symbol_to_sources") && e.at("symbol_to_sources").is_object())
        for (const auto& [sym, src] : e.at("symbol_to_sources").members())
          if (src.is_string()) g.symbol_to_sources[std::string(sym)] = src.str();
      if (e.has("frame_locals")) g.user_code = text_of(e.at("frame_locals"), "loc");
    }
    // Verbose logs write each guard twice, guard_added then guard_added_fast:
    // one guard, with the verbose event's sources and the longer stack.
    const auto pending = unpaired_verbose_.find(g.expr);
    if (!verbose && pending != unpaired_verbose_.end()) {
      GuardRecord& first = facts_.guards[pending->second];
      if (g.stack.size() > first.stack.size()) first.stack = std::move(g.stack);
      unpaired_verbose_.erase(pending);
      return;
    }
    if (verbose) unpaired_verbose_[g.expr] = facts_.guards.size();
    facts_.guards.push_back(std::move(g));
  }

  void read_expression(const JsonCursor& e, const JsonCursor& outer) {
    ExpressionRecord x;
    x.id = integer_of(e, "result_id");
    x.method = text_of(e, "method");
    x.result = text_of(e, "result");
    if (e.is_object() && e.has("arguments") && e.at("arguments").is_array())
      for (const JsonCursor& a : e.at("arguments").elements()) x.arguments.push_back(a.is_string() ? a.str() : "?");
    if (e.is_object() && e.has("argument_ids") && e.at("argument_ids").is_array())
      for (const JsonCursor& a : e.at("argument_ids").elements())
        if (a.type() == JsonType::Integer) x.argument_ids.push_back(a.integer());
    x.stack = best_stack(e, outer);
    facts_.expressions.push_back(std::move(x));
  }

  const TraceLog& log_;
  const serde::ReadLimits& limits_;
  TraceFacts& facts_;
  std::map<std::pair<int64_t, int64_t>, DescribedInput> tensors_;  // by (describer, id)
  std::map<std::string, size_t> unpaired_verbose_;                 // expr -> index in guards
};

}  // namespace

const SymbolRecord* TraceFacts::symbol(const std::string& name) const {
  for (const SymbolRecord& s : symbols)
    if (s.symbol == name) return &s;
  return nullptr;
}

TraceFacts read_trace_facts(const TraceLog& log, const serde::ReadLimits& limits) {
  TraceFacts facts;
  FactReader(log, limits, facts).read();
  return facts;
}

}  // namespace exportlens::capture
