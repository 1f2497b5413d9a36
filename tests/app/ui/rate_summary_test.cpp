// The compare column's headline: the median of the run's whole batches, with a short last batch
// (a fill's tail of a few keys) marked as such instead of standing for the table's rate.
#include <catch2/catch_test_macros.hpp>

#include "app/ui/state/record_views.hpp"

using namespace hs;
using namespace hs::app;

TEST_CASE("the headline rate is the median of whole batches; a short last batch is a tail",
          "[compare]") {
  const std::uint64_t batch = 1u << 20;
  std::vector<batch_point> pts;
  for (double r : {9e9, 11e9, 10e9, 12e9}) pts.push_back({0, 0, r, batch, batch_kind::insert, 0});
  pts.push_back({0, 0, 1.5e5, 3, batch_kind::insert, 0});  // a fill's last 3 keys
  const rate_summary s = summarize_rates(pts, batch);
  CHECK(s.whole == 4);
  CHECK(s.median == 10.5e9);  // between 10 and 11 G/s: the tail is not in it
  CHECK(s.last_is_tail);
  CHECK(s.last_ops == 3);
  CHECK(s.last == 1.5e5);

  pts.pop_back();
  pts.push_back({0, 0, 8e9, batch / 2, batch_kind::insert, 0});  // half a batch still counts
  const rate_summary t = summarize_rates(pts, batch);
  CHECK(t.whole == 5);
  CHECK(t.median == 10e9);
  CHECK_FALSE(t.last_is_tail);

  CHECK(summarize_rates({}, batch).whole == 0);
}
