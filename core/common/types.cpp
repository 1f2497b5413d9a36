// Names and explanations of operation kinds and statuses.
#include "core/common/types.hpp"

namespace hs {

std::string_view to_string(op_kind k) {
  switch (k) {
    case op_kind::insert: return "insert";
    case op_kind::find: return "find";
    case op_kind::erase: return "erase";
  }
  return "?";
}

std::string_view to_string(op_status s) {
  switch (s) {
    case op_status::none: return "none";
    case op_status::inserted: return "inserted";
    case op_status::replaced: return "replaced";
    case op_status::found: return "found";
    case op_status::missing: return "missing";
    case op_status::erased: return "erased";
    case op_status::rejected_key: return "rejected_key";
    case op_status::rejected_value: return "rejected_value";
    case op_status::failed_full: return "failed_full";
  }
  return "?";
}

std::string_view explain(op_status s) {
  switch (s) {
    case op_status::rejected_key:
      return "key rejected: 0xffffffff (empty) and 0xfffffffe (tombstone) are reserved sentinels";
    case op_status::rejected_value:
      return "value rejected: 0xffffffff is the reserved empty-value sentinel";
    case op_status::failed_full:
      return "insert failed: the table is full (no free slot); clear it, erase keys or use a "
             "larger capacity";
    default: return {};
  }
}

}  // namespace hs
