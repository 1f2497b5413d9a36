// The session's records for the common views, bounded.
#include "app/session/records.hpp"

#include <algorithm>

#include "core/common/format.hpp"

namespace hs::app {

namespace {
template <class T>
void push_bounded(std::vector<T>& v, T p) {
  v.push_back(std::move(p));
  if (v.size() > k_records_max) v.erase(v.begin(), v.begin() + k_records_max / 4);
}
}  // namespace

batch_kind kind_of(const workload::batch_plan& plan) {
  if (plan.only(op_kind::insert)) return batch_kind::insert;
  if (plan.only(op_kind::find)) return batch_kind::find;
  if (plan.only(op_kind::erase)) return batch_kind::erase;
  return batch_kind::mixed;
}

std::string_view to_string(batch_kind k) {
  switch (k) {
    case batch_kind::insert: return "insert";
    case batch_kind::find: return "find";
    case batch_kind::erase: return "erase";
    case batch_kind::mixed: return "mixed";
  }
  return "?";
}

std::string batch_kind_label(batch_kind k) { return std::string(to_string(k)) + " batches"; }

void session_records::add_batch(const batch_point& p) { push_bounded(series_, p); }

void session_records::add_census(const census_point& p) { push_bounded(timeline_, p); }

void session_records::add_event(std::uint64_t batch, std::string label) {
  events_.push_back({batch, std::move(label)});
}

void session_records::add_rebuild(std::uint64_t batch, const maintenance_result& r) {
  if (r.what == maintenance_result::action::none) return;
  add_event(batch, r.what == maintenance_result::action::rehash
                       ? std::string("rehash")
                       : strprintf("%s to %s", std::string(to_string(r.what)).c_str(),
                                   format_count(r.to_capacity).c_str()));
}

void session_records::clear() {
  series_.clear();
  timeline_.clear();
  events_.clear();
}

std::string rebuild_label(std::uint64_t from, std::uint64_t to) {
  if (to == from) return "rehash";
  return strprintf("%s to %s", to > from ? "grow" : "shrink", format_count(to).c_str());
}

void session_records::cut(std::uint64_t batches, std::uint64_t batch, std::size_t events) {
  series_.resize(series_.size() - std::min<std::uint64_t>(batches, series_.size()));
  while (!timeline_.empty() && timeline_.back().batch > batch) timeline_.pop_back();
  if (events < events_.size()) events_.resize(events);
}

}  // namespace hs::app
