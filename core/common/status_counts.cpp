// Host counting, and dispatch to the device kernel.
#include "core/common/status_counts.hpp"

#include "core/common/error.hpp"

namespace hs {

void count_statuses(std::span<const op_status> status, memory_space space, std::uint64_t* scratch,
                    std::uint64_t* out, memory_space out_space, stream_view s) {
  if (host_accessible(space)) {
    status_counts c{};
    for (op_status st : status)
      ++c[static_cast<std::size_t>(st) < c.size() ? static_cast<std::size_t>(st) : 0];
    copy_bytes(out, out_space, c.data(), memory_space::host, sizeof(c), s);
    return;
  }
  fill_bytes(scratch, memory_space::device, 0, sizeof(status_counts), s);
  detail::count_statuses_on_device(status.data(), status.size(), scratch, s);
  copy_bytes(out, out_space, scratch, memory_space::device, sizeof(status_counts), s);
}

#if !HS_WITH_CUDA
namespace detail {
void count_statuses_on_device(const op_status*, std::uint64_t, std::uint64_t*, stream_view) {
  throw user_error("device statuses need a CUDA build");
}
}  // namespace detail
#endif

}  // namespace hs
