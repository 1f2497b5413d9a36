// Lookups in the registration list, and make_table through the family's own factory.
#include "core/table/family_registry.hpp"

#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs {

std::span<const family_descriptor* const> families() { return detail::registered_families(); }

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

std::unique_ptr<table> make_table(table_config cfg) {
  if (cfg.capacity == 0) cfg.capacity = default_capacity(cfg.backend);
  const family_descriptor& d = describe(cfg.family);
#if !HS_WITH_CUDA
  if (cfg.backend == backend::gpu)
    throw user_error("this build has no CUDA support: use --backend cpu");
#endif
  return d.make(cfg);
}

}  // namespace hs
