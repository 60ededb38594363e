#pragma once
// The schemas of Python-registered ops, recorded beside a program by
// ExportLens' Python helpers (exportlens_capture.save, and every program
// `exportlens capture` keeps): the archive entry extra/exportlens_op_schemas.json,
// which torch.export.save writes as one of its extra_files and
// torch.export.load ignores. A .pt2 names the ops its nodes call but says
// nothing of their schemas, and LibTorch does not have an op defined with
// torch.library.custom_op: without the recorded schema ExportLens cannot
// tell that such an op writes an argument.
//
//   {"format": "exportlens-op-schemas", "version": 1,
//    "ops": [{"schema": "mylib::scale_(Tensor(a0!) state, float factor) -> ()", "tags": []}, ...]}
#include <string>
#include <string_view>
#include <vector>

#include "engine/ir/exported_program.h"
#include "engine/serde/read_limits.h"

namespace exportlens::serde {

/// The entry's name under the archive's extra/ folder.
inline constexpr std::string_view kOpSchemasEntry = "exportlens_op_schemas.json";

/// Reads the entry's JSON into ep.recorded_op_schemas and their signatures
/// into ep.file_signatures (a recorded schema is complete: it replaces what
/// the nodes said). Throws Pt2Error naming `label` for anything else.
void read_recorded_op_schemas(std::string_view json_text, const std::string& label, const ReadLimits& limits,
                              ir::ExportedProgram& ep);

/// The entry's JSON for ep.recorded_op_schemas (empty when there are none).
std::string recorded_op_schemas_json(const ir::ExportedProgram& ep);

}  // namespace exportlens::serde
