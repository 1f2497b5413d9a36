# The linear family's sources in its library (hs_linear), included by core/CMakeLists.txt (every
# core/*/family.cmake is).
target_sources(${hs_family_target} PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/linear_descriptor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/linear_invariants.cpp
  ${CMAKE_CURRENT_LIST_DIR}/linear_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/linear_model_state.cpp
  ${CMAKE_CURRENT_LIST_DIR}/linear_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/linear_reads.cpp
  ${CMAKE_CURRENT_LIST_DIR}/linear_slots.cpp
  ${CMAKE_CURRENT_LIST_DIR}/linear_trace.cpp
)
if(HS_WITH_CUDA)
  target_sources(${hs_family_target} PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/linear_inspect.cu
    ${CMAKE_CURRENT_LIST_DIR}/linear_partition.cu
    ${CMAKE_CURRENT_LIST_DIR}/linear_rehash.cu
    ${CMAKE_CURRENT_LIST_DIR}/linear_table.cu
    ${CMAKE_CURRENT_LIST_DIR}/linear_table_inspect.cu
    ${CMAKE_CURRENT_LIST_DIR}/linear_table_state.cu
  )
endif()
# The device code the Code view shows (teach-region markers), extracted by app/CMakeLists.txt.
set_property(GLOBAL APPEND PROPERTY hs_code_region_sources core/linear/linear_ref.cuh)
# Its place among the families and its options (cmake/family_parts.cmake).
hs_family_parts(linear
  RANK 0
  OPTIONS core/linear/linear_options.hpp linear_options)
