#include "engine/compiled/compiled_model.h"

namespace exportlens::compiled {

const SourceFile* CompiledModel::wrapper() const {
  for (const SourceFile& f : files)
    if (f.role == "wrapper") return &f;
  return nullptr;
}

std::vector<const SourceFile*> CompiledModel::libraries() const {
  std::vector<const SourceFile*> out;
  for (const SourceFile& f : files)
    if (f.role == "library") out.push_back(&f);
  return out;
}

}  // namespace exportlens::compiled
