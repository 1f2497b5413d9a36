// Back and Forward on GPU tables (history.hpp): the states are kept in device memory and restored
// at device speed; the CPU twins are in history_test.cpp.
#include <catch2/catch_test_macros.hpp>

#include "tests/app/session/history_check.hpp"
#include "tests/support/gpu_support.hpp"

using namespace hs;

TEST_CASE("Back and Forward restore and replay every family's GPU table", "[session][gpu]") {
  test::require_gpu();
  for (family f : {family::linear, family::slab, family::hive})
    test::check_back_and_forward(f, backend::gpu);
}
