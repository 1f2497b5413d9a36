# Decides whether the GPU tables are built. HS_CUDA=AUTO builds them when a CUDA compiler is found
# (PATH or /usr/local/cuda); without one the whole application still builds on the CPU model backend.
include(CheckLanguage)
set(HS_CUDA AUTO CACHE STRING "Build the CUDA tables: AUTO, ON or OFF")
set_property(CACHE HS_CUDA PROPERTY STRINGS AUTO ON OFF)

set(HS_WITH_CUDA OFF)
if(NOT HS_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    find_program(HS_NVCC_ON_PATH nvcc)
    if(NOT HS_NVCC_ON_PATH)
      set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
    endif()
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # sm_90 machine code for the H100/H200, plus compute_75 PTX that the driver compiles for any
    # other GPU from Turing on (the oldest architecture CUDA 13 supports).
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES "90-real;75-virtual")
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    # CMake 3.25 predates nvcc 13 and does not know its C++20 flag: tell it.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
      list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    set(HS_WITH_CUDA ON)
  elseif(HS_CUDA STREQUAL "ON")
    message(FATAL_ERROR "HS_CUDA=ON but no CUDA compiler was found (install the CUDA toolkit, or put nvcc on PATH)")
  else()
    message(WARNING "No CUDA compiler found: building HashScope with the CPU model backend only")
  endif()
endif()
message(STATUS "HashScope GPU tables: ${HS_WITH_CUDA}")

# Flags for every CUDA translation unit of the project.
function(hs_cuda_flags target)
  if(HS_WITH_CUDA)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -lineinfo -Xcudafe=--diag_suppress=20012>)
  endif()
endfunction()
