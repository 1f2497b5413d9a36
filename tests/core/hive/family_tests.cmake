# The hive family's tests, included by tests/CMakeLists.txt (every tests/core/*/family_tests.cmake is).
target_sources(hs_core_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/gpu_hive_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_hive_bulk_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_hive_mixed_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_hive_streams_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/hash_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/inspect_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trace_test.cpp
)
