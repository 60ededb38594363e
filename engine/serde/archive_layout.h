#pragma once
// Where a .pt2 keeps its records (torch/export/pt2_archive): one top folder
// holding archive_format and models/<name>.json. The program reader and the
// archive's table of contents (engine/compiled) find them the same way.
#include <string>
#include <vector>

#include "engine/serde/zip_archive.h"

namespace exportlens::serde {

/// The top folder ("dm/") of the first archive_format entry one folder deep;
/// empty when there is none (torch <= 2.7's flat archive, or no .pt2 at all).
std::string archive_folder(const ZipArchive& zip);

/// The programs under `folder`: the <name> of each models/<name>.json, in
/// archive order (none named "").
std::vector<std::string> archive_programs(const ZipArchive& zip, const std::string& folder);

}  // namespace exportlens::serde
