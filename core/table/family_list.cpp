// The registration list: one line per family (its descriptor lives in its own folder). Adding a
// family: its folder under core/, its options in table.hpp, its line here, and its views in
// app/families/ (see core/table/README.md).
#include "core/table/family_registry.hpp"

namespace hs {
namespace linear {
const family_descriptor& registration();
}
namespace slab {
const family_descriptor& registration();
}
namespace hive {
const family_descriptor& registration();
}

namespace detail {
std::span<const family_descriptor* const> registered_families() {
  static const family_descriptor* const list[] = {&linear::registration(), &slab::registration(),
                                                  &hive::registration()};
  return list;
}
}  // namespace detail
}  // namespace hs
