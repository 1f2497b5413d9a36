// The loads a linear probe reads slots with: 16-byte loads (past L1 or not), two slots at once,
// a slot shuffled between lanes, and a sector of 4 slots read together (sector_reader). Apart from
// the device view (linear_ref.cuh), which uses them, as they need nothing of it.
#pragma once
#include <cstdint>

#include "core/linear/linear_layout.hpp"

namespace hs::linear {

/// @brief 16 bytes read as one load: past L1 with `ViaL2` (inserts need to see other threads'
/// claims).
template <bool ViaL2>
__device__ __forceinline__ ulonglong2 load16(const void* p) {
  if constexpr (ViaL2)
    return __ldcg(reinterpret_cast<const ulonglong2*>(p));
  else
    return *reinterpret_cast<const ulonglong2*>(p);
}

/// @brief Two consecutive slots (the first aligned to two): one 16-byte load for 32-bit slots,
/// two issued together for 16-byte ones.
template <bool ViaL2>
__device__ __forceinline__ void load_two(const slot_word* p, slot_word& w0, slot_word& w1) {
  const ulonglong2 v = load16<ViaL2>(p);
  w0 = v.x;
  w1 = v.y;
}
template <bool ViaL2>
__device__ __forceinline__ void load_two(const wide_slot* p, wide_slot& w0, wide_slot& w1) {
  const ulonglong2 a = load16<ViaL2>(p), b = load16<ViaL2>(p + 1);
  w0 = {a.x, a.y};
  w1 = {b.x, b.y};
}

/// @brief A slot shuffled from lane `src` of `lanes`.
__device__ __forceinline__ slot_word shfl_slot(unsigned lanes, slot_word w, int src) {
  return __shfl_sync(lanes, w, src);
}
__device__ __forceinline__ wide_slot shfl_slot(unsigned lanes, wide_slot w, int src) {
  return {__shfl_sync(lanes, w.key, src), __shfl_sync(lanes, w.value, src)};
}

/// @brief An aligned sector of 4 slots (32 bytes, one L2 access, for 32-bit slots; two for 16-byte
/// ones), read as 16-byte pieces issued together (one latency). `ViaL2` reads past L1, which
/// inserts need to see other threads' claims.
template <bool ViaL2, class W = slot_word>
struct sector_reader {
  W w0{}, w1{}, w2{}, w3{};  // named words, not an array: a runtime index would put them in memory

  sector_reader() = default;
  __device__ explicit sector_reader(const W* sector) {
    load_two<ViaL2>(sector, w0, w1);
    load_two<ViaL2>(sector + 2, w2, w3);
  }
  __device__ W at(unsigned j) const { return j == 0 ? w0 : j == 1 ? w1 : j == 2 ? w2 : w3; }
  /// Records a word seen since (a failed CAS's answer) for slot j.
  __device__ void set(unsigned j, W w) {
    if (j == 0)
      w0 = w;
    else if (j == 1)
      w1 = w;
    else if (j == 2)
      w2 = w;
    else
      w3 = w;
  }
};

}  // namespace hs::linear
