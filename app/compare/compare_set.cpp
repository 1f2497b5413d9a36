// Compare mode's tables: entries, the memory check, commands sent to every session.
#include "app/compare/compare_set.hpp"

#include "app/families/family_hooks.hpp"
#include "core/common/device.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

namespace {
std::vector<std::string> split(std::string_view s, char at) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == at) {
      out.emplace_back(s.substr(from, i - from));
      from = i + 1;
    }
  return out;
}
}  // namespace

compare_entry parse_compare_entry(std::string_view text, const table_config& base) {
  const auto parts = split(text, ':');
  compare_entry e{std::string(text), base};
  const auto f = parse_family(parts[0]);
  if (!f)
    throw user_error("compare: unknown table family '" + parts[0] + "' (" + family_names() + ")");
  // The base's settings of this family stay (a scenario's table line); another family's are
  // never read by this one's table.
  // The base's width where this family holds it (linear:key-bits=64 beside a slab table), else
  // the family's narrowest.
  set_family(e.table, *f);
  const family_descriptor& d = describe(*f);
  if (const auto prepare = hooks_of(*f).prepare)
    prepare(e.table);  // as its views want it; options follow
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto eq = parts[i].find('=');
    if (eq == std::string::npos || eq == 0)
      throw user_error("compare: '" + parts[i] + "' in '" + e.label + "' should be name=value");
    const std::string name = parts[i].substr(0, eq), value = parts[i].substr(eq + 1);
    try {
      if (name == "hash") {
        const auto h = parse_hash_kind(value);
        if (!h)
          throw user_error("unknown hash '" + value + "' (murmur3, knuth, identity, universal)");
        e.table.hash = *h;
      } else if (name == "capacity") {
        const auto c = parse_size(value);
        if (!c) throw user_error("'" + value + "' is not a capacity (examples: 1048576, 1M, 2^20)");
        e.table.capacity = *c;
      } else if (name == "gpus") {
        e.table.devices = parse_devices(value);
      } else if (name == "owner") {
        const auto o = parse_owner_bits(value);
        if (!o) throw user_error("unknown owner '" + value + "' (independent, low-bits)");
        e.table.owner = *o;
      } else if (const family_option* o = find_option(d.options, name)) {
        apply_option(*o, e.table, value);
      } else {
        throw user_error("the " + std::string(d.name) + " family has no option '" + name +
                         "' (hash, capacity, gpus, owner, " + option_names(d.options) + ")");
      }
    } catch (const user_error& err) {
      throw user_error("compare: " + e.label + ": " + err.what());
    }
  }
  return e;
}

std::string format_compare_entry(const table_config& cfg, const table_config& base) {
  table_config plain = base;  // what the bare family name would make
  plain.family = cfg.family;
  if (const auto prepare = hooks_of(cfg.family).prepare) prepare(plain);
  std::string text(to_string(cfg.family));
  if (cfg.hash != plain.hash) text += ":hash=" + std::string(to_string(cfg.hash));
  if (cfg.capacity != plain.capacity) text += ":capacity=" + format_size(cfg.capacity);
  if (cfg.devices != plain.devices) text += ":gpus=" + std::to_string(cfg.devices);
  if (cfg.owner != plain.owner) text += ":owner=" + std::string(to_string(cfg.owner));
  for (const family_option& o : describe(cfg.family).options)
    if (const std::string v = o.get(cfg); v != o.get(plain))
      text += ":" + std::string(o.name) + "=" + v;
  return text;
}

void check_fits_together(const std::vector<compare_entry>& entries, std::uint64_t free_bytes) {
  std::uint64_t need = 0;
  for (const compare_entry& e : entries) {
    table_config c = e.table;
    if (c.capacity == 0) c.capacity = default_capacity(c.backend);
    c.capacity /= std::max<std::uint32_t>(c.devices, 1);  // what GPU 0 holds of a sharded table
    const auto estimate = describe(c.family).estimate_bytes;
    need += estimate ? estimate(c) : 0;
  }
  const std::uint64_t usable = free_bytes - free_bytes / 10;
  if (need > usable)
    throw user_error(strprintf(
        "compare: the %zu tables need about %s together, the GPU has %s free (%s kept for batches "
        "and views): %s missing; use smaller capacities or compare fewer tables",
        entries.size(), format_bytes(need).c_str(), format_bytes(free_bytes).c_str(),
        format_bytes(free_bytes / 10).c_str(), format_bytes(need - usable).c_str()));
}

