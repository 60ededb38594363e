#include "engine/capture/capture_report.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/capture/failure_class.h"
#include "engine/symbolic/dynamic_shapes_spec.h"

namespace exportlens::capture {
namespace {

using nlohmann::json;

std::string short_file(const std::string& file) {
  const size_t slash = file.rfind('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

std::string where(const PythonFrame& f) { return short_file(f.file) + ":" + std::to_string(f.line); }

void indented(std::ostringstream& out, const std::string& text, const std::string& indent) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out << indent << line << "\n";
}

json frame_json(const std::optional<PythonFrame>& f) {
  if (!f) return nullptr;
  return {{"file", f->file}, {"line", f->line}, {"function", f->function}, {"code", f->code}};
}

std::string function_name(const Attempt& a) {
  return "torch.export." + (a.function.empty() ? std::string("export") : a.function);
}

}  // namespace

std::string fixed_spec(const Attempt& attempt, const AttemptDiagnosis& diagnosis) {
  if (diagnosis.suggested_fixes.empty() || attempt.spec_text.empty()) return {};
  std::string fixes;
  for (const std::string& f : diagnosis.suggested_fixes) fixes += f + "\n";
  try {
    return symbolic::print_dynamic_shapes(
        symbolic::apply_suggested_fixes(symbolic::parse_dynamic_shapes(attempt.spec_text), fixes));
  } catch (const std::exception&) {
    return {};  // a spec or fix ExportLens cannot read yet: torch's fixes still stand on their own
  }
}

std::string format_summary(const Capture& capture) {
  std::ostringstream out;
  for (const Attempt& a : capture.attempts) {
    out << (a.ok ? "  ✓ " : "  ✗ ") << a.index << "  " << (a.function.empty() ? "export" : a.function) << "  "
        << (a.model_class.empty() ? "?" : a.model_class.substr(a.model_class.rfind('.') + 1)) << "  "
        << where(a.call_site);
    if (!a.ok && a.error) {
      out << "  " << failure_class_title(a.error->failure_class);
      const std::string head = a.error->message.substr(0, a.error->message.find('\n'));
      if (!head.empty()) out << ": " << (head.size() > 100 ? head.substr(0, 97) + "..." : head);
    }
    out << "\n";
  }
  return out.str();
}

std::string format_attempt_report(const Attempt& a, const AttemptDiagnosis& d) {
  std::ostringstream out;
  out << "attempt " << a.index << ": " << function_name(a) << "(" << a.model_class << ") at " << where(a.call_site)
      << (a.call_site.code.empty() ? "" : ": " + a.call_site.code) << "\n";
  out << "status: " << (a.ok ? "ok" : "failed") << (a.strict ? (*a.strict ? " (strict)" : " (non-strict)") : "")
      << (a.spec_override ? " (re-run with an edited spec)" : "") << "\n";
  if (a.spec_given) {
    out << "spec:\n";
    indented(out, a.spec_text, "  ");
  }
  if (a.ok) {
    if (!a.program.empty()) out << "program: " << a.program.string() << "\n";
    return out.str();
  }
  out << "error: " << d.error_type << ": " << d.headline << "\n";
  if (d.user_frame)
    out << "where: " << d.user_frame->location() << (d.user_frame->code.empty() ? "" : ": " + d.user_frame->code) << "\n";
  if (d.raised_at)
    out << "raised at: " << d.raised_at->location() << (d.raised_at->code.empty() ? "" : ": " + d.raised_at->code) << "\n";
  // The problems, numbered as check --report numbers them.
  struct Problem {
    std::string kind, subject, message, guard;
    std::optional<PythonFrame> origin;
  };
  std::vector<Problem> problems;
  for (const ViolatedEntry& v : d.violations) {
    Problem p{"constraint_violation", v.dim + (v.source.empty() ? "" : " = " + v.source), v.message, "", std::nullopt};
    if (!v.guards.empty()) {
      const GuardLine& g = d.guards[static_cast<size_t>(v.guards.front())];
      p.guard = g.expr + (g.over_inputs != g.expr ? "  (" + g.over_inputs + ")" : "");
      p.origin = g.user_frame;
    }
    problems.push_back(std::move(p));
  }
  for (const SpecializationLine& s : d.specializations)
    problems.push_back({"specialization",
                        s.record.symbol + (s.input ? " (" + s.input->text() + ")" : "") + " = " + s.record.value,
                        "reason: " + s.record.reason, "", s.user_frame});
  for (const DataDependentLine& x : d.data_dependent) {
    std::string message = "the trace needs to know " + x.expr + ", which depends on data";
    if (x.origin)
      message += "\n" + (x.symbols.empty() ? std::string("the value") : x.symbols.front()) + " comes from " +
                 x.origin->location() + (x.origin->code.empty() ? "" : ": " + x.origin->code);
    for (const std::string& h : x.hints) message += "\nhint: " + h;
    if (!x.advice.empty()) message += "\nwhat to do: " + x.advice;
    problems.push_back({"data_dependent_guard", x.expr, message, "", x.guard_frame});
  }
  for (const FakeKernelRecord& f : d.fake_kernels)
    problems.push_back({f.kind, f.op, f.reason, "", std::nullopt});
  if (problems.empty() && !d.message.empty())
    problems.push_back({d.failure_class.empty() ? "error" : d.failure_class, d.error_type, d.message, "", d.user_frame});
  out << "\n" << problems.size() << (problems.size() == 1 ? " problem:" : " problems:") << "\n";
  for (size_t i = 0; i < problems.size(); ++i) {
    const Problem& p = problems[i];
    out << "\n" << i + 1 << ". " << p.kind << ": " << p.subject << "\n";
    indented(out, p.message, "   ");
    if (!p.guard.empty()) out << "   guard: " << p.guard << "\n";
    if (p.origin) {
      out << "   origin: " << p.origin->location() << "\n";
      if (!p.origin->code.empty()) out << "   code: " << p.origin->code << "\n";
    }
  }
  if (!d.guards.empty()) {
    out << "\nguards, in the order torch added them:\n";
    for (const GuardLine& g : d.guards)
      out << "  " << g.over_inputs << (g.user_frame ? "    # " + where(*g.user_frame) : "") << "\n";
  }
  if (!d.suggested_fixes.empty()) {
    out << "\nSuggested fixes:\n";
    for (const std::string& f : d.suggested_fixes) out << "  " << f << "\n";
  }
  if (const std::string fixed = fixed_spec(a, d); !fixed.empty()) {
    out << "\nThe spec with the suggested fixes applied:\n";
    indented(out, fixed, "  ");
  }
  if (a.draft && !a.draft->program.empty()) out << "\ndraft program: " << a.draft->program.string() << "\n";
  return out.str();
}

std::string format_capture_report(const Capture& capture, const std::vector<AttemptDiagnosis>& diagnoses) {
  std::ostringstream out;
  int failed = 0;
  for (const Attempt& a : capture.attempts) failed += a.ok ? 0 : 1;
  out << capture.attempts.size() << (capture.attempts.size() == 1 ? " export call" : " export calls") << " of "
      << capture.script << " (torch " << capture.torch_version << "): " << failed << " failed\n";
  for (size_t i = 0; i < capture.attempts.size() && i < diagnoses.size(); ++i)
    out << "\n" << format_attempt_report(capture.attempts[i], diagnoses[i]);
  return out.str();
}

std::string capture_report_json(const Capture& capture, const std::vector<AttemptDiagnosis>& diagnoses) {
  json attempts = json::array();
  for (size_t i = 0; i < capture.attempts.size() && i < diagnoses.size(); ++i) {
    const Attempt& a = capture.attempts[i];
    const AttemptDiagnosis& d = diagnoses[i];
    json violations = json::array(), guards = json::array(), symbols = json::array(), specs = json::array(),
         dd = json::array(), kernels = json::array();
    for (const ViolatedEntry& v : d.violations)
      violations.push_back({{"dim", v.dim}, {"source", v.source}, {"input", v.input ? v.input->text() : ""},
                            {"message", v.message}, {"fixes", v.fixes}, {"guards", v.guards}});
    for (const GuardLine& g : d.guards)
      guards.push_back({{"expr", g.expr}, {"over_inputs", g.over_inputs}, {"user_frame", frame_json(g.user_frame)},
                        {"code", g.user_code}, {"symbols", g.symbols}, {"nodes", g.nodes}});
    for (const SymbolBinding& s : d.symbols)
      symbols.push_back({{"symbol", s.symbol}, {"unbacked", s.unbacked}, {"source", s.source},
                         {"input", s.input ? s.input->text() : ""}, {"spec_entry", s.spec_entry}, {"range", s.range},
                         {"hint", s.hint}, {"origin", frame_json(s.origin)}});
    for (const SpecializationLine& s : d.specializations)
      specs.push_back({{"symbol", s.record.symbol}, {"value", s.record.value}, {"reason", s.record.reason},
                       {"sources", s.record.sources}, {"input", s.input ? s.input->text() : ""},
                       {"user_frame", frame_json(s.user_frame)}});
    for (const DataDependentLine& x : d.data_dependent)
      dd.push_back({{"expr", x.expr}, {"symbols", x.symbols}, {"origin", frame_json(x.origin)},
                    {"guard_frame", frame_json(x.guard_frame)}, {"hints", x.hints}, {"advice", x.advice}});
    for (const FakeKernelRecord& f : d.fake_kernels) kernels.push_back({{"kind", f.kind}, {"op", f.op}, {"reason", f.reason}});
    attempts.push_back({{"index", a.index},
                        {"function", a.function},
                        {"ok", a.ok},
                        {"model_class", a.model_class},
                        {"call_site", frame_json(a.call_site)},
                        {"strict", a.strict ? json(*a.strict) : json(nullptr)},
                        {"spec", a.spec_text},
                        {"spec_override", a.spec_override},
                        {"seconds", a.seconds},
                        {"program", a.program.string()},
                        {"draft_program", a.draft ? a.draft->program.string() : ""},
                        {"failure_class", d.failure_class},
                        {"error_type", d.error_type},
                        {"message", d.message},
                        {"user_frame", frame_json(d.user_frame)},
                        {"violations", violations},
                        {"suggested_fixes", d.suggested_fixes},
                        {"fixed_spec", fixed_spec(a, d)},
                        {"guards", guards},
                        {"symbols", symbols},
                        {"specializations", specs},
                        {"data_dependent", dd},
                        {"fake_kernels", kernels},
                        {"other_events", d.other_events},
                        {"notes", d.notes}});
  }
  json out = {{"capture", capture.dir.string()},
              {"script", capture.script},
              {"torch_version", capture.torch_version},
              {"capture_version", capture.capture_version},
              {"exit_code", capture.exit_code ? json(*capture.exit_code) : json(nullptr)},
              {"attempts", attempts}};
  return out.dump(2) + "\n";
}

}  // namespace exportlens::capture
