// .pt2 files from older torch releases (tests/fixtures/old_torch/<release>/,
// written by tests/oracle/old_torch/make_old_torch_fixtures.sh with torch
// 2.5 ... 2.12 on the seeds' models): every one opens, prints as that
// release printed it (ir/release_print.h: the older printers' layout),
// runs to that release's outputs, and saves as a 2.13 file.
#include "support/torch_values.h"

#include "engine/ir/printer.h"
#include "engine/ir/release_print.h"
#include "engine/runtime/interpreter.h"
#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/pt2_writer.h"
#include "engine/trace/gallery/gallery_models.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "support/known_differences.h"
#include "support/unit/files.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::testing;
using namespace exportlens::unit;

namespace {

std::string old_torch_dir() { return EXPORTLENS_SOURCE_DIR "/tests/fixtures/old_torch"; }

struct OldFixture {
  std::string release, name, torch_version;
  std::string file(const std::string& f) const { return old_torch_dir() + "/" + release + "/" + name + "/" + f; }
};

// Read once: every data row looks its fixture up here.
const std::vector<OldFixture>& old_fixtures() {
  static const std::vector<OldFixture> all = [] {
    std::vector<OldFixture> out;
    for (const std::string& release : subfolders(old_torch_dir())) {
      const auto manifest = read_json(old_torch_dir() + "/" + release + "/manifest.json");
      for (const auto& f : manifest.value("fixtures", nlohmann::json::array()))
        if (f.value("status", "") == "ok")
          out.push_back({release, f.value("name", ""), manifest.value("torch_version", "")});
    }
    return out;
  }();
  return all;
}

// A data row: "<release>/<name>" and its fixture.
struct Row {
  std::string name;
  OldFixture fixture;
};

std::vector<Row> rows() {
  std::vector<Row> out;
  for (const auto& f : old_fixtures()) out.push_back({f.release + "/" + f.name, f});
  return out;
}

// What the QtTest suite's initTestCase checked before any test: the gallery's
// port of the seeds' custom op registers my_custom_library::custom_op with the
// dispatcher (as Python's torch.library does), so the custom_op programs run here too.
void gallery_is_linked() {
  static const bool linked = !trace::gallery_models().empty();
  VERIFY(linked);
}

// The program, or why it does not open.
std::optional<ir::ExportedProgram> read_old(const OldFixture& f, std::string* why) {
  try {
    return serde::read_pt2(f.file("program.pt2"), "", runtime::pt2_read_options());
  } catch (const std::exception& e) {
    *why = e.what();
    return std::nullopt;
  }
}

// A row's fixture and its program as ExportLens reads it (none, and why, when
// it does not open).
struct OpenedRow {
  OldFixture fixture;
  std::optional<ir::ExportedProgram> program;
  std::string why;
};

OpenedRow open_row(const Row& r) {
  OpenedRow row{r.fixture, std::nullopt, {}};
  row.program = read_old(row.fixture, &row.why);
  return row;
}

// The first line of `text`.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

EL_TEST(every_release_from_2_5_to_2_12_is_there) {
  gallery_is_linked();
  const std::vector<std::string> releases = subfolders(old_torch_dir());
  for (const char* r : {"2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "2.12"})
    VERIFY_MSG(std::find(releases.begin(), releases.end(), r) != releases.end(),
               std::string("no fixtures of torch ") + r);
  VERIFY(old_fixtures().size() >= 8 * 20);
}

EL_TEST(opens) {
  gallery_is_linked();
  for_each_row(rows(), [](const Row& row) {
    const auto& f = row.fixture;
    try {
      const auto ep = serde::read_pt2(f.file("program.pt2"), "", runtime::pt2_read_options());
      const auto meta = read_json(f.file("meta.json"));
      COMPARE(ep.schema_major, meta.at("schema_version").at(0).get<int>());
      COMPARE(ep.schema_minor, meta.at("schema_version").at(1).get<int>());
    } catch (const std::exception& e) {
      FAIL(e.what());
    }
  });
}

EL_TEST(prints_as_that_release_printed) {
  gallery_is_linked();
  for_each_row(rows(), [](const Row& r) {
    const auto row = open_row(r);
    VERIFY_MSG(row.program, row.why);
    const auto& f = row.fixture;
    const auto& ep = *row.program;
    COMPARE(ir::print_program_as_release(ep, ir::torch_release_of(ep.torch_version)), read_text(f.file("print.txt")));
  });
}

EL_TEST(runs_to_that_releases_outputs) {
  gallery_is_linked();
  for_each_row(rows(), [](const Row& r) {
    const auto row = open_row(r);
    VERIFY_MSG(row.program, row.why);
    const auto& f = row.fixture;
    const auto& ep = *row.program;
    std::vector<c10::IValue> got;
    std::string error;
    try {
      runtime::Interpreter interp(ep, c10::Device(c10::kCPU));
      got = interp.run(load_tuple(f.file("inputs.pt")));
    } catch (const std::exception& e) {
      error = first_line(e.what());
    }
    VERIFY_MSG(error.empty(), error);
    const auto want = load_tuple(f.file("outputs.pt"));
    COMPARE(int(got.size()), int(want.size()));
    for (size_t i = 0; i < want.size(); ++i) {
      const auto err = compare_values(got[i], want[i]);
      VERIFY_MSG(err.empty(), "output " + std::to_string(i) + ": " + err);
    }
  });
}

// Saved again by ExportLens, an old file becomes a 2.13 one that prints as 2.13 prints it.
EL_TEST(saves_as_a_2_13_file) {
  gallery_is_linked();
  const TempDir tmp;
  for_each_row(rows(), [&tmp](const Row& r) {
    const auto row = open_row(r);
    VERIFY_MSG(row.program, row.why);
    const auto& f = row.fixture;
    const auto& ep = *row.program;
    const std::string out = tmp.file(f.release + "_" + f.name + ".pt2");
    std::string error;
    try {
      serde::write_pt2(ep, out, runtime::pt2_write_options());
    } catch (const std::exception& e) {
      error = first_line(e.what());
    }
    VERIFY_MSG(error.empty(), error);
    const auto back = serde::read_pt2(out);
    COMPARE(back.schema_major, serde::kWrittenSchemaMajor);
    const std::string saved = ir::print_program(back);
    const std::string original = ir::print_program(ep);
    if (const KnownDifference* k = known_difference("old_torch", f.release + "/" + f.name, "saved print")) {
      VERIFY_MSG(saved != original, std::string("the known difference is gone: ") + k->reason);
      return;
    }
    COMPARE(saved, original);
  });
}
