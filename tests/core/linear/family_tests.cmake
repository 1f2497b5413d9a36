# The linear family's tests, included by tests/CMakeLists.txt (every tests/core/*/family_tests.cmake is).
target_sources(hs_core_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/model_semantics_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model_full_table_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model_tombstone_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/trace_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/double_hashing_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rebuild_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/invariants_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_bulk_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_adversarial_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_apply_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_double_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_inspect_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_rehash_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_streams_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_tombstone_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpu_wide_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wide_model_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/wide_state_layout_test.cpp
)
