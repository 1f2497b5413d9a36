// Defaults, the maintenance policy and argument checks shared by every family and backend (tables
// are made through the family registry: family_registry.cpp).
#include "core/table/table.hpp"

#include <algorithm>
#include <charconv>

#include "core/common/bit_math.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs {

std::string_view to_string(owner_bits o) {
  return o == owner_bits::low_bits ? "low-bits" : "independent";
}

std::optional<owner_bits> parse_owner_bits(std::string_view s) {
  if (s == "independent") return owner_bits::independent;
  if (s == "low-bits") return owner_bits::low_bits;
  return std::nullopt;
}

std::uint32_t parse_devices(std::string_view text) {
  if (text == "all") return static_cast<std::uint32_t>(std::max(1, gpu_count()));
  std::uint32_t n = 0;
  const auto [end, err] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (err != std::errc{} || end != text.data() + text.size() || n < 1 || n > k_max_devices)
    throw user_error("'" + std::string(text) + "' is not a number of devices (1 to " +
                     std::to_string(k_max_devices) + ", or all)");
  return n;
}

std::string_view to_string(maintenance_result::action a) {
  switch (a) {
    case maintenance_result::action::none: return "none";
    case maintenance_result::action::rehash: return "rehash";
    case maintenance_result::action::grow: return "grow";
    case maintenance_result::action::shrink: return "shrink";
  }
  return "?";
}

maintenance_result table::maintain(const maintenance_policy& p, stream_view s) {
  maintenance_result r;
  if (!p.active()) return r;
  const table_stats st = stats(s);
  const std::uint64_t cap = st.capacity;
  const double load = st.load_factor();
  const double dead = double(st.erased + st.tombstones) / double(cap);
  std::uint64_t target = cap;
  if (p.grow_above > 0 && load > p.grow_above && cap < max_capacity(width())) {
    target = cap * 2;
    r.what = maintenance_result::action::grow;
  } else if (p.shrink_below > 0 && load < p.shrink_below && cap >= 32 &&
             2 * load < 0.9 * (p.grow_above > 0 ? p.grow_above : 0.5)) {  // no grow right after
    target = cap / 2;
    r.what = maintenance_result::action::shrink;
  } else if (p.rehash_above > 0 && dead > p.rehash_above) {
    r.what = maintenance_result::action::rehash;
  } else {
    return r;
  }
  r.from_capacity = cap;
  r.to_capacity = target;
  r.live = st.live;
  r.dropped = st.erased + st.tombstones;
  rehash(target, s);
  return r;
}

std::uint64_t default_capacity(backend b) {
  return b == backend::gpu ? std::uint64_t{1} << 27 : std::uint64_t{1} << 22;
}

void table::insert(std::span<const wide_key>, std::span<const wide_value>, std::span<op_status>,
                   stream_view) {
  detail::refuse_width("insert", key_width::bits64, width());
}
void table::find(std::span<const wide_key>, std::span<wide_value>, std::span<op_status>,
                 stream_view) {
  detail::refuse_width("find", key_width::bits64, width());
}
void table::erase(std::span<const wide_key>, std::span<op_status>, stream_view) {
  detail::refuse_width("erase", key_width::bits64, width());
}
void table::apply(const wide_op_batch&, std::span<wide_value>, std::span<op_status>, stream_view) {
  detail::refuse_width("apply", key_width::bits64, width());
}
std::uint64_t table::retrieve_all(std::span<wide_key>, std::span<wide_value>, stream_view) {
  detail::refuse_width("retrieve_all", key_width::bits64, width());
}

namespace detail {
void check_bulk(std::string_view call, std::size_t n, std::size_t other, std::size_t status) {
  if (other != n)
    throw user_error(std::string(call) + ": " + std::to_string(n) + " keys but " +
                     std::to_string(other) + " values/results");
  if (status != 0 && status != n)
    throw user_error(std::string(call) + ": " + std::to_string(n) + " keys but " +
                     std::to_string(status) + " status slots (pass none or one per key)");
}

void refuse_width(std::string_view name, key_width call, key_width held) {
  throw user_error(std::string(name) + ": " + std::string(to_string(call)) +
                   "-bit keys given to a table of " + std::string(to_string(held)) +
                   "-bit keys and values");
}
}  // namespace detail

}  // namespace hs
