#pragma once
// Python's repr() of scalar literals, as torch's printers emit them: the
// printed program must match print(ep) byte for byte.
#include <cstdint>
#include <string>
#include <string_view>

namespace exportlens::ir {

/// repr(float): shortest text that reads back to the same double
/// ("0.1", "3.0", "1e-05", "1e+20", "inf", "-inf", "nan", "-0.0").
std::string py_repr_float(double value);

/// repr(str) of UTF-8 text: single quotes unless the text holds a single
/// quote and no double quote; escapes as Python 3 does.
std::string py_repr_string(std::string_view utf8);

/// repr(bool): "True" / "False".
inline std::string py_repr_bool(bool value) { return value ? "True" : "False"; }

}  // namespace exportlens::ir
