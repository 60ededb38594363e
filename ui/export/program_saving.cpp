#include "ui/export/program_saving.h"

#include <QFile>

#include <filesystem>

#include "engine/runtime/pt2_torch_options.h"
#include "engine/serde/pt2_reader.h"
#include "engine/serde/pt2_writer.h"

namespace exportlens::ui {
namespace {

bool has_all_payloads(const ir::ExportedProgram& ep) {
  for (const auto* list : {&ep.state_dict, &ep.constants})
    for (const auto& [key, p] : *list)
      if (!p.bytes) return false;
  return true;
}

}  // namespace

void save_program(const ir::ExportedProgram& program, const QString& source_path, const QString& path) {
  const std::filesystem::path out(QFile::encodeName(path).toStdString());
  serde::WriteOptions options = runtime::pt2_write_options();
  if (has_all_payloads(program) || source_path.isEmpty() || !QFile::exists(source_path)) {
    serde::write_pt2(program, out, options);
    return;
  }
  // Weights and constants (and example inputs) the program was opened without, from its file, by key.
  const auto full = serde::read_pt2(std::filesystem::path(QFile::encodeName(source_path).toStdString()));
  options.missing_payloads = [&full](const std::string& key) -> const ir::TensorPayload* {
    if (const auto* p = full.find_state(key)) return p;
    return full.find_constant(key);
  };
  options.example_inputs = full.example_inputs;
  serde::write_pt2(program, out, options);
}

std::string program_as_json(const ir::ExportedProgram& program) { return serde::program_json(program, runtime::pt2_write_options()); }

}  // namespace exportlens::ui
