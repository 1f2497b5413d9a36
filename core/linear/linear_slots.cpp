// Slot copies from either backend.
#include "core/linear/linear_slots.hpp"

#include "core/common/error.hpp"
#include "core/linear/linear_model.hpp"
#if HS_WITH_CUDA
#include "core/linear/linear_table.hpp"
#endif

namespace hs::linear {

std::vector<slot_word> copy_slots(table& t, stream_view s) {
  if (auto* m = dynamic_cast<linear_model*>(&t)) return {m->slots().begin(), m->slots().end()};
#if HS_WITH_CUDA
  if (auto* g = dynamic_cast<linear_table*>(&t)) return g->download_slots(s);
#endif
  (void)s;
  throw user_error("copy_slots: not a linear table");
}

std::vector<std::uint32_t> copy_reach(table& t, stream_view s) {
#if HS_WITH_CUDA
  if (auto* g = dynamic_cast<linear_table*>(&t)) return g->download_reach(s);
#endif
  (void)t;
  (void)s;
  return {};
}

}  // namespace hs::linear
