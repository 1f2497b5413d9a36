# NCCL, the exchange between the GPUs of a sharded table (core/shard), from PyPI's wheel
# nvidia-nccl-cu13: pinned, checked against its sha256, fetched once per build tree when CUDA is
# found (~200 MB; later configures need no network). Only nccl.h and libnccl.so.2 are extracted.
# The major and minor version match the GPU machines' (2.28, in /usr/lib/x86_64-linux-gnu): a
# binary carried there finds theirs, since the build tree's copy is on its RPATH only.
#
# HS_NCCL=OFF (or a build without CUDA) builds everything else; a table over several GPUs then
# says that it needs NCCL, and simulated devices still run.
include(build_python)
set(HS_NCCL AUTO CACHE STRING "Fetch NCCL for tables over several GPUs: AUTO (with CUDA) or OFF")
set_property(CACHE HS_NCCL PROPERTY STRINGS AUTO OFF)
set(HS_NCCL_VERSION 2.28.9)
set(HS_NCCL_SHA256 e4553a30f34195f3fa1da02a6da3d6337d28f2003943aa0a3d247bbc25fefc42)

set(HS_WITH_NCCL OFF)
if(HS_WITH_CUDA AND NOT HS_NCCL STREQUAL "OFF")
  set(hs_nccl_wheel_name nvidia_nccl_cu13-${HS_NCCL_VERSION}-py3-none-manylinux_2_18_x86_64.whl)
  set(hs_nccl_download ${CMAKE_BINARY_DIR}/_deps/download)
  set(hs_nccl_wheel ${hs_nccl_download}/${hs_nccl_wheel_name})
  set(HS_NCCL_DIR ${CMAKE_BINARY_DIR}/_deps/nccl-${HS_NCCL_VERSION})
  set(hs_nccl_stamp ${HS_NCCL_DIR}/stamp-${HS_NCCL_SHA256})
  if(NOT EXISTS ${hs_nccl_stamp})
    if(EXISTS ${hs_nccl_wheel})
      file(SHA256 ${hs_nccl_wheel} got)
      if(NOT got STREQUAL HS_NCCL_SHA256)
        message(WARNING "NCCL wheel has sha256 ${got}, expected ${HS_NCCL_SHA256}: fetching it again")
        file(REMOVE ${hs_nccl_wheel})
      endif()
    endif()
    if(NOT EXISTS ${hs_nccl_wheel})
      message(STATUS "Fetching NCCL ${HS_NCCL_VERSION} (PyPI wheel nvidia-nccl-cu13, ~200 MB)")
      hs_build_python(hs_nccl_python)
      execute_process(COMMAND ${hs_nccl_python} -m pip download --quiet --disable-pip-version-check
          --no-deps --only-binary=:all: --platform manylinux_2_18_x86_64
          nvidia-nccl-cu13==${HS_NCCL_VERSION} -d ${hs_nccl_download}
        RESULT_VARIABLE rc ERROR_VARIABLE err)
      if(rc)
        message(FATAL_ERROR "pip could not fetch nvidia-nccl-cu13==${HS_NCCL_VERSION} from PyPI "
          "(the first configure of a build tree needs the network; -DHS_NCCL=OFF builds without "
          "tables over several GPUs): ${err}")
      endif()
      file(SHA256 ${hs_nccl_wheel} got)
      if(NOT got STREQUAL HS_NCCL_SHA256)
        file(REMOVE ${hs_nccl_wheel})
        message(FATAL_ERROR "the NCCL wheel from PyPI does not match its pinned sha256 (${got})")
      endif()
    endif()
    set(hs_tmp ${HS_NCCL_DIR}-extracting)
    file(REMOVE_RECURSE ${HS_NCCL_DIR} ${hs_tmp})
    file(ARCHIVE_EXTRACT INPUT ${hs_nccl_wheel} DESTINATION ${hs_tmp}
      PATTERNS nvidia/nccl/include/nccl.h nvidia/nccl/lib/libnccl.so.2)
    file(RENAME ${hs_tmp}/nvidia/nccl ${HS_NCCL_DIR})
    file(REMOVE_RECURSE ${hs_tmp})
    file(TOUCH ${hs_nccl_stamp})
  endif()
  add_library(hs_nccl SHARED IMPORTED GLOBAL)
  set_target_properties(hs_nccl PROPERTIES
    IMPORTED_LOCATION ${HS_NCCL_DIR}/lib/libnccl.so.2
    IMPORTED_SONAME libnccl.so.2)
  target_include_directories(hs_nccl SYSTEM INTERFACE ${HS_NCCL_DIR}/include)
  set(HS_WITH_NCCL ON)
endif()
message(STATUS "HashScope tables over several GPUs (NCCL): ${HS_WITH_NCCL}")
