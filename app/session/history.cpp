// The history's bounds (history.hpp) and the timeline's labels for commands.
#include "app/session/history.hpp"

#include <algorithm>

#include "core/common/format.hpp"
#include "core/common/memory.hpp"

namespace hs::app {

std::uint64_t session_history::bytes() const {
  std::uint64_t n = 0;
  for (const history_point& p : points_) n += p.table.bytes();
  return n;
}

void session_history::keep(history_point p) {
  p.serial = ++serials_;
  points_.push_back(std::move(p));
  while (points_.size() > 1 && (points_.size() > k_history_states_max || bytes() > budget_)) {
    points_.pop_front();
    ++dropped_;
  }
  if (dropped_)
    limit_ = strprintf(
        "the history keeps the last %zu states (a budget of %s, at most %zu): "
        "Back goes no further",
        points_.size(), format_bytes(budget_).c_str(), k_history_states_max);
}

std::string command_label(const script_step& s) {
  switch (s.kind) {
    case script_step::fill: return strprintf("fill %.2f", s.load);
    case script_step::drain: return strprintf("drain %.2f", s.load);
    case script_step::run:
      return s.batches ? strprintf("run %llu", (unsigned long long)s.batches) : std::string("run");
    case script_step::clear: return "clear";
    case script_step::rehash:
      return s.batches ? "rehash to " + format_count(s.batches) : std::string("rehash");
    case script_step::flush: return "flush";
    case script_step::regpus: return "regpus " + std::to_string(s.batches);
    case script_step::step: {
      if (s.given.empty()) return strprintf("step %llu", (unsigned long long)s.batches);
      std::string out = "step " + std::string(to_string(s.given.front().kind));
      for (std::size_t i = 0; i < s.given.size() && i < 3; ++i)
        out += " " + key_text(s.given[i].key, key_radix::decimal);
      return s.given.size() > 3 ? out + " ..." : out;
    }
    case script_step::load_table: return "load table";
    default: return {};
  }
}

std::uint64_t default_history_budget(bool gpu) {
  if (!gpu) return k_history_budget_max;
  return std::min(k_history_budget_max, device_memory_now().free_bytes / 8);
}

}  // namespace hs::app
