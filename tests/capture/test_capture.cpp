// Captured Python exports against torch: the failing-export script corpus
// (scripts/) captured at build time with real torch 2.13 (make_capture_fixtures.py),
// older releases' captures (fixtures/old_torch_capture/), and plain TORCH_TRACE
// logs. What ExportLens says of each attempt is checked against what torch
// itself said: its message, its suggested fixes (re-run through torch with
// the fixes applied), its printed programs, the script's own lines.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

#include "engine/capture/attempt_diagnosis.h"
#include "engine/capture/attempt_program.h"
#include "engine/capture/capture_folder.h"
#include "engine/capture/capture_report.h"
#include "engine/capture/capture_runner.h"
#include "engine/capture/fx_code_reader.h"
#include "engine/capture/trace_log.h"
#include "engine/ir/printer.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/sources/program_source.h"
#include "support/exportlens_process.h"
#include "support/fixtures.h"

using namespace exportlens;
using namespace exportlens::testing;

namespace {

QString captures() { return QStringLiteral(EXPORTLENS_CAPTURE_FIXTURES); }
std::string capture_path(const QString& name) { return (captures() + "/" + name).toStdString(); }
capture::Capture read(const QString& name) { return capture::read_capture(capture_path(name)); }

QStringList capture_names() {
  QStringList names;
  for (const auto& v : read_json(captures() + "/index.json")["captures"].toArray()) names << v.toObject()["name"].toString();
  if (names.isEmpty()) qFatal("no capture fixtures at %s", qPrintable(captures()));
  return names;
}

// torch's own outcome of each export call, as the script printed it between markers.
struct TorchOutcome {
  QString type;     // "ok" or the exception's type name
  QString message;  // str(e)
};
QList<TorchOutcome> torch_outcomes(const QString& stdout_file) {
  const QString text = read_text(stdout_file);
  QList<TorchOutcome> out;
  static const QRegularExpression marker(QStringLiteral("^=== export (\\d+): (\\S+)$"), QRegularExpression::MultilineOption);
  for (auto it = marker.globalMatch(text); it.hasNext();) {
    const auto m = it.next();
    TorchOutcome o{m.captured(2), {}};
    if (o.type != "ok") {
      const qsizetype start = m.capturedEnd() + 1;
      o.message = text.mid(start, text.indexOf(QStringLiteral("\n=== end"), start) - start);
    }
    out << o;
  }
  return out;
}

// "Constraints violated (dx, dy)!" -> {dx, dy}.
std::set<std::string> violated_dims(const std::string& message) {
  std::set<std::string> dims;
  const size_t open = message.find("Constraints violated (");
  if (open == std::string::npos) return dims;
  const size_t close = message.find(")!", open);
  std::string list = message.substr(open + 22, close - open - 22);
  for (size_t start = 0; start <= list.size();) {
    const size_t comma = std::min(list.find(", ", start), list.size());
    dims.insert(list.substr(start, comma - start));
    start = comma + 2;
  }
  return dims;
}

QString script_line(const std::string& file, int line) {
  const QStringList lines = read_text(QString::fromStdString(file)).split('\n');
  return line >= 1 && line <= lines.size() ? lines[line - 1].trimmed() : QString();
}

sources::OpenRequest attempt_request(int index) {
  sources::OpenRequest r;
  r.read = runtime::pt2_read_options();
  r.read.load_weights = false;
  r.program = std::to_string(index);
  return r;
}

QString without_trailing_newlines(QString text) {
  while (text.endsWith('\n')) text.chop(1);
  return text;
}

ProcessResult capture_cli(const QStringList& args) { return run_exportlens(QStringList{"capture"} + args); }

}  // namespace

