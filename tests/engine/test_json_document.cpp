// The reader's JSON parser (serde/json_document.h) against Python's json
// module: every program JSON and weights config of the oracle fixtures, and a
// set of texts at the edges of the grammar (escapes, surrogate pairs, UTF-8,
// number forms and ranges, whitespace, malformed documents), must parse to the
// same document Python reads, or be refused where Python refuses them. Errors
// name the byte; cursors name the path; nesting is bounded.
#include <cstdio>
#include <memory>
#include <string_view>

#include "engine/serde/json_cursor.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/zip_archive.h"
#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/process.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::serde;
using namespace exportlens::unit;

namespace {

std::string hex(std::string_view s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) out += {digits[c >> 4], digits[c & 15]};
  return out;
}

// The canonical form json_oracle.py writes.
void canon(const JsonCursor& c, std::string& out) {
  char number[64];
  switch (c.type()) {
    case JsonType::Null: out += "null"; return;
    case JsonType::True: out += "true"; return;
    case JsonType::False: out += "false"; return;
    case JsonType::Integer: out += std::to_string(c.integer()); return;
    case JsonType::Real:
      std::snprintf(number, sizeof number, "R%.17g", c.number());
      out += number;
      return;
    case JsonType::String: out += '"' + hex(c.view()) + '"'; return;
    case JsonType::Array: {
      out += '[';
      bool first = true;
      for (const JsonCursor& e : c.elements()) {
        if (!first) out += ',';
        first = false;
        canon(e, out);
      }
      out += ']';
      return;
    }
    case JsonType::Object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : c.members()) {
        if (!first) out += ',';
        first = false;
        out += '"' + hex(key) + "\":";
        canon(value, out);
      }
      out += '}';
      return;
    }
  }
}

std::string parse_canon(const std::string& text) {
  try {
    const auto doc = JsonDocument::parse(text, "doc", ReadLimits{});
    const std::string label = "doc";
    std::string out;
    canon(JsonCursor(doc, label), out);
    return out;
  } catch (const Pt2Error& e) {
    if (!std::string_view(e.what()).starts_with("doc: invalid JSON at byte ")) return std::string("BAD MESSAGE ") + e.what();
    return "ERROR";
  }
}

// Texts at the grammar's edges; each is judged by Python.
const std::vector<std::string>& edge_cases() {
  static const std::vector<std::string> cases = {
      R"({"a": [1, 2.5, -0, 0.0, 1e3, 1E+3, -1.5e-3, true, false, null], "b": {"c": []}, "d": {}})",
      R"("\u00e9\u4e2d\ud83d\ude00 \"\\\/\b\f\n\r\t")", "\"\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\"",
      "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
      "123456789012345678901234567890", "1e400", "-1e400", "1e-400", "0.1", "5e-324", "1.7976931348623157e308",
      "[NaN, Infinity, -Infinity]", " \t\r\n[ ]\n ", "{\"\":\"\"}", "[[[[[]]]]]", R"({"a":1,"a":2})",
      "[1,]", R"({"a":1,})", R"({"a" 1})", "{1:2}", "01", "-01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10",
      "\"ab", "\"a\nb\"", R"("\x41")", R"("\u12")", R"("\u12G4")", "[1] x", "[1]]", "", "   ", "nul", "True",
      "\"\xff\"", "\"\xc0\xaf\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xe2\x82\"", "[\"a\" \"b\"]",
      "{\"a\":[1,2}", "[", "{", "[1,2", R"({"a":)", "\"\\", "nan", "infinity", "-Infinityx",
  };
  return cases;
}

/// A text the oracle judged: its case name, and the text.
struct Text {
  std::string name, text;
};

/// The texts in a folder, each as <name>.json with json_oracle.py's verdict beside it as <name>.expected.
struct Judged {
  std::unique_ptr<TempDir> dir;
  std::vector<Text> texts;

  void add(const std::string& name, std::string text) {
    write_text(dir->file(name + ".json"), text);
    texts.push_back({name, std::move(text)});
  }
};

