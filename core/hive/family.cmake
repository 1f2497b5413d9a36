# The hive family's sources in its library (hs_hive), included by core/CMakeLists.txt (every
# core/*/family.cmake is).
target_sources(${hs_family_target} PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/hive_descriptor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hive_family.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hive_image_inspect.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hive_invariants.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hive_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hive_model_state.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hive_trace.cpp
)
if(HS_WITH_CUDA)
  target_sources(${hs_family_target} PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/hive_inspect.cu
    ${CMAKE_CURRENT_LIST_DIR}/hive_kernels.cu
    ${CMAKE_CURRENT_LIST_DIR}/hive_bulk.cu
    ${CMAKE_CURRENT_LIST_DIR}/hive_resize.cu
    ${CMAKE_CURRENT_LIST_DIR}/hive_table.cu
    ${CMAKE_CURRENT_LIST_DIR}/hive_table_inspect.cu
    ${CMAKE_CURRENT_LIST_DIR}/hive_table_state.cu
  )
endif()
# The device code the Code view shows (teach-region markers), extracted by app/CMakeLists.txt.
set_property(GLOBAL APPEND PROPERTY hs_code_region_sources
  core/hive/hive_op_parts.cuh
  core/hive/hive_find_erase.cuh
  core/hive/hive_insert_steps.cuh
  core/hive/hive_ops.cuh)
# Its place among the families, its options and counters, its own parts of a sample and of a
# traced step (cmake/family_parts.cmake).
hs_family_parts(hive
  RANK 2
  OPTIONS core/hive/hive_options.hpp hive_options
  COUNTERS hive_counters
  HEADER core/hive/hive_inspection.hpp
  REQUEST hive_inspect_request
  RESULT hive_inspect_result
  STEP "std::optional<hive_key_before>" hive_before)