class TestCapture : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;

 private slots:
  // Every capture reads; its attempts are the script's export calls, with torch's outcome each.
  void attemptsAreTheScriptsExportCalls() {
    int checked = 0;
    for (const QString& name : capture_names()) {
      if (name.endsWith("_nodraft")) continue;
      const capture::Capture c = read(name);
      const QList<TorchOutcome> torch = torch_outcomes(captures() + "/" + name + ".stdout.txt");
      if (torch.isEmpty()) {
        // A script that does not catch its export's error: it ends by it, as without capture.
        QVERIFY2(c.exit_code && *c.exit_code == 1, qPrintable(name));
        QCOMPARE(int(c.attempts.size()), 1);
        QVERIFY(!c.attempts.front().ok);
        QCOMPARE(QString::fromStdString(c.exit_exception).section(':', 0, 0).section('.', -1),
                 QString::fromStdString(c.attempts.front().error->short_type));
        ++checked;
        continue;
      }
      QCOMPARE(int(c.attempts.size()), int(torch.size()));
      for (int i = 0; i < torch.size(); ++i) {
        const capture::Attempt& a = c.attempts[size_t(i)];
        QCOMPARE(a.index, i + 1);
        QCOMPARE(a.ok, torch[i].type == "ok");
        if (!a.ok) {
          QVERIFY(a.error);
          QCOMPARE(QString::fromStdString(a.error->short_type), torch[i].type);
          QCOMPARE(QString::fromStdString(a.error->message), torch[i].message);
        }
        // The call site is the script's line that calls export.
        QVERIFY2(script_line(a.call_site.file, a.call_site.line).contains("export("),
                 qPrintable(name + ": " + QString::fromStdString(a.call_site.location())));
        ++checked;
      }
    }
    QVERIFY(checked >= 12);
  }

  // print of each attempt's program equals torch's print(ep) of it: the exported
  // program of a success, the draft program of a failure.
  void printedProgramsAreTorchs() {
    int programs = 0;
    for (const QString& name : capture_names()) {
      const capture::Capture c = read(name);
      for (const capture::Attempt& a : c.attempts) {
        const std::filesystem::path text = !a.program_text.empty() ? a.program_text
                                           : a.draft                 ? a.draft->program_text
                                                                     : std::filesystem::path();
        if (text.empty() || !std::filesystem::exists(text)) continue;
        const ir::ExportedProgram ep = sources::open_program(capture_path(name), attempt_request(a.index));
        // (trailing newlines aside: the file holds str(ep) as the package wrote it)
        QCOMPARE(without_trailing_newlines(QString::fromStdString(ir::print_program(ep))),
                 without_trailing_newlines(read_text(QString::fromStdString(text.string()))));
        ++programs;
      }
    }
    QVERIFY2(programs >= 10, qPrintable(QString::number(programs)));
  }

  // A constraint violation: the violated entries are the Dims torch names, each
  // carries torch's fixes for it, every fix belongs to an entry, and the guard
  // behind an entry points at the script's own line.
  void violationsAreTorchs() {
    int entries = 0;
    for (const QString& name : capture_names()) {
      const capture::Capture c = read(name);
      for (const capture::Attempt& a : c.attempts) {
        if (a.ok || a.error->failure_class != "constraint_violation") continue;
        const capture::AttemptDiagnosis d = capture::diagnose(c, a);
        QCOMPARE(d.failure_class, std::string("constraint_violation"));
        QCOMPARE(d.suggested_fixes, a.error->suggested_fixes);
        std::set<std::string> dims, fixes;
        for (const capture::ViolatedEntry& v : d.violations) {
          dims.insert(v.dim);
          fixes.insert(v.fixes.begin(), v.fixes.end());
          QVERIFY2(!v.guards.empty(), qPrintable(name + ": " + QString::fromStdString(v.message)));
          const capture::GuardLine& g = d.guards[size_t(v.guards.front())];
          // The user's code: the script's, or a library's the script calls (transformers' model).
          QVERIFY(g.user_frame);
          QVERIFY(!QString::fromStdString(g.user_frame->file).contains("/torch/"));
          QCOMPARE(QString::fromStdString(g.user_frame->code), script_line(g.user_frame->file, g.user_frame->line));
          ++entries;
        }
        QCOMPARE(dims, violated_dims(a.error->message));
        QCOMPARE(fixes, std::set<std::string>(d.suggested_fixes.begin(), d.suggested_fixes.end()));
        // The line it arose from is a user line, not the export call.
        QVERIFY(d.user_frame && d.raised_at);
        QVERIFY(d.user_frame->line != a.call_site.line);
      }
    }
    QVERIFY(entries >= 3);
  }

  // torch's fixes applied to the captured spec make torch export the model:
  // the script runs again with that spec in place of the failing call's
  // (what the GUI's Re-run does), and that attempt succeeds.
  void fixedSpecExportsInTorch() {
    int reruns = 0;
    for (const QString& name : {QStringLiteral("cv_specialized"), QStringLiteral("cv_relation"), QStringLiteral("cv_range")}) {
      const capture::Capture c = read(name);
      const capture::Attempt& a = c.attempts.front();
      const std::string fixed = capture::fixed_spec(a, capture::diagnose(c, a));
      QVERIFY2(!fixed.empty(), qPrintable(name));
      const QString override_file = tmp_.filePath(name + ".spec.json");
      capture::write_spec_override(override_file.toStdString(), {{a.call_site, 1, fixed}});
      capture::CaptureRequest request;
      request.script = c.script;
      request.python = EXPORTLENS_PYTHON;
      request.output_dir = tmp_.filePath(name + "_rerun").toStdString();
      request.spec_override = override_file.toStdString();
      request.package_dir = EXPORTLENS_SOURCE_DIR "/resources/python";
      capture::run_capture(capture::capture_command(request), true);
      const capture::Capture rerun = capture::read_capture(request.output_dir);
      QCOMPARE(int(rerun.attempts.size()), int(c.attempts.size()));
      QVERIFY(rerun.attempts.front().spec_override);
      QVERIFY2(rerun.attempts.front().ok, qPrintable(name + ": torch refused the fixed spec\n" + QString::fromStdString(fixed)));
      ++reruns;
    }
    QCOMPARE(reruns, 3);
  }

  // Symbols stand for input dims and spec entries, as the script wrote the spec.
  void symbolsAreInputDimsAndSpecEntries() {
    const capture::Capture c = read("cv_relation");
    const capture::AttemptDiagnosis d = capture::diagnose(c, c.attempts.front());
    std::map<std::string, std::string> entry_of;
    for (const capture::SymbolBinding& s : d.symbols)
      if (s.input) entry_of[s.input->text()] = s.spec_entry;
    QCOMPARE(entry_of["x.shape[0]"], std::string("dx"));
    QCOMPARE(entry_of["y.shape[0]"], std::string("dy"));
    // The guard torch added, over the inputs.
    QCOMPARE(d.guards.size(), size_t(1));
    QCOMPARE(d.guards.front().over_inputs, std::string("Eq(x.shape[0], y.shape[0])"));
  }

  // A data-dependent error: the line that made the value, the line that needed it, torch's hints.
  void dataDependentOrigins() {
    for (const auto& [name, made] : {std::pair<QString, QString>{"dd_item", ".item()"}, {"dd_nonzero", "nonzero()"}}) {
      const capture::Capture c = read(name);
      const capture::Attempt& a = c.attempts.front();
      const capture::AttemptDiagnosis d = capture::diagnose(c, a);
      QCOMPARE(d.failure_class, std::string("data_dependent"));
      QVERIFY(!d.data_dependent.empty());
      const capture::DataDependentLine& x = d.data_dependent.front();
      QVERIFY2(x.origin, qPrintable(name));
      QVERIFY2(QString::fromStdString(x.origin->code).contains(made), qPrintable(QString::fromStdString(x.origin->code)));
      QCOMPARE(QString::fromStdString(x.origin->code), script_line(c.script, x.origin->line));
      QVERIFY(x.guard_frame);
      QCOMPARE(QString::fromStdString(x.guard_frame->file), QString::fromStdString(c.script));
      QVERIFY(QString::fromStdString(a.error->message).contains(QString::fromStdString(x.expr)));
      for (const std::string& h : x.hints) QVERIFY(a.error->message.find(h) != std::string::npos);
      // Where torch hints nothing, the tutorials' advice: a branch on data is torch.cond.
      QCOMPARE(x.advice.empty(), !x.hints.empty());
      if (name == "dd_item") QVERIFY(x.advice.find("torch.cond") != std::string::npos);
    }
  }

  // Without a draft, a failed trace leaves its partial graph: read back, it is
  // torch's text statement by statement, its nodes tied to the script's lines.
  void partialGraphReadsBack() {
    const capture::Capture c = read("dd_item_nodraft");
    const capture::Attempt& a = c.attempts.front();
    QVERIFY(!a.draft);
    const capture::AttemptDiagnosis d = capture::diagnose(c, a);
    std::string why;
    const auto p = capture::attempt_program(a, d, {}, &why);
    QVERIFY2(p, why.c_str());
    QCOMPARE(p->kind, capture::ProgramKind::PartialGraph);
    QVERIFY(p->notes.empty());
    // Each statement of torch's text is a node of that name and op, in order.
    const QString text = read_text(QString::fromStdString(a.partial_graph.string()));
    static const QRegularExpression statement(QStringLiteral("^\\s+(\\w+): \"[^\"]*\" = (torch\\.ops\\.[\\w.]+)\\("),
                                              QRegularExpression::MultilineOption);
    int n = 0;
    for (auto it = statement.globalMatch(text); it.hasNext(); ++n) {
      const auto m = it.next();
      const ir::Node* node = p->program.graph().find(m.captured(1).toStdString());
      QVERIFY2(node, qPrintable(m.captured(1)));
      QCOMPARE(QString::fromStdString(node->target.qualified()), m.captured(2));
      QVERIFY(node->meta.innermost_frame());
    }
    QVERIFY(n >= 2);
    // The guard behind the failure and the nodes of its line find each other.
    capture::AttemptDiagnosis linked = d;
    capture::link_graph(linked, p->program.graph());
    QVERIFY(!linked.data_dependent.empty());
  }

  // A plain TORCH_TRACE log (no capture around it): what it holds is read; a
  // strict export's failure is torch's message; a non-strict one's log has none.
  void plainTraceLogs() {
    const QString logs = captures() + "/logs";
    {
      const capture::TraceLog log = capture::read_trace_log((logs + "/cv_relation").toStdString());
      const capture::AttemptDiagnosis d = capture::diagnose(log);
      QVERIFY(d.message.empty());  // torch's non-strict log never holds the error
      QCOMPARE(d.guards.size(), size_t(1));
      QCOMPARE(d.guards.front().over_inputs, std::string("Eq(x.shape[0], y.shape[0])"));
      QVERIFY(d.guards.front().user_frame);
      QCOMPARE(QString::fromStdString(d.guards.front().user_frame->code),
               script_line(d.guards.front().user_frame->file, d.guards.front().user_frame->line));
    }
    {
      const capture::TraceLog log = capture::read_trace_log((logs + "/strict_unsupported").toStdString());
      const capture::AttemptDiagnosis d = capture::diagnose(log);
      const QList<TorchOutcome> torch = torch_outcomes(logs + "/strict_unsupported.stdout.txt");
      QVERIFY(!torch.isEmpty());
      QCOMPARE(QString::fromStdString(d.error_type), torch.front().type);
      QCOMPARE(QString::fromStdString(d.message), torch.front().message);
      QCOMPARE(d.failure_class, std::string("unsupported"));
      QVERIFY(d.user_frame);
    }
    {
      // The partial graph a non-strict data-dependent failure logs opens as a program.
      const auto r = run_exportlens({"info", logs + "/dd_item"});
      QCOMPARE(r.code, 0);
      QVERIFY(r.out.contains("make_fx_fail_partial"));
      const auto p = run_exportlens({"print", logs + "/dd_item"});
      QCOMPARE(p.code, 0);
      QVERIFY(p.out.contains("torch.ops.aten.item.default"));
    }
  }

  // Older torch releases' captures (made by tests/oracle/old_torch/make_old_capture_fixtures.sh).
  void olderReleases() {
    const QString root = EXPORTLENS_SOURCE_DIR "/tests/fixtures/old_torch_capture";
    QStringList releases = QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY(releases.size() >= 2);
    for (const QString& release : releases) {
      for (const QString& name : QDir(root + "/" + release).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const capture::Capture c = capture::read_capture((root + "/" + release + "/" + name).toStdString());
        QVERIFY(!c.attempts.empty());
        QVERIFY2(QString::fromStdString(c.torch_version).startsWith(release), qPrintable(release + "/" + name));
        for (const capture::Attempt& a : c.attempts) {
          const capture::AttemptDiagnosis d = capture::diagnose(c, a);
          if (a.ok) continue;
          if (a.error->failure_class == "constraint_violation") {
            std::set<std::string> dims;
            for (const auto& v : d.violations) dims.insert(v.dim);
            QCOMPARE(dims, violated_dims(a.error->message));
            QCOMPARE(d.suggested_fixes, a.error->suggested_fixes);
          }
          QVERIFY2(d.user_frame, qPrintable(release + "/" + name));
        }
      }
    }
  }

  // The command: exit codes, --report in check --report's form, --json for tools.
  void captureCommand() {
    const QString scripts = EXPORTLENS_SOURCE_DIR "/tests/capture/scripts";
    const QString out = tmp_.filePath("cli_relation");
    const auto r = capture_cli({"-o", out, "--python", EXPORTLENS_PYTHON, "--draft", "--report", "--", scripts + "/cv_relation.py"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.out.contains("1. constraint_violation: dy = L['y'].size()[0]"));
    QVERIFY(r.out.contains("Suggested fixes:\n  dy = dx"));
    QVERIFY(r.out.contains("The spec with the suggested fixes applied:"));
    QVERIFY(r.out.contains("=== export 1: UserError"));  // the script's own output, unchanged

    const auto j = capture_cli({"-o", tmp_.filePath("cli_ok"), "--python", EXPORTLENS_PYTHON, "--json", "--",
                                scripts + "/ok_simple.py"});
    QCOMPARE(j.code, 0);
    const QJsonObject doc = QJsonDocument::fromJson(j.out.toUtf8()).object();
    QCOMPARE(doc["attempts"].toArray().size(), 1);
    QVERIFY(doc["attempts"].toArray().first().toObject()["ok"].toBool());
    QVERIFY(j.err.contains("=== export 1: ok"));  // --json: the script's stdout went to stderr

    const auto bad = capture_cli({"--python", "/no/such/python", "--", scripts + "/ok_simple.py"});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains("/no/such/python"));
    QCOMPARE(capture_cli({}).code, 2);
    // info and --program on the capture made above.
    const auto info = run_exportlens({"info", out});
    QCOMPARE(info.code, 0);
    QVERIFY(info.out.contains("✗ 1  export  Relation"));
    const auto check = run_exportlens({"check", out, "--program", "1", "--spec",
                                       QString::fromStdString(read("cv_relation").attempts.front().spec_text)});
    QCOMPARE(check.code, 1);  // ExportLens re-solves the user's spec on the draft program: torch's violation
    QVERIFY(check.out.contains("dy = dx"));
    QCOMPARE(run_exportlens({"print", out, "--program", "7"}).code, 2);
  }

  // Captures and logs are untrusted: a folder naming files outside itself, bad
  // JSON, deep nesting, lying fields, logs of junk: one line each, never a crash.
  void hostileCaptures() {
    QDir dir(tmp_.path());
    auto write = [&](const QString& path, const QByteArray& bytes) {
      dir.mkpath(QFileInfo(tmp_.filePath(path)).path());
      QFile f(tmp_.filePath(path));
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(bytes);
    };
    const QByteArray head = "{\"format\": \"exportlens-capture\", \"format_version\": 1, ";
    write("h_escape/manifest.json", head + "\"attempts\": [{\"index\": 1, \"dir\": \"../../etc\"}]}");
    write("h_absolute/manifest.json", head + "\"attempts\": [{\"index\": 1, \"dir\": \"/etc\"}]}");
    write("h_type/manifest.json", head + "\"attempts\": [{\"index\": \"one\", \"dir\": \"a\"}]}");
    write("h_deep/manifest.json", head + "\"attempts\": " + QByteArray(100000, '[') + QByteArray(100000, ']') + "}");
    write("h_version/manifest.json", "{\"format\": \"exportlens-capture\", \"format_version\": 99}");
    write("h_truncated/manifest.json", head + "\"attempts\": [{\"ind");
    write("h_attempt/manifest.json", head + "\"attempts\": [{\"index\": 1, \"dir\": \"attempt_001\"}]}");
    write("h_attempt/attempt_001/attempt.json", "{\"index\": 1, \"program\": \"../../../../etc/passwd\"}");
    write("h_link/manifest.json", head + "\"attempts\": [{\"index\": 1, \"dir\": \"attempt_001\"}]}");
    QVERIFY(QFile::link("/etc", tmp_.filePath("h_link/attempt_001")));
    for (const QString& name : {"h_escape", "h_absolute", "h_type", "h_deep", "h_version", "h_truncated", "h_attempt", "h_link"}) {
      const auto r = run_exportlens({"info", tmp_.filePath(name)});
      QVERIFY2(r.code == 1, qPrintable(name + ": " + QString::number(r.code) + " " + r.err));
      QCOMPARE(r.err.count('\n'), 1);
      QVERIFY2(r.err.contains("manifest.json") || r.err.contains("attempt.json"), qPrintable(r.err));
      for (const char* library : {"json.exception", "std::", "c10::"}) QVERIFY(!r.err.contains(library));
    }
    // Logs: junk lines are skipped, deep JSON is refused line by line, undefined file ids are kept.
    write("h_log/dedicated_log_torch_trace_x.log",
          "V1203 10:00:00.000000 1 torch/x.py:1] {\"str\": [\"/t/torch/export/_trace.py\", 0]}\n"
          "\tpayload with no event\n"
          "V1203 10:00:00.000000 1 torch/x.py:1] {\"guard_added_fast\": {\"expr\": \"Eq(s0, 3)\", \"stack\": "
          "[{\"line\": 4, \"name\": \"f\", \"filename\": 7, \"loc\": \"y = x\"}]}}\n"
          "V1203 10:00:00.000000 1 torch/x.py:1] {\"create_symbol\": " + QByteArray(50000, '[') + "\n"
          "not a log line at all \xff\xfe\n"
          "V1203 10:00:00.000000 1 torch/x.py:1] {\"mystery_event\": {}}\n");
    const capture::TraceLog log = capture::read_trace_log(tmp_.filePath("h_log").toStdString());
    QCOMPARE(log.events.size(), size_t(2));
    QCOMPARE(log.skipped_lines, 3);
    const capture::AttemptDiagnosis d = capture::diagnose(log);
    QCOMPARE(d.guards.size(), size_t(1));
    // An id the log never defined is kept; such a frame cannot be told the user's.
    QCOMPARE(d.guards.front().stack.front().file, std::string("<file #7>"));
    QVERIFY(!d.guards.front().user_frame);
    QCOMPARE(d.other_events.at("mystery_event"), 1);
    const auto r = run_exportlens({"info", tmp_.filePath("h_log")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("other event mystery_event: 1"));
  }
};

QTEST_GUILESS_MAIN(TestCapture)
#include "test_capture.moc"
