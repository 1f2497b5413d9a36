// Lookups in the registration list, and make_table through the family's own factory.
#include "core/table/family_registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs {

namespace {
// A function's static, so that it exists before the first family registers, whatever the order in
// which the libraries' initializers run.
// Never destroyed: a destructor that runs at exit may still look a family up.
std::vector<const family_descriptor*>& registered() {
  static auto* list = new std::vector<const family_descriptor*>;
  return *list;
}
detail::sharded_factory& sharded_maker() {
  static detail::sharded_factory make = nullptr;
  return make;
}
}  // namespace

namespace detail {
bool register_sharded_factory(sharded_factory make) {
  sharded_maker() = make;
  return true;
}

bool register_family(const family_descriptor& d) {
  auto& list = registered();
  const auto at = std::find_if(list.begin(), list.end(),
                               [&](const family_descriptor* r) { return r->id >= d.id; });
  if (at != list.end() && (*at)->id == d.id)
    throw std::logic_error("family #" + std::to_string(static_cast<int>(d.id)) +
                           " registered twice");
  list.insert(at, &d);
  return true;
}
}  // namespace detail

std::span<const family_descriptor* const> families() { return registered(); }

const family_descriptor& describe(family f) {
  for (const family_descriptor* d : families())
    if (d->id == f) return *d;
  throw user_error("family #" + std::to_string(static_cast<int>(f)) + " is not registered");
}

std::string family_names(std::string_view separator) {
  std::string s;
  for (const family_descriptor* d : families())
    s += (s.empty() ? "" : std::string(separator)) + std::string(d->name);
  return s;
}

std::string_view to_string(family f) {
  for (const family_descriptor* d : families())
    if (d->id == f) return d->name;
  return "?";
}

std::optional<family> parse_family(std::string_view s) {
  for (const family_descriptor* d : families())
    if (d->name == s) return d->id;
  return std::nullopt;
}

bool holds_width(const family_descriptor& d, key_width w) {
  return std::find(d.widths.begin(), d.widths.end(), w) != d.widths.end();
}

void set_key_width(table_config& cfg, key_width w) {
  const family_descriptor& d = describe(cfg.family);
  if (!holds_width(d, w)) {
    std::string held;
    for (const key_width h : d.widths)
      held += (held.empty() ? "" : " or ") + std::string(to_string(h));
    throw user_error("the " + std::string(d.name) + " family holds " + held + "-bit keys only");
  }
  cfg.width = w;
}

void set_family(table_config& cfg, family f) {
  const family_descriptor& d = describe(f);
  cfg.family = f;
  if (!holds_width(d, cfg.width)) cfg.width = d.widths.front();
}

std::unique_ptr<table> make_table(table_config cfg) {
  if (cfg.capacity == 0) cfg.capacity = default_capacity(cfg.backend);
  const family_descriptor& d = describe(cfg.family);
  if (!holds_width(d, cfg.width)) set_key_width(cfg, cfg.width);  // throws, naming what it holds
#if !HS_WITH_CUDA
  if (cfg.backend == backend::gpu)
    throw user_error("this build has no CUDA support: use --backend cpu");
#endif
  if (cfg.devices == 0 || cfg.devices > k_max_devices)
    throw user_error("a table is sharded over 1 to " + std::to_string(k_max_devices) +
                     " devices, not " + std::to_string(cfg.devices));
  if (cfg.devices > 1) {
    if (!sharded_maker()) throw user_error("this program was built without sharded tables");
    return sharded_maker()(cfg);
  }
  return d.make(cfg);
}

}  // namespace hs
