// The slab family below its views: buckets sized from the capacity, its mode in the numbers, and
// its counts (SlabAlloc's pool, chained slabs, memory utilization, list lengths).
#include "app/families/family_hooks.hpp"
#include "app/session/session.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace {

void prepare(table_config& c) {
  c.slab.buckets = 0;
}  // from the capacity, unless a line says otherwise

void about_rows(number_rows& n, const session& s, const table_stats&) {
  n.emplace_back("slab mode", s.config().table.slab.mode == slab_mode::unique
                                  ? "unique keys: INSERT replaces, DELETE leaves a tombstone"
                                  : "multi: duplicates kept, DELETE empties the pair");
}

void count_rows(number_rows& n, const session&, const sample_result& r) {
  const table_stats& t = r.stats;
  n.emplace_back("buckets (base slabs)", format_count(t.slab.buckets));
  n.emplace_back("load (live / 15 per bucket = beta)", strprintf("%.4f", t.load_factor()));
  n.emplace_back("memory utilization",
                 strprintf("%.4f (stored bytes / slab memory in use)", t.slab.utilization));
  n.emplace_back("chained slabs / longest list",
                 format_count(t.slab.chained_slabs) + " / " + format_count(t.slab.longest_chain));
  n.emplace_back("slabs allocated by SlabAlloc",
                 format_count(t.slab.allocated_slabs) +
                     (t.slab.allocated_slabs == t.slab.chained_slabs ? " (all in lists)"
                                                                     : " (some in no list)"));
  n.emplace_back("SlabAlloc pool",
                 strprintf("%s slabs in %s super blocks", format_count(t.slab.pool_slabs).c_str(),
                           format_count(t.slab.super_blocks).c_str()));
  n.emplace_back(
      "resident changes / failed allocations",
      format_count(t.slab.resident_changes) + " / " + format_count(t.slab.alloc_failures));
  n.emplace_back("live pairs", format_count(t.live));
  n.emplace_back("tombstones", format_count(t.tombstones));
  const probe_histogram& ch = r.inspected.slab.chains;
  if (ch.total)
    n.emplace_back("list length mean / max (slabs)", strprintf("%.4f / %u", ch.mean(), ch.max));
}

constexpr std::string_view k_figures[] = {"chains", "code", "lanes", "allocator"};

}  // namespace

const family_hooks& slab_hooks() {
  static const family_hooks h = [] {
    family_hooks f;
    f.id = family::slab;
    f.figures = k_figures;
    f.prepare = prepare;
    f.about_rows = about_rows;
    f.count_rows = count_rows;
    f.read_unit = "slabs";
    f.histogram_measure = "slab position of a key";
    f.failed_label = "failed (SlabAlloc exhausted)";
    return f;
  }();
  return h;
}

}  // namespace hs::app
