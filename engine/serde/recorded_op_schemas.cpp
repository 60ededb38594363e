#include "engine/serde/recorded_op_schemas.h"

#include <nlohmann/json.hpp>

#include "engine/ir/op_schema_text.h"
#include "engine/serde/json_cursor.h"
#include "engine/serde/json_document.h"
#include "engine/serde/pt2_reader.h"

namespace exportlens::serde {

void read_recorded_op_schemas(std::string_view json_text, const std::string& label, const ReadLimits& limits,
                              ir::ExportedProgram& ep) {
  const JsonDocument doc = JsonDocument::parse(json_text, label, limits);
  const JsonCursor root(doc, label);
  try {
    if (root.at("format").str() != "exportlens-op-schemas") root.at("format").fail("not an ExportLens schema list");
    if (root.at("version").integer() != 1)
      root.at("version").fail("version " + std::to_string(root.at("version").integer()) + " is not 1");
    for (const JsonCursor& entry : root.at("ops").elements()) {
      ir::RecordedOpSchema recorded{entry.at("schema").str(), {}};
      for (const JsonCursor& tag : entry.at("tags").elements()) recorded.tags.push_back(tag.str());
      auto parsed = ir::parse_op_schema(recorded.schema);
      if (!parsed) entry.at("schema").fail("'" + recorded.schema.substr(0, 120) + "' is not an operator schema");
      parsed->signature.tags = recorded.tags;
      ep.file_signatures[parsed->name] = std::move(parsed->signature);
      ep.recorded_op_schemas.push_back(std::move(recorded));
    }
  } catch (const SchemaError& e) {
    throw Pt2Error(e.what());
  }
}

std::string recorded_op_schemas_json(const ir::ExportedProgram& ep) {
  if (ep.recorded_op_schemas.empty()) return {};
  auto ops = nlohmann::json::array();
  for (const auto& r : ep.recorded_op_schemas) ops.push_back({{"schema", r.schema}, {"tags", r.tags}});
  return nlohmann::json{{"format", "exportlens-op-schemas"}, {"version", 1}, {"ops", std::move(ops)}}.dump();
}

}  // namespace exportlens::serde
