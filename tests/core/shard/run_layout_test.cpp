// The exchange's run layouts through the host stand-in: every run's bulk starts on 16 bytes where
// it is read and where it is written, the packed side holds each sent element once with no gap,
// and the transposed step brings each element back to its padded place.
#include <cstdint>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "core/shard/host_exchange.hpp"
#include "core/shard/run_layout.hpp"

using namespace hs;
using detail::run_layout;

namespace {

/// An element that names where it was sent from: rank i's t-th element for peer j (one byte
/// holds only a value that is never 0, the unwritten mark).
template <class T>
T mark(std::uint32_t i, std::uint32_t j, std::uint64_t t) {
  const std::uint64_t v = (t * 8 + j) * 8 + i;
  return static_cast<T>(sizeof(T) == 1 ? 1 + v % 255 : 1 + v);
}

bool on_16(const void* p, const void* base) {
  return (static_cast<const unsigned char*>(p) - static_cast<const unsigned char*>(base)) % 16 == 0;
}

/// counts[i][j]: elements rank i sends rank j; runs shorter than `least` go whole.
template <class T>
void check_round_trip(const std::vector<std::vector<std::uint64_t>>& counts, std::uint64_t least) {
  const auto n = static_cast<std::uint32_t>(counts.size());
  std::vector<std::vector<std::uint64_t>> taken(n, std::vector<std::uint64_t>(n));
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t j = 0; j < n; ++j) taken[j][i] = counts[i][j];
  const T unset = static_cast<T>(0);
  std::vector<std::vector<T>> sent(n), packed(n), back(n);
  std::vector<rank_segments> out, ret;
  for (std::uint32_t i = 0; i < n; ++i) {
    sent[i].assign(detail::padded_total(counts[i]), unset);
    const detail::run_starts at(counts[i], run_layout::padded, least);
    for (std::uint32_t j = 0; j < n; ++j)
      for (std::uint64_t t = 0; t < counts[i][j]; ++t) sent[i][at.bulk[j] + t] = mark<T>(i, j, t);
    std::uint64_t m = 0;
    for (const std::uint64_t c : taken[i]) m += c;
    packed[i].assign(m, unset);
    back[i].assign(sent[i].size(), unset);
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    for (const rank_segments& l :
         detail::split_lane(i, n, {}, sent[i].data(), run_layout::padded, counts[i],
                            packed[i].data(), run_layout::packed, taken[i], sizeof(T), least))
      out.push_back(l);
    for (const rank_segments& l :
         detail::split_lane(i, n, {}, packed[i].data(), run_layout::packed, taken[i],
                            back[i].data(), run_layout::padded, counts[i], sizeof(T), least))
      ret.push_back(l);
  }
  for (std::size_t k = 0; k < out.size(); k += 2)  // [k] bulks, [k + 1] rests
    for (std::uint32_t j = 0; j < n; ++j) {
      const std::uint32_t i = out[k].rank;
      CHECK(out[k].send_bytes[j] % 16 == 0);
      CHECK(on_16(out[k].send[j], sent[i].data()));
      CHECK(on_16(out[k].recv[j], packed[i].data()));
      const std::uint64_t c = counts[i][j];
      CHECK(out[k + 1].send_bytes[j] == (c < least ? c : c % detail::k_run_align) * sizeof(T));
    }
  host_exchange ex(n);
  ex.all_to_all(out, "out");
  for (std::uint32_t j = 0; j < n; ++j) {
    std::vector<std::uint64_t> seen(n, 0);  // from rank i: its elements arrive in order
    std::size_t wrong = 0;
    for (const T e : packed[j]) {
      const auto v = static_cast<std::uint64_t>(e) - 1;
      const auto i = static_cast<std::uint32_t>(v % 8);
      const bool named = sizeof(T) > 1;  // a byte's mark is not read back, only its presence
      const bool ok = e != unset && (!named || (i < n && v / 8 % 8 == j && v / 64 < counts[i][j]));
      wrong += ok ? 0 : 1;
      if (ok && named) ++seen[i];
    }
    CHECK(wrong == 0);
    if (sizeof(T) > 1) CHECK(seen == taken[j]);
  }
  ex.all_to_all(ret, "back");
  for (std::uint32_t i = 0; i < n; ++i) CHECK(back[i] == sent[i]);
}

}  // namespace

TEST_CASE(
    "run layouts: long runs' bulks start on 16 bytes at both ends, the packed side has no gap",
    "[shard]") {
  // Runs of none, fewer than one bulk, one bulk exactly, a bulk and a rest; 2 to 5 ranks.
  const std::vector<std::vector<std::vector<std::uint64_t>>> cases = {
      {{0, 0}, {0, 0}},
      {{1, 17}, {16, 3}},
      {{33, 0, 15}, {2, 48, 31}, {7, 1, 16}},
      {{5, 6, 7, 8}, {100, 0, 1, 99}, {17, 18, 19, 20}, {0, 0, 0, 13}},
      {{3, 1, 4, 1, 5}, {9, 2, 6, 5, 3}, {5, 8, 9, 7, 9}, {3, 2, 3, 8, 4}, {6, 2, 6, 4, 3}},
  };
  for (const auto& counts : cases)
    for (const std::uint64_t least : {std::uint64_t{1}, std::uint64_t{17}, detail::k_split_least}) {
      INFO(counts.size() << " ranks, runs split from " << least << " elements on");
      check_round_trip<std::uint8_t>(counts, least);
      check_round_trip<std::uint32_t>(counts, least);
      check_round_trip<std::uint64_t>(counts, least);
    }
}
