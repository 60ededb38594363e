// Weights read on demand (ReadOptions::load_weights = false): opening reads
// the program and the weights' index only; a payload's bytes are read when
// asked for (a run), equal those an eager read gets, and are counted; a run
// of a lazily opened program gives what a run of the eagerly read one gives
// (test_runtime checks that against torch); the stored sizes still let the
// verifier refuse a weight whose view runs past its bytes, and an entry that
// would inflate past the limits is refused at open as when read.
#include <filesystem>

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

ir::ExportedProgram read(const std::string& path, bool load_weights) {
  serde::ReadOptions options;
  options.load_weights = load_weights;
  return serde::read_pt2(path, "", options);
}

std::string program_file(const std::string& fixture) { return fixture_file(fixture, "program.pt2"); }

uint64_t bytes_read(const ir::ExportedProgram& ep) {
  for (const auto* list : {&ep.state_dict, &ep.constants})
    for (const auto& [key, p] : *list)
      if (p.source) return p.source->bytes_read();
  return 0;
}

runtime::RunReport run(const ir::ExportedProgram& ep, const std::string& fixture) {
  runtime::RunRequest request;
  request.inputs_file = fixture_file(fixture, "inputs.pt");
  return runtime::run_program(ep, request);
}

}  // namespace

EL_TEST(weights_are_read_only_when_asked_for) {
  int with_weights = 0;
  for (const std::string& name : fixtures_with_status("ok")) {
    const ir::ExportedProgram lazy = read(program_file(name), false);
    const ir::ExportedProgram eager = read(program_file(name), true);
    COMPARE(lazy.state_dict.size(), eager.state_dict.size());
    COMPARE(lazy.constants.size(), eager.constants.size());
    if (!lazy.state_dict.empty()) ++with_weights;
    uint64_t stored = 0;
    for (auto [list, eager_list] : {std::pair{&lazy.state_dict, &eager.state_dict}, std::pair{&lazy.constants, &eager.constants}}) {
      for (size_t i = 0; i < list->size(); ++i) {
        const auto& [key, p] = (*list)[i];
        const auto& [eager_key, e] = (*eager_list)[i];
        COMPARE(key, eager_key);
        VERIFY_MSG(!p.bytes && p.source, name + ": " + key);
        VERIFY(e.bytes && !e.source);
        COMPARE(p.stored_size, uint64_t(e.bytes->size()));
        COMPARE(e.stored_size, uint64_t(e.bytes->size()));
        stored += p.stored_size;
      }
    }
    COMPARE(bytes_read(lazy), uint64_t(0));
    // Asking for the bytes reads them now: the same bytes, counted.
    uint64_t asked = 0;
    for (auto [list, eager_list] : {std::pair{&lazy.state_dict, &eager.state_dict}, std::pair{&lazy.constants, &eager.constants}}) {
      for (size_t i = 0; i < list->size(); ++i) {
        const auto bytes = (*list)[i].second.data();
        VERIFY(bytes);
        VERIFY(*bytes == *(*eager_list)[i].second.data());
        asked += bytes->size();
      }
    }
    COMPARE(asked, stored);
    if (stored) COMPARE(bytes_read(lazy), stored);
  }
  VERIFY(with_weights >= 5);
}

EL_TEST(a_lazy_program_runs_as_an_eager_one) {
  for (const char* fixture : {"book_mlp", "small_cnn", "transformer_block"}) {
    const ir::ExportedProgram lazy = read(program_file(fixture), false);
    const ir::ExportedProgram eager = read(program_file(fixture), true);
    const runtime::RunReport a = run(lazy, fixture), b = run(eager, fixture);
    VERIFY(bytes_read(lazy) > 0);
    COMPARE(a.outputs.size(), b.outputs.size());
    for (size_t i = 0; i < a.outputs.size(); ++i) {
      COMPARE(a.outputs[i].shape, b.outputs[i].shape);
      COMPARE(a.outputs[i].min, b.outputs[i].min);
      COMPARE(a.outputs[i].max, b.outputs[i].max);
      COMPARE(a.outputs[i].mean, b.outputs[i].mean);
    }
  }
}

EL_TEST(the_open_archive_outlives_its_file) {
  // The archive stays open: replacing or deleting the file after opening
  // does not change what the program's weights read.
  const TempDir dir;
  const std::string copy = dir.file("exportlens_lazy.pt2");
  std::error_code ec;
  VERIFY(std::filesystem::copy_file(fixture_file("book_mlp", "program.pt2"), copy, ec));
  const ir::ExportedProgram lazy = read(copy, false);
  VERIFY(std::filesystem::remove(copy, ec));
  const ir::ExportedProgram eager = read(program_file("book_mlp"), true);
  const runtime::RunReport a = run(lazy, "book_mlp"), b = run(eager, "book_mlp");
  COMPARE(a.outputs.front().mean, b.outputs.front().mean);
}

EL_TEST(stored_sizes_are_verified_without_reading) {
  // A weight whose view needs more bytes than its entry stores is refused
  // at open, as when the bytes are read.
  const TempDir dir;
  const std::string script = (
      "import sys, zipfile, json\n"
      "src, dst = sys.argv[1], sys.argv[2]\n"
      "with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w') as zout:\n"
      "    for info in zin.infolist():\n"
      "        data = zin.read(info)\n"
      "        if info.filename.endswith('_weights_config.json'):\n"
      "            doc = json.loads(data)\n"
      "            meta = doc['config']['fc1.weight']['tensor_meta']\n"
      "            meta['sizes'][0] = {'as_int': 50}\n"
      "            data = json.dumps(doc).encode()\n"
      "        zout.writestr(info, data)\n"
      "# a zip bomb: the first weight's entry, 64 MiB of zeros deflated\n"
      "with zipfile.ZipFile(src) as zin, zipfile.ZipFile(sys.argv[3], 'w') as zout:\n"
      "    for info in zin.infolist():\n"
      "        data = zin.read(info)\n"
      "        if info.filename.endswith('data/weights/weight_0'):\n"
      "            info.compress_type = zipfile.ZIP_DEFLATED\n"
      "            data = bytes(64 << 20)\n"
      "        zout.writestr(info, data)\n");
  const std::string bad = dir.file("wide_weight.pt2");
  const std::string bomb = dir.file("bomb.pt2");
  // One that does not finish in 60 s fails the test.
  const ProcessResult python = run_python(script, {fixture_file("book_mlp", "program.pt2"), bad, bomb}, 60);
  COMPARE(python.code, 0);
  for (bool load : {false, true}) {
    try {
      read(bad, load);
      FAIL("a weight wider than its bytes was accepted");
    } catch (const serde::Pt2Error& e) {
      VERIFY_MSG(contains(e.what(), "weight 'fc1.weight': its view needs"), e.what());
    }
    // A weight whose entry inflates too far is refused at open, read or not, with the same words.
    try {
      read(bomb, load);
      FAIL("a zip bomb was accepted");
    } catch (const serde::Pt2Error& e) {
      VERIFY_MSG(contains(e.what(), "weight_0") && contains(e.what(), "ratio"), e.what());
    }
  }
}
