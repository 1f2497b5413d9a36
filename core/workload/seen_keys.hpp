// Which keys a key file has given already, checked in file order (key_file.cpp's reader).
#pragma once
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "core/common/types.hpp"

namespace hs::workload::detail {

// Which 32-bit keys were seen: an open-addressing set sized to what it holds, and a bit per key
// (512 MiB) once the set would be larger than that (past 2^26 keys), or from the start for a file
// that may hold that many, so a small file costs little and 10^8 keys at most the bits. Every
// check is a random access into memory larger than the caches: the reader prefetches a key's
// place k_keys_ahead keys before it checks it.
class seen_keys {
 public:
  /// @brief Takes the bits at once when the file may hold more than the set would before them.
  void expect(std::uint64_t most_keys) {
    if (most_keys > k_bitset_words * sizeof(std::uint64_t) / (2 * sizeof(key_type))) take_bits();
  }
  // Always inlined: GCC 12 found this function free of side effects and deleted its calls, so no
  // prefetch was ever issued (seen in the assembly; 11.2 s for 10^8 keys).
  [[gnu::always_inline]] void prefetch(key_type k) const {
    if (bits_)
      __builtin_prefetch(bits_ + (k >> 6), 1);
    else if (slot_data_)
      __builtin_prefetch(slot_data_ + ((k * 0x9e3779b1u) & slot_mask_), 1);
  }
  seen_keys() = default;
  seen_keys(const seen_keys&) = delete;
  seen_keys& operator=(const seen_keys&) = delete;
  ~seen_keys() { std::free(bits_); }
  /// @brief Marks `k` (never k_empty); whether it was marked before.
  bool test_and_set(key_type k) {
    if (bits_) return test_and_set_bit(k);
    if (2 * (size_ + 1) > slots_.size()) grow();
    if (bits_) return test_and_set(k);
    if (!insert(k)) return true;
    ++size_;
    return false;
  }

  /// @brief Whether the keys are bits: then keys of different `part_of` parts touch different
  /// words, so one thread a part may mark them at once (test_and_set_bit).
  bool bits() const { return bits_ != nullptr; }
  static unsigned part_of(key_type k, unsigned parts) { return (k >> 26) % parts; }
  bool test_and_set_bit(key_type k) {
    std::uint64_t& word = bits_[k >> 6];
    const std::uint64_t bit = 1ull << (k & 63);
    const bool was = word & bit;
    word |= bit;
    return was;
  }

 private:
  static constexpr std::size_t k_bitset_words = (1ull << 32) / 64;

  bool insert(key_type k) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = (k * 0x9e3779b1u) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == k) return false;
      if (slots_[i] == k_empty) {
        slots_[i] = k;
        return true;
      }
    }
  }

  void grow() {
    const std::size_t next = slots_.empty() ? 1024 : 2 * slots_.size();
    std::vector<key_type> old = std::move(slots_);
    if (next * sizeof(key_type) > k_bitset_words * sizeof(std::uint64_t)) {
      take_bits();
      for (const key_type k : old)
        if (k != k_empty) bits_[k >> 6] |= 1ull << (k & 63);
      return;
    }
    slots_.assign(next, k_empty);
    slot_data_ = slots_.data();
    slot_mask_ = slots_.size() - 1;
    for (const key_type k : old)
      if (k != k_empty) insert(k);
  }

  // The bits in 2 MiB pages where the kernel gives them (transparent huge pages on request): a
  // random bit in 4 KiB pages is a TLB miss as well as a cache miss, which prefetching does not
  // hide. 10^8 random decimal keys: 11.2 s with 4 KiB pages, measured in core/workload/README.md.
  void take_bits() {
    constexpr std::size_t bytes = k_bitset_words * sizeof(std::uint64_t), huge = 2u << 20;
    void* p = std::aligned_alloc(huge, bytes);
    if (!p) throw std::bad_alloc();
    madvise(p, bytes, MADV_HUGEPAGE);  // advice: without it the bits work, only slower
    std::memset(p, 0, bytes);
    bits_ = static_cast<std::uint64_t*>(p);
    slots_ = {};
    slot_data_ = nullptr;
  }

  std::vector<key_type> slots_;
  const key_type* slot_data_ = nullptr;
  std::size_t slot_mask_ = 0, size_ = 0;
  std::uint64_t* bits_ = nullptr;  // aligned_alloc'ed, freed by the destructor
};

// Which 64-bit keys were seen: an open-addressing set of the keys themselves, doubled as it fills
// (its empty slot is the reserved all-ones key, which no file gives). 64-bit keys have no bits to
// fall back on, so a file of 10^8 keys takes a set of 2^28 slots (2 GiB); the reader checks them
// on one thread, in file order, prefetching a key's place k_keys_ahead keys before.
class seen_wide_keys {
 public:
  void expect(std::uint64_t most_keys) {
    // Room for what the file may hold, up to 2^26 keys at once (a larger set grows when needed).
    std::size_t n = 1024;
    while (n < 2 * most_keys && n < (std::size_t{1} << 27)) n *= 2;
    if (n > slots_.size()) rebuild(n);
  }
  [[gnu::always_inline]] void prefetch(wide_key k) const {
    if (!slots_.empty()) __builtin_prefetch(slots_.data() + (place(k) & mask_), 1);
  }
  /// @brief Marks `k` (never the all-ones key); whether it was marked before.
  bool test_and_set(wide_key k) {
    if (2 * (size_ + 1) > slots_.size()) rebuild(slots_.empty() ? 1024 : 2 * slots_.size());
    for (std::size_t i = place(k) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i] == k) return true;
      if (slots_[i] == k_free) {
        slots_[i] = k;
        ++size_;
        return false;
      }
    }
  }
  bool bits() const { return false; }

 private:
  static constexpr wide_key k_free = key_limits<wide_key>::empty;
  static std::size_t place(wide_key k) {
    return static_cast<std::size_t>((k * 0x9e3779b97f4a7c15ull) >> 17);
  }

  void rebuild(std::size_t n) {
    std::vector<wide_key> old = std::move(slots_);
    slots_.assign(n, k_free);
    mask_ = n - 1;
    for (const wide_key k : old)
      if (k != k_free)
        for (std::size_t i = place(k) & mask_;; i = (i + 1) & mask_)
          if (slots_[i] == k_free) {
            slots_[i] = k;
            break;
          }
  }

  std::vector<wide_key> slots_;
  std::size_t mask_ = 0, size_ = 0;
};

}  // namespace hs::workload::detail
