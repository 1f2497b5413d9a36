// bench state: what Back, Forward and table files cost on each family's table at load 0.5. A
// state is copied in the table's own memory (device memory on the GPU) for the session's
// history, and through the host for a table file; the plain copy of the same bytes to the host is
// measured beside them, the bound a file's save is held to. Host clock, medians after warm-up.
#include <filesystem>
#include <memory>
#include <string>

#include "core/bench/bench_keys.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/table_filter.hpp"
#include "core/bench/timing.hpp"
#include "core/common/format.hpp"
#include "core/table/family_registry.hpp"
#include "core/table/table_file.hpp"
#include "core/table/table_state.hpp"

namespace hs::bench::detail {

namespace {

constexpr double k_load = 0.5;

double ms_of(const bench_options& opt, stream_view s, const std::function<void()>& work) {
  return measure(s, false, opt.warmup, opt.reps, [] {}, work).median_ms;
}

std::vector<cell> family_row(family f, const bench_options& opt, const std::string& dir,
                             stream_view s) {
  table_config cfg;
  cfg.family = f;
  cfg.backend = opt.backend;
  cfg.capacity = opt.capacity ? opt.capacity : default_capacity(opt.backend);
  auto t = make_table(cfg);
  const auto n = static_cast<std::uint64_t>(k_load * double(t->capacity()));
  const key_set keys = unique_keys(t->space(), n, 1);
  t->insert(keys.keys.cspan(), keys.values.cspan(), {}, s);
  synchronize(s);
  const table_state kept = t->save_state(s);
  const double mib = double(kept.bytes()) / double(1u << 20);
  const double save = ms_of(opt, s, [&] { (void)t->save_state(s); });
  const double restore = ms_of(opt, s, [&] { t->restore_state(kept, s); });
  const std::string path = dir + "/" + std::string(to_string(f)) + ".hstable";
  const double write = ms_of(opt, s, [&] { save_table(*t, path, s); });
  const double open = ms_of(opt, s, [&] { (void)open_table(path, opt.backend, s); });
  // The plain copy, into host memory already mapped, and into memory the copy maps as it goes (as
  // a file's pages are: what copying a table to the host costs a program that has no buffer yet).
  const auto copy_into = [&](unsigned char* host) {
    std::size_t at = 0;
    for (const state_part& p : kept.parts) {
      copy_bytes(host + at, memory_space::host, p.bytes.data(), p.bytes.space(), p.bytes.size(), s);
      at += p.bytes.size();
    }
    synchronize(s);
  };
  std::vector<unsigned char> mapped(kept.bytes());
  const double copy = ms_of(opt, s, [&] { copy_into(mapped.data()); });
  const double copy_fresh = ms_of(opt, s, [&] {
    const std::unique_ptr<unsigned char[]> fresh(new unsigned char[kept.bytes()]);
    copy_into(fresh.get());
  });
  std::filesystem::remove(path);
  return {std::string(to_string(f)),
          cell(double(t->capacity()), "%.0f"),
          cell(mib, "%.1f"),
          cell(save, "%.2f"),
          cell(restore, "%.2f"),
          cell(write, "%.1f"),
          cell(copy, "%.1f"),
          cell(copy_fresh, "%.1f"),
          cell(write / copy_fresh, "%.2f"),
          cell(open, "%.1f")};
}

}  // namespace

report state_suite(const bench_options& opt) {
  report r = new_report("state", opt);
  owned_stream stream(opt.backend == backend::gpu);
  const std::string dir =
      (std::filesystem::temp_directory_path() / "hashscope-bench-state").string();
  std::filesystem::create_directories(dir);
  result_table tab;
  tab.name = "state";
  tab.title = strprintf(
      "A table's state at load %.1f: kept for Back and restored, saved to a table file and opened "
      "(ms, host clock, median of %d)",
      k_load, opt.reps);
  tab.columns = {"family",
                 "slots",
                 "state MiB",
                 "keep ms",
                 "restore ms",
                 "save file ms",
                 "copy to host ms",
                 "copy to new host ms",
                 "save / copy to new",
                 "open file ms"};
  std::vector<std::string_view> names;
  for (const family_descriptor* d : families()) names.push_back(d->name);
  const table_filter only("state", opt.only, names);  // --only takes families here
  for (const family_descriptor* d : families())
    if (only.wants(d->name)) tab.add(family_row(d->id, opt, dir, stream.view()));
  r.tables.push_back(std::move(tab));
  r.notes.push_back(
      "keep and restore copy the state in the table's own memory (the session's history); save "
      "file writes it through the host with its checksum; copy to host is the same bytes copied "
      "to pageable host memory already mapped, copy to new host the same into memory the copy "
      "maps as it goes, as a file's pages are");
  return r;
}

}  // namespace hs::bench::detail
