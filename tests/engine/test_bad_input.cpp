// Bad input gets one clear error naming what and where — never a crash. The
// malformed archives are made from a real torch.export archive by
// make_bad_archives.py (one defect each).
#include <cstdio>
#include <memory>

#include "engine/runtime/program_runner.h"
#include "engine/serde/pt2_reader.h"
#include "support/unit/files.h"
#include "support/unit/fixtures.h"
#include "support/unit/process.h"
#include "support/unit/strings.h"
#include "support/unit/unit.h"

using namespace exportlens;
using namespace exportlens::unit;

namespace {

/// The folder make_bad_archives.py wrote the malformed files into, made once;
/// a failed run fails every test that needs it.
const TempDir& bad_archives() {
  static SetUp<TempDir> once;
  return once.get([](TempDir& dir) {
    const ProcessResult p =
        run_process(EXPORTLENS_PYTHON, {EXPORTLENS_SOURCE_DIR "/tests/engine/make_bad_archives.py",
                                        fixture_file("book_mlp", "program.pt2"), dir.path()});
    std::fputs(p.out.c_str(), stdout);  // the script's own output, as it would show
    std::fputs(p.err.c_str(), stderr);
    COMPARE(p.code, 0);
  });
}

std::string bad(const std::string& file) { return bad_archives().file(file); }

// Running book_mlp on these inputs must fail before any op runs, saying `fragment`.
void expect_run_error(const std::string& inputs, const std::string& fragment) {
  const auto ep = serde::read_pt2(fixture_file("book_mlp", "program.pt2"));
  runtime::RunRequest req;
  req.inputs_file = bad(inputs);
  try {
    runtime::run_program(ep, req);
    FAIL("ran with " + inputs);
  } catch (const std::runtime_error& e) {
    VERIFY_MSG(contains(e.what(), fragment), e.what());
  }
}

// Reading must throw Pt2Error whose message contains every fragment.
void expect_read_error(const std::string& file, const std::vector<std::string>& fragments) {
  const std::string path = bad(file);
  try {
    serde::read_pt2(path);
    FAIL(file + " was read without an error");
  } catch (const serde::Pt2Error& e) {
    const std::string msg = e.what();
    VERIFY_MSG(contains(msg, file), "error does not name the file: " + msg);
    for (const auto& f : fragments) VERIFY_MSG(contains(msg, f), "'" + f + "' missing in: " + msg);
  }
}

}  // namespace

EL_TEST(truncated_zip) { expect_read_error("truncated.pt2", {"truncated"}); }
EL_TEST(empty_file) { expect_read_error("empty.pt2", {"not a zip archive"}); }
EL_TEST(not_a_zip) { expect_read_error("not_a_zip.pt2", {"not a zip archive"}); }
EL_TEST(corrupt_weight_crc) { expect_read_error("corrupt_crc.pt2", {"CRC mismatch", "weight_"}); }
EL_TEST(invalid_json) { expect_read_error("bad_json.pt2", {"invalid JSON", "models/model.json"}); }
EL_TEST(unknown_schema_version) { expect_read_error("unknown_schema.pt2", {"unsupported schema version 99"}); }
EL_TEST(missing_weights) { expect_read_error("missing_weights.pt2", {"fc1.weight", "missing"}); }
EL_TEST(dangling_node_reference) {
  expect_read_error("dangling_ref.pt2", {"no_such_value", "graph.nodes[0].inputs[0]"});
}
EL_TEST(unknown_dtype) { expect_read_error("bad_dtype.pt2", {"unknown dtype code 999"}); }
EL_TEST(missing_file) {
  try {
    serde::read_pt2("/nonexistent/x.pt2");
    FAIL("read a file that does not exist");
  } catch (const serde::Pt2Error& e) {
    VERIFY(contains(e.what(), "no such file"));
  }
}

EL_TEST(mismatched_input_shapes) {
  expect_run_error("wrong_shape_inputs.pt", "Guard failed: x.size()[0] == 2 (got 3)");
}
EL_TEST(mismatched_input_dtype) {
  expect_run_error("wrong_dtype_inputs.pt", "expected dtype torch.float32, got torch.float64");
}
EL_TEST(garbage_inputs_file) { expect_run_error("not_inputs.pt", "not a torch.save file"); }
