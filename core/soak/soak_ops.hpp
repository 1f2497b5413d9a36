// The soak's operations as pure functions of (seed, round, index), computed alike by the GPU
// generator and by the host account that checks the table's answers: index i of the universe is
// always the same key, and in each round it meets one operation, so a batch holds each key once and
// its outcome does not depend on the order the table runs it in.
#pragma once
#include <cstdint>

#include "core/common/host_device.hpp"
#include "core/common/types.hpp"
#include "core/workload/key_stream.hpp"

namespace hs::soak {

/// @brief What draws the soak's operations.
struct op_draw {
  std::uint64_t seed = 1;
  bool checking = false;  ///< a checkpoint round: every operation is a find
};

/// @brief The operation index i meets in `round`: inserts 40%, erases 20%, finds 40%.
HS_HD op_kind kind_at(const op_draw& d, std::uint64_t round, std::uint64_t i) {
  if (d.checking) return op_kind::find;
  const std::uint32_t r = workload::random_u32(d.seed, 2 * round + 1, i) % 10u;
  return r < 4 ? op_kind::insert : r < 6 ? op_kind::erase : op_kind::find;
}

/// @brief Index i's key: a bijection of [0, 2^31) or [0, 2^63), so distinct indices are distinct
/// keys and none is reserved (the sentinels sit at the top of the range).
template <class K>
HS_HD K key_at(const op_draw& d, std::uint64_t i) {
  if constexpr (sizeof(K) == 4)
    return workload::permute(d.seed ^ 0x5bd1e995u, static_cast<std::uint32_t>(i), 1ull << 31);
  else
    return workload::feistel_permute<std::uint64_t>(d.seed ^ 0x5bd1e995u, i, 1ull << 63);
}

/// @brief The value an insert of index i writes in `round`: never the reserved empty value.
template <class V>
HS_HD V value_at(const op_draw& d, std::uint64_t round, std::uint64_t i) {
  return static_cast<V>(workload::random_u64(d.seed, 2 * round, i) >> (sizeof(V) == 4 ? 33 : 1));
}

}  // namespace hs::soak
