// Compare mode's turns: the sessions that share them never hold one at the same time, and each
// waiting session gets its turns.
#include <atomic>
#include <thread>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "app/session/batch_turns.hpp"

using namespace hs::app;

TEST_CASE("batch turns: one holder at a time, and none left waiting", "[session][compare]") {
  batch_turns turns;
  std::atomic<int> inside{0}, most{0};
  std::atomic<int> done[3] = {0, 0, 0};
  constexpr int k_turns = 300;
  std::vector<std::thread> sessions;
  for (int t = 0; t < 3; ++t)
    sessions.emplace_back([&, t] {
      for (int i = 0; i < k_turns; ++i) {
        turns.acquire();
        const int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::yield();  // a batch in flight: give the others every chance to enter
        --inside;
        ++done[t];
        turns.release();
      }
    });
  for (auto& s : sessions) s.join();
  CHECK(most.load() == 1);
  for (const auto& d : done) CHECK(d.load() == k_turns);
}
