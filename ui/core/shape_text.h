#pragma once
// Shapes as the tables write them: "[6, 4]", "[s77, 5]".
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace exportlens::ui {

QString shape_text(const std::vector<int64_t>& sizes);
QString shape_text(const std::vector<std::string>& sizes);

}  // namespace exportlens::ui
