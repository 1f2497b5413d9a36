// Reading a table_state's parts and numbers, and whether a state fits a table: the checks every
// family's restore makes before it touches anything.
#include "core/table/table_state.hpp"

#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/family_registry.hpp"

namespace hs {

std::uint64_t table_state::bytes() const {
  std::uint64_t n = 0;
  for (const state_part& p : parts) n += p.bytes.size();
  return n;
}

const state_part* table_state::find(std::string_view name) const {
  for (const state_part& p : parts)
    if (p.name == name) return &p;
  return nullptr;
}

const state_part& table_state::part(std::string_view name) const {
  if (const state_part* p = find(name)) return *p;
  throw user_error("the " + std::string(to_string(config.family)) + " table's state has no '" +
                   std::string(name) + "' part");
}

const state_part& table_state::sized_part(std::string_view name, std::size_t bytes) const {
  const state_part& p = part(name);
  if (p.bytes.size() != bytes)
    throw user_error(
        strprintf("the '%s' part of the %s table's state holds %s bytes, not the %s "
                  "its capacity needs",
                  p.name.c_str(), std::string(to_string(config.family)).c_str(),
                  format_count(p.bytes.size()).c_str(), format_count(bytes).c_str()));
  return p;
}

std::uint64_t table_state::number(std::string_view name) const {
  for (const auto& [n, v] : numbers)
    if (n == name) return v;
  throw user_error("the " + std::string(to_string(config.family)) + " table's state has no '" +
                   std::string(name) + "' number");
}

namespace {
constexpr const char* k_rejected_names[k_op_kind_count] = {"rejected_inserts", "rejected_finds",
                                                           "rejected_erases"};
}  // namespace

void set_common_counters(table_state& st, const std::uint64_t* rejected,
                         std::uint64_t failed_full) {
  for (int i = 0; i < k_op_kind_count; ++i) st.set_number(k_rejected_names[i], rejected[i]);
  st.set_number("failed_full", failed_full);
}

void read_common_counters(const table_state& st, std::uint64_t* rejected,
                          std::uint64_t& failed_full) {
  for (int i = 0; i < k_op_kind_count; ++i) rejected[i] = st.number(k_rejected_names[i]);
  failed_full = st.number("failed_full");
}

namespace {
std::string option_words(const table_config& cfg, bool sized_too = true) {
  std::string out;
  for (const family_option& o : describe(cfg.family).options) {
    if (o.follows_capacity && !sized_too) continue;
    if (!out.empty()) out += ' ';
    out += std::string(o.name) + "=" + o.get(cfg);
  }
  return out;
}
}  // namespace

std::string describe_config(const table_config& cfg) {
  std::string out = std::string(to_string(cfg.family)) + ", " + format_count(cfg.capacity) + " " +
                    std::string(describe(cfg.family).capacity_unit) + ", hash " +
                    std::string(to_string(cfg.hash));
  const std::string words = option_words(cfg);
  if (!words.empty()) out += ", " + words;
  if (cfg.devices > 1)
    out += ", over " + std::to_string(cfg.devices) + " devices (owner " +
           std::string(to_string(cfg.owner)) + ")";
  return out;
}

void check_restorable(const table_config& saved, const table_config& table) {
  if (saved.family != table.family)
    throw user_error("a state of a " + std::string(to_string(saved.family)) +
                     " table cannot restore a " + std::string(to_string(table.family)) + " table");
  if (saved.hash != table.hash || option_words(saved, false) != option_words(table, false) ||
      saved.devices != table.devices || saved.owner != table.owner) {
    table_config same = saved;
    same.capacity = table.capacity;
    throw user_error("the state is of a table made as (" + describe_config(same) +
                     "); this table is (" + describe_config(table) + ")");
  }
}

}  // namespace hs