Judged judge() {
  Judged j;
  j.dir = std::make_unique<TempDir>();
  for (size_t i = 0; i < edge_cases().size(); ++i) j.add("edge_" + std::to_string(i), edge_cases()[i]);
  // Every JSON entry torch wrote into the fixtures' archives.
  int archives = 0;
  for (const auto& name : fixtures_with_status("ok")) {
    ZipArchive zip(fixture_file(name, "program.pt2"));
    for (const auto& e : zip.entries())
      if (e.name.ends_with(".json")) j.add(name + "_" + std::to_string(j.texts.size()), zip.read_text(e.name));
    ++archives;
  }
  VERIFY(archives >= 20);
  const ProcessResult p =
      run_process(EXPORTLENS_PYTHON, {EXPORTLENS_SOURCE_DIR "/tests/engine/json_oracle.py", j.dir->path()});
  std::fputs(p.out.c_str(), stdout);  // the oracle's own output, as it would show
  std::fputs(p.err.c_str(), stderr);
  COMPARE(p.code, 0);
  return j;
}

/// The texts and the oracle's verdicts, made once; a failure fails every test that needs them.
const Judged& judged() {
  static SetUp<Judged> once;
  return once.get(judge);
}

}  // namespace

// Same values, same order, same strings byte for byte; refused where Python refuses.
EL_TEST(documents_equal_pythons) {
  const Judged& j = judged();
  for_each_row(j.texts, [&](const Text& t) {
    const std::string expected = read_text(j.dir->file(t.name + ".expected"));
    COMPARE(parse_canon(t.text), expected);
  });
}

// Python decodes a lone surrogate escape into a string that is not UTF-8;
// the reader refuses it (RFC 8259 leaves it undefined), as nlohmann did.
EL_TEST(lone_surrogates_are_refused) {
  for (const char* text : {R"("\ud800")", R"("\udc00")", R"("\ud800\u0041")"}) COMPARE(parse_canon(text), std::string("ERROR"));
}

EL_TEST(errors_name_the_byte) {
  try {
    JsonDocument::parse("{\"a\": [1, 2,, 3]}", "f.pt2: models/model.json", ReadLimits{});
    FAIL("no error");
  } catch (const Pt2Error& e) {
    COMPARE(std::string(e.what()), std::string("f.pt2: models/model.json: invalid JSON at byte 12: expected a value, found ','"));
  }
}

// A cursor's error names the path from the root, built when it is raised.
EL_TEST(cursors_name_the_path) {
  const std::string text = R"({"graph": {"nodes": [{"a": 1}, {"a": 2}, {"inputs": [0, {"arg": "x"}]}]}})";
  const auto doc = JsonDocument::parse(text, "doc", ReadLimits{});
  const std::string label = "models/model.json";
  const JsonCursor root(doc, label);
  int seen = 0;
  for (const JsonCursor& node : root.at("graph").at("nodes").elements()) {
    ++seen;
    if (!node.has("inputs")) continue;
    try {
      node.at("inputs").at(1).at("arg").integer();
      FAIL("no error");
    } catch (const SchemaError& e) {
      COMPARE(std::string(e.what()), std::string("models/model.json.graph.nodes[2].inputs[1].arg: expected an integer"));
    }
  }
  COMPARE(seen, 3);
  VERIFY(!root.has("missing"));
  try {
    root.at("graph").at("missing");
    FAIL("no error");
  } catch (const SchemaError& e) {
    COMPARE(std::string(e.what()), std::string("models/model.json.graph: missing field 'missing'"));
  }
}

// Nesting is bounded while parsing: the limit itself is accepted, one more
// level is refused naming the whole depth, however deep it goes.
EL_TEST(nesting_is_bounded) {
  ReadLimits limits;
  limits.max_nesting = 256;
  const std::string at_limit = std::string(256, '[') + std::string(256, ']');
  COMPARE(parse_canon(at_limit).size(), size_t(512));
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  try {
    JsonDocument::parse(deep, "deep.json", limits);
    FAIL("no error");
  } catch (const Pt2Error& e) {
    VERIFY_MSG(std::string_view(e.what()).starts_with("deep.json: JSON nested 100000 levels deep, over the limit of 256"), e.what());
  }
}

EL_TEST(integers_beyond_int64_are_named) {
  const auto doc = JsonDocument::parse("[9223372036854775808]", "doc", ReadLimits{});
  const std::string label = "doc";
  try {
    JsonCursor(doc, label).at(0).integer();
    FAIL("no error");
  } catch (const SchemaError& e) {
    COMPARE(std::string(e.what()), std::string("doc[0]: integer out of the int64 range"));
  }
}
