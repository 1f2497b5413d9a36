// Slot copies from either backend.
#include "core/linear/linear_slots.hpp"

#include "core/common/error.hpp"
#include "core/linear/linear_model.hpp"
#if HS_WITH_CUDA
#include "core/linear/linear_table.hpp"
#endif

namespace hs::linear {

template <class W>
std::vector<W> copy_slots(table& t, stream_view s) {
  if (auto* m = dynamic_cast<basic_linear_model<W>*>(&t))
    return {m->slots().begin(), m->slots().end()};
#if HS_WITH_CUDA
  if (auto* g = dynamic_cast<basic_linear_table<W>*>(&t)) return g->download_slots(s);
#endif
  (void)s;
  throw user_error("copy_slots: not a linear table of " +
                   std::string(to_string(slot_traits<W>::width)) + "-bit keys");
}

template std::vector<slot_word> copy_slots(table&, stream_view);
template std::vector<wide_slot> copy_slots(table&, stream_view);

std::vector<std::uint32_t> copy_reach(table& t, stream_view s) {
#if HS_WITH_CUDA
  if (auto* g = dynamic_cast<linear_table*>(&t)) return g->download_reach(s);
  if (auto* g = dynamic_cast<wide_linear_table*>(&t)) return g->download_reach(s);
#endif
  (void)t;
  (void)s;
  return {};
}

}  // namespace hs::linear
