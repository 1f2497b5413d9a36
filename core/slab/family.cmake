# The slab family's sources in its library (hs_slab), included by core/CMakeLists.txt (every
# core/*/family.cmake is).
target_sources(${hs_family_target} PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/slab_descriptor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slab_family.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slab_image.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slab_invariants.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slab_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slab_model_state.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slab_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slab_sizing.cpp
  ${CMAKE_CURRENT_LIST_DIR}/slab_trace.cpp
)
if(HS_WITH_CUDA)
  target_sources(${hs_family_target} PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/slab_inspect.cu
    ${CMAKE_CURRENT_LIST_DIR}/slab_kernels.cu
    ${CMAKE_CURRENT_LIST_DIR}/slab_table.cu
    ${CMAKE_CURRENT_LIST_DIR}/slab_table_state.cu
  )
endif()
# The device code the Code view shows (teach-region markers), extracted by app/CMakeLists.txt.
set_property(GLOBAL APPEND PROPERTY hs_code_region_sources core/slab/slab_ops.cuh)
# Its place among the families, its options and counters, its own parts of a sample and of a
# traced step (cmake/family_parts.cmake).
hs_family_parts(slab
  RANK 1
  OPTIONS core/slab/slab_options.hpp slab_options
  COUNTERS slab_counters
  HEADER core/slab/slab_inspection.hpp
  REQUEST slab_inspect_request
  RESULT slab_inspect_result
  STEP "std::optional<slab_chain>" list_before)
