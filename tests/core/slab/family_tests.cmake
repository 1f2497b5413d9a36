# The slab family's tests, included by tests/CMakeLists.txt (every tests/core/*/family_tests.cmake is).
target_sources(hs_core_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/gpu_slab_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/invariants_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model_semantics_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sizing_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trace_test.cpp
)
