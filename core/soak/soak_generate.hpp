// The soak's batches drawn on the GPU (soak_generate.cu), one thread an operation, from the same
// functions the host account reads (soak_ops.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/common/stream.hpp"
#include "core/common/types.hpp"
#include "core/soak/soak_ops.hpp"

namespace hs::soak::detail {

/// Writes the operations of indices [first, first + n) in `round` into device memory.
void generate_on_device(const op_draw& d, std::uint64_t round, std::uint64_t first, std::size_t n,
                        op_kind* kinds, key_type* keys, value_type* values, stream_view s);
void generate_on_device(const op_draw& d, std::uint64_t round, std::uint64_t first, std::size_t n,
                        op_kind* kinds, wide_key* keys, wide_value* values, stream_view s);

}  // namespace hs::soak::detail
