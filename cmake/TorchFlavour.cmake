# find_package(Torch) for either LibTorch flavour of the torch wheel in
# EXPORTLENS_VENV (or any prefix in CMAKE_PREFIX_PATH / Torch_DIR), and
# EXPORTLENS_CUDA: whether it is the CUDA build and the GPU code is compiled.
#
# The CUDA wheel's CMake config needs three things it does not find by
# itself on a machine whose nvcc is a wrapper script and whose toolkit has
# no NVRTC (measured): the toolkit root (CUDA_TOOLKIT_ROOT_DIR /
# CUDAToolkit_ROOT, where nvcc really lives), NVRTC from the wheel's nvidia
# packages (CUDA_nvrtc_LIBRARY), and explicit GPU architectures ("native"
# fails without a GPU). Each is set here only when the user has not.

set(EXPORTLENS_TORCH_MIN_VERSION 2.13 CACHE STRING "oldest LibTorch accepted (the device check builds against 2.11)")
set(EXPORTLENS_VENV "${CMAKE_SOURCE_DIR}/.venv" CACHE PATH "venv with torch==2.13.0")
set(EXPORTLENS_PYTHON "${EXPORTLENS_VENV}/bin/python" CACHE FILEPATH "the oracle's Python")
file(GLOB _torch_site "${EXPORTLENS_VENV}/lib/python3*/site-packages")
file(GLOB _torch_cmake_dirs "${EXPORTLENS_VENV}/lib/python3*/site-packages/torch/share/cmake")
list(APPEND CMAKE_PREFIX_PATH ${_torch_cmake_dirs})
# Where Torch's own config says it is (also when found through Torch_DIR).
find_path(_torch_config_dir TorchConfig.cmake PATH_SUFFIXES Torch NO_CACHE)
if(_torch_config_dir)
  get_filename_component(_torch_site_from_config "${_torch_config_dir}/../../../.." ABSOLUTE)
  list(APPEND _torch_site "${_torch_site_from_config}")
endif()

# The wheel's CUDA libraries (nvidia/cu13/lib, nvidia/cuda_nvrtc/lib, ...).
set(_torch_is_cuda OFF)
foreach(site ${_torch_site})
  file(GLOB _cuda_libs "${site}/torch/lib/libtorch_cuda.so")
  if(_cuda_libs)
    set(_torch_is_cuda ON)
    file(GLOB_RECURSE _nvrtc "${site}/nvidia/*libnvrtc.so*")
    list(FILTER _nvrtc EXCLUDE REGEX "builtins|alt")
    file(GLOB_RECURSE _cupti "${site}/nvidia/*libcupti.so*")
    file(GLOB_RECURSE _cupti_header "${site}/nvidia/*cupti.h")
    break()
  endif()
endforeach()

if(_torch_is_cuda)
  # nvcc may be a wrapper (`exec /usr/local/cuda-13.0/bin/nvcc "$@"`): find the real toolkit.
  if(NOT CUDA_TOOLKIT_ROOT_DIR)
    find_program(_nvcc nvcc PATHS /usr/local/cuda/bin NO_CACHE)
    if(_nvcc)
      file(READ "${_nvcc}" _nvcc_head LIMIT 512)
      if(_nvcc_head MATCHES "exec[ \t]+\"?([^ \t\"]+/bin/nvcc)")
        set(_nvcc "${CMAKE_MATCH_1}")
      else()
        file(REAL_PATH "${_nvcc}" _nvcc)
      endif()
      get_filename_component(_cuda_root "${_nvcc}/../.." ABSOLUTE)
      set(CUDA_TOOLKIT_ROOT_DIR "${_cuda_root}" CACHE PATH "CUDA toolkit (found from nvcc)")
    endif()
  endif()
  if(CUDA_TOOLKIT_ROOT_DIR)
    set(CUDAToolkit_ROOT "${CUDA_TOOLKIT_ROOT_DIR}" CACHE PATH "")
    if(NOT CMAKE_CUDA_COMPILER AND EXISTS "${CUDA_TOOLKIT_ROOT_DIR}/bin/nvcc")
      set(CMAKE_CUDA_COMPILER "${CUDA_TOOLKIT_ROOT_DIR}/bin/nvcc" CACHE FILEPATH "")
    endif()
  endif()
  if(NOT CUDA_nvrtc_LIBRARY AND _nvrtc)
    list(GET _nvrtc 0 _nvrtc_first)
    set(CUDA_nvrtc_LIBRARY "${_nvrtc_first}" CACHE FILEPATH "NVRTC from the torch wheel's CUDA packages")
  endif()
  if(NOT TORCH_CUDA_ARCH_LIST AND NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
    # H100 / H200 (sm_90), not "native" (needs a GPU at configure time). Torch's
    # config reads TORCH_CUDA_ARCH_LIST and ignores CMAKE_CUDA_ARCHITECTURES.
    set(TORCH_CUDA_ARCH_LIST "9.0" CACHE STRING "GPU architectures")
  endif()
endif()

find_package(Torch ${EXPORTLENS_TORCH_MIN_VERSION} REQUIRED)

option(EXPORTLENS_WITH_CUDA "compile the GPU code when LibTorch is the CUDA build" ON)
if(EXPORTLENS_WITH_CUDA AND _torch_is_cuda AND TARGET torch_cuda)
  set(EXPORTLENS_CUDA ON)
  find_package(CUDAToolkit REQUIRED)
  # CUPTI: headers from the wheel (matching the library LibTorch ships) or the toolkit; loaded at run time.
  if(_cupti_header)
    list(GET _cupti_header 0 _h)
    get_filename_component(EXPORTLENS_CUPTI_INCLUDE_DIR "${_h}" DIRECTORY)
  else()
    find_path(EXPORTLENS_CUPTI_INCLUDE_DIR cupti.h HINTS ${CUDAToolkit_INCLUDE_DIRS}
              "${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/include" NO_CACHE)
  endif()
  if(_cupti)
    list(GET _cupti 0 EXPORTLENS_CUPTI_LIBRARY)
  else()
    find_library(EXPORTLENS_CUPTI_LIBRARY cupti HINTS "${CUDAToolkit_LIBRARY_DIR}"
                 "${CUDAToolkit_LIBRARY_ROOT}/extras/CUPTI/lib64" NO_CACHE)
  endif()
  message(STATUS "LibTorch ${Torch_VERSION} with CUDA ${CUDAToolkit_VERSION}: GPU code compiled "
                 "(CUPTI headers ${EXPORTLENS_CUPTI_INCLUDE_DIR}, library ${EXPORTLENS_CUPTI_LIBRARY})")
else()
  set(EXPORTLENS_CUDA OFF)
  message(STATUS "LibTorch ${Torch_VERSION} without CUDA: the GPU code is left out")
endif()
