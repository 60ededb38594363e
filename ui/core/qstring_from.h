#pragma once

#include <QString>

#include <string>
#include <string_view>

namespace exportlens::ui {

// The engine speaks UTF-8 std::string; Qt widgets want QString.
inline QString qs(const std::string& s) { return QString::fromStdString(s); }
inline QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace exportlens::ui
