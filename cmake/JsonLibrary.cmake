# nlohmann_json: the installed package, or its headers from a folder
# (EXPORTLENS_JSON_INCLUDE_DIR, holding nlohmann/json.hpp) on a machine
# without it, such as the GPU machine of tests/device/gpu_check.sh.
set(EXPORTLENS_JSON_INCLUDE_DIR "" CACHE PATH "folder with nlohmann/json.hpp, when the package is not installed")
if(EXPORTLENS_JSON_INCLUDE_DIR)
  if(NOT EXISTS "${EXPORTLENS_JSON_INCLUDE_DIR}/nlohmann/json.hpp")
    message(FATAL_ERROR "EXPORTLENS_JSON_INCLUDE_DIR=${EXPORTLENS_JSON_INCLUDE_DIR} has no nlohmann/json.hpp")
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json INTERFACE "${EXPORTLENS_JSON_INCLUDE_DIR}")
else()
  find_package(nlohmann_json 3.10 REQUIRED)
endif()
