# The sharded tables' tests, included by tests/CMakeLists.txt.
target_sources(hs_core_tests PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/shard_map_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shard_lanes_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/run_layout_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sharded_model_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sharded_whole_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sharded_regpus_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sharded_gpu_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sharded_ranks_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/sharded_threads_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rank_join_test.cpp
)
