// The seed's own insert algorithm ("A Simple GPU Hash Table", in both versions), rewritten here
// from the document as the baseline of `bench seed-linear`: one thread per key, 1024-thread blocks,
// a 32-bit CAS on the key of every probed slot, then a plain store of the value. Same slot layout
// as HashScope's linear table, so the same inspection kernels read it.
#pragma once
#include <cstdint>

#include "core/common/memory.hpp"
#include "core/common/stream.hpp"
#include "core/common/types.hpp"
#include "core/linear/linear_layout.hpp"

namespace hs::bench {

class seed_reference_table {
 public:
  explicit seed_reference_table(std::uint64_t capacity);
  void insert(const key_type* keys, const value_type* values, std::uint64_t n, stream_view s);
  void clear(stream_view s);
  const linear::slot_word* slots() const { return slots_.data(); }
  std::uint64_t capacity() const { return capacity_; }

 private:
  std::uint64_t capacity_;
  buffer<linear::slot_word> slots_;
};

}  // namespace hs::bench
