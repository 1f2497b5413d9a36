// A host copy of any linear table's slots, whichever backend holds them (for the invariant
// checker, tests and figures).
#pragma once
#include <vector>

#include "core/linear/linear_layout.hpp"
#include "core/table/table.hpp"

namespace hs::linear {

/// @brief The slots of a linear table of slot type W (GPU or CPU model); throws hs::user_error
/// for other families, or a table of the other key width.
template <class W = slot_word>
std::vector<W> copy_slots(table& t, stream_view s = {});
/// @brief The reach words of a GPU linear table (linear_layout.hpp); empty for the CPU model,
/// whose walks stop at the longest probe.
std::vector<std::uint32_t> copy_reach(table& t, stream_view s = {});

}  // namespace hs::linear
