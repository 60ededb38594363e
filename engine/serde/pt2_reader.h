#pragma once
// Reads a .pt2 archive written by torch.export.save (torch 2.x) into the IR.
// Bad input (not a zip, truncated, bad JSON, unknown schema version, missing
// weights, dangling references) raises serde::Pt2Error naming the file and
// the place in it; nothing is half-loaded.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/base/error.h"
#include "engine/ir/exported_program.h"
#include "engine/ir/op_signature.h"
#include "engine/serde/read_limits.h"

namespace exportlens::serde {

class Pt2Error : public Error {
 public:
  explicit Pt2Error(const std::string& message) : Error(ErrorKind::Input, {}, message) {}
};

/// The newest schema major version this reader understands.
inline constexpr int kMaxSchemaMajor = 8;

struct Pt2Contents {
  std::vector<std::string> model_names;  // "model", ...
};

struct ReadOptions {
  ReadLimits limits;
  /// false: weights and constants are listed and their entries checked, but
  /// not read (TensorPayload::bytes stays null): each payload's `source`
  /// reads its entry when a run, a value preview or a save asks for it
  /// (TensorPayload::data()), from the archive kept open. Opening then costs
  /// the program's size, not its weights'.
  bool load_weights = true;
  /// Op schemas (runtime::pt2_read_options() gives the dispatcher's): a file
  /// that does not say how each argument was passed (torch <= 2.6) binds
  /// them as torch's deserializer does, by the schema's defaults. Without it
  /// such arguments are read as positional.
  ir::OpSignatureLookup signatures;
};

/// Lists the programs inside an archive.
Pt2Contents list_pt2(const std::filesystem::path& path);

/// Reads one program ("model" by default, or the only one) and verifies it.
ir::ExportedProgram read_pt2(const std::filesystem::path& path, const std::string& model_name = "",
                             const ReadOptions& options = {});

/// Parses the program JSON (models/<name>.json) alone; weights are left empty.
/// `schemas` as ReadOptions::signatures.
ir::ExportedProgram parse_program_json(const std::string& json_text, const std::string& label,
                                       const ReadLimits& limits = {}, const ir::OpSignatureLookup& schemas = {});

}  // namespace exportlens::serde
