// Status and operation names: one spelling wherever a user reads them (the enumerators' own).
#include <catch2/catch_test_macros.hpp>

#include "core/common/types.hpp"

using namespace hs;

TEST_CASE("status names are spelled as in the code, with underscores", "[types]") {
  CHECK(to_string(op_status::rejected_key) == "rejected_key");
  CHECK(to_string(op_status::rejected_value) == "rejected_value");
  CHECK(to_string(op_status::failed_full) == "failed_full");
  for (int s = 0; s < k_op_status_count; ++s) {
    const auto name = to_string(static_cast<op_status>(s));
    CHECK(name != "?");
    CHECK(name.find('-') == std::string_view::npos);
  }
  CHECK_FALSE(explain(op_status::failed_full).empty());
}
