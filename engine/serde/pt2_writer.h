#pragma once
// Writes an ExportedProgram as the .pt2 archive torch.export.save (torch
// 2.13, schema 8.20) writes, so torch.export.load reads it back: the program
// JSON (torch's serializer's choices: arguments under their schema names,
// multi-output calls named after their getitems, sym ops, cond/map branches
// nested), weights and constants raw (aliasing weights share a file), the
// example inputs as torch.save bytes. Any program ExportLens holds can be
// written: read from a file, traced from C++, lowered, re-traced.
//
// What cannot be written (an op whose schema neither this process nor the
// file knows, a weight read without its bytes, a torchbind object) raises
// Pt2WriteError naming the node or weight; nothing is left at the path.
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

#include "engine/base/error.h"
#include "engine/ir/exported_program.h"
#include "engine/ir/op_signature.h"

namespace exportlens::serde {

class Pt2WriteError : public Error {
 public:
  explicit Pt2WriteError(const std::string& message) : Error(ErrorKind::Unsupported, {}, message) {}
};

struct WriteOptions {
  /// Op schemas (argument names, returns) by dispatcher name: the runtime's
  /// runtime::dispatcher_signatures(). Ops it does not know fall back to what
  /// the program's file said (ExportedProgram::file_signatures).
  ir::OpSignatureLookup signatures;
  /// Written as the archive's torch_version; empty: the LibTorch ExportLens
  /// was built against (the schema written is that release's).
  std::string torch_version;
  /// Where a weight or constant the program holds without bytes (opened
  /// lazily) gets them: by state-dict or constant key; nullptr: not known.
  std::function<const ir::TensorPayload*(const std::string& key)> missing_payloads;
  /// Example inputs to write when the program has none (torch.save bytes).
  std::shared_ptr<const std::vector<std::byte>> example_inputs;
};

/// The schema version written (torch 2.13's SCHEMA_VERSION).
inline constexpr int kWrittenSchemaMajor = 8;
inline constexpr int kWrittenSchemaMinor = 20;

/// models/<name>.json: the program as torch's ExportedProgramSerializer writes it.
std::string program_json(const ir::ExportedProgram& ep, const WriteOptions& options = {});

/// Writes the whole archive to `path` (replacing it only once complete).
void write_pt2(const ir::ExportedProgram& ep, const std::filesystem::path& path, const WriteOptions& options = {});

}  // namespace exportlens::serde