compare_set::compare_set(const std::vector<compare_entry>& entries, const session_config& base) {
  if (entries.size() < 2 || entries.size() > k_max_tables)
    throw user_error("compare: name 2 or 3 tables, not " + std::to_string(entries.size()));
  if (base.table.backend == backend::gpu) {
    const auto gpu = query_gpu();
    if (gpu) check_fits_together(entries, gpu->free_bytes);
  }
  // The tables take turns: each batch's rate is its own table's, not a share of the device.
  const auto turns = std::make_shared<batch_turns>();
  for (const compare_entry& e : entries) {
    session_config cfg = base;
    cfg.turns = turns;
    cfg.table = e.table;
    cfg.table.backend = base.table.backend;
    try {
      sessions_.push_back(make_session(cfg));
    } catch (const user_error& err) {
      throw user_error("compare: " + e.label + ": " + err.what());
    }
    labels_.push_back(e.label);
  }
}

void compare_set::run() {
  for (auto& s : sessions_) s->run();
}
void compare_set::pause() {
  for (auto& s : sessions_) s->pause();
}
void compare_set::step(std::uint64_t ops) {
  for (auto& s : sessions_) s->step(ops);
}
void compare_set::step(const std::vector<given_op>& ops) {
  for (auto& s : sessions_)  // every table takes the keys, or none steps
    for (const given_op& o : ops) check_typed_key(o.key, s->config().table.width);
  for (auto& s : sessions_) s->step(ops);
}
void compare_set::fill_to(double load) {
  for (auto& s : sessions_) s->fill_to(load);
}
void compare_set::reset() {
  for (auto& s : sessions_) s->reset();
}
void compare_set::back(std::uint64_t n) {
  for (std::size_t i = 0; i < size(); ++i)
    if (const std::string why = sessions_[i]->why_not_back(n); !why.empty())
      throw user_error(labels_[i] + ": " + why);
  std::size_t done = 0;
  try {
    for (; done < size(); ++done) sessions_[done]->back(n);
  } catch (const std::exception& e) {
    // A restore that failed after the checks (memory, a lost GPU): the tables already back
    // replay what they undid, so every column stays at the same command.
    for (std::size_t i = 0; i < done; ++i) {
      try {
        sessions_[i]->forward(n);
      } catch (const std::exception&) {  // its own status says why
      }
    }
    if (dynamic_cast<const user_error*>(&e))
      throw user_error(labels_[done] + ": " + e.what() +
                       " (the tables before it went forward again)");
    throw;
  }
}
void compare_set::forward(std::uint64_t n) {
  for (std::size_t i = 0; i < size(); ++i)
    if (const std::string why = sessions_[i]->why_not_forward(n); !why.empty())
      throw user_error(labels_[i] + ": " + why);
  for (auto& s : sessions_) s->forward(n);
}
void compare_set::queue(const std::vector<script_step>& steps) {
  for (auto& s : sessions_) s->queue(steps);
}
void compare_set::continue_script() {
  for (auto& s : sessions_) s->continue_script();
}
void compare_set::wait_idle() {
  for (auto& s : sessions_) s->wait_idle();
}

bool compare_set::held() const {
  for (const auto& s : sessions_)
    if (s->status().script_held) return true;
  return false;
}

bool compare_set::running() const {
  for (const auto& s : sessions_)
    if (s->running()) return true;
  return false;
}

std::string compare_set::error() const {
  for (std::size_t i = 0; i < sessions_.size(); ++i)
    if (const session_status st = sessions_[i]->status(); st.error)
      return labels_[i] + ": " + st.note;
  return {};
}

}  // namespace hs::app
