// The soak's runner (soak.hpp): rounds over each table's universe, batch by batch, each answer
// checked against the account, with a checkpoint and a rebuild every few rounds.
#include "core/soak/soak.hpp"

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>

#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/common/memory.hpp"
#include "core/soak/soak_generate.hpp"
#include "core/table/table_file.hpp"
#include "core/table/table_state.hpp"

namespace hs::soak {

namespace {

constexpr std::size_t k_described = 5;  // mismatches described in full; the rest are counted

std::uint64_t name_seed(const std::string& name) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return h;
}

template <class K, class V>
void generate(backend b, const op_draw& d, std::uint64_t round, std::uint64_t first, std::size_t n,
              op_kind* kinds, K* keys, V* values, stream_view s) {
  if (b == backend::gpu) {
#if HS_WITH_CUDA
    detail::generate_on_device(d, round, first, n, kinds, keys, values, s);
    return;
#else
    throw user_error("the soak's GPU tables need a build with CUDA");
#endif
  }
  for (std::size_t j = 0; j < n; ++j) {
    kinds[j] = kind_at(d, round, first + j);
    keys[j] = key_at<K>(d, first + j);
    values[j] = value_at<V>(d, round, first + j);
  }
}

// One table's soak: the table, its buffers, and the account of what it must hold.
template <class K, class V>
class table_soak {
 public:
  table_soak(const soak_table& spec, const soak_options& opt, std::uint64_t budget)
      : spec_(spec), opt_(opt), budget_(budget) {
    result_.name = spec.name;
    draw_.seed = opt.seed ^ name_seed(spec.name);
    table_ = opt.make(spec.config);
    universe_ = table_->capacity() / 2;
    if (universe_ == 0) throw user_error("soak: table " + spec.name + " has no room");
    batch_ = std::min(opt.batch, universe_);
    const memory_space sp = table_->space();
    kinds_ = buffer<op_kind>(sp, batch_);
    keys_ = buffer<K>(sp, batch_);
    values_ = buffer<V>(sp, batch_);
    results_ = buffer<V>(sp, batch_);
    status_ = buffer<op_status>(sp, batch_);
    host_status_.resize(batch_);
    host_results_.resize(batch_);
    account_.assign(universe_, k_absent);
  }

  table_result run() {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t round = 0;
    while (result_.operations < budget_) {
      run_round(round++, false);
      if (round % static_cast<std::uint64_t>(opt_.rounds_per_checkpoint) == 0 ||
          result_.operations >= budget_)
        checkpoint(round);
    }
    result_.final_live = live_;
    result_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result_;
  }

 private:
  static constexpr V k_absent = key_limits<V>::empty;  // reserved: no insert writes it

  void mismatch(std::string what) {
    ++result_.mismatches;
    if (result_.first.size() < k_described) result_.first.push_back(std::move(what));
  }

  void run_round(std::uint64_t round, bool checking) {
    draw_.checking = checking;
    const stream_view s{};
    for (std::uint64_t first = 0; first < universe_; first += batch_) {
      const std::size_t n = static_cast<std::size_t>(std::min(batch_, universe_ - first));
      generate(table_->config().backend, draw_, round, first, n, kinds_.data(), keys_.data(),
               values_.data(), s);
      const basic_op_batch<K, V> ops{{kinds_.data(), n}, {keys_.data(), n}, {values_.data(), n}};
      table_->apply(ops, {results_.data(), n}, {status_.data(), n}, s);
      copy_bytes(host_status_.data(), memory_space::host, status_.data(), status_.space(),
                 n * sizeof(op_status), s);
      copy_bytes(host_results_.data(), memory_space::host, results_.data(), results_.space(),
                 n * sizeof(V), s);
      synchronize(s);
      check(round, first, n);
      result_.operations += n;
    }
  }

  void check(std::uint64_t round, std::uint64_t first, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint64_t i = first + j;
      V& held = account_[i];
      const bool present = held != k_absent;
      const op_kind kind = kind_at(draw_, round, i);
      const op_status got = host_status_[j];
      op_status want = op_status::missing;
      if (kind == op_kind::insert) {
        want = present ? op_status::replaced : op_status::inserted;
        live_ += present ? 0 : 1;
        held = value_at<V>(draw_, round, i);
      } else if (kind == op_kind::erase) {
        want = present ? op_status::erased : op_status::missing;
        live_ -= present ? 1 : 0;
        held = k_absent;
      } else {
        want = present ? op_status::found : op_status::missing;
        if (present && got == op_status::found && host_results_[j] != held)
          mismatch(strprintf("round %llu: find of key %s (index %llu) gave value %llu, not %llu",
                             static_cast<unsigned long long>(round),
                             key_text(key_at<K>(draw_, i), key_radix::hex).c_str(),
                             static_cast<unsigned long long>(i),
                             static_cast<unsigned long long>(host_results_[j]),
                             static_cast<unsigned long long>(held)));
      }
      if (got != want)
        mismatch(strprintf("round %llu: %s of key %s (index %llu) answered %s, not %s",
                           static_cast<unsigned long long>(round),
                           std::string(to_string(kind)).c_str(),
                           key_text(key_at<K>(draw_, i), key_radix::hex).c_str(),
                           static_cast<unsigned long long>(i), std::string(to_string(got)).c_str(),
                           std::string(to_string(want)).c_str()));
    }
  }

  // Every index looked up, the live counts compared, then one rebuild in turn.
  void checkpoint(std::uint64_t round) {
    run_round(round, true);
    ++result_.checkpoints;
    const stream_view s{};
    const table_stats st = table_->stats(s);
    if (st.live != live_)
      mismatch(strprintf("checkpoint %llu: the table counts %llu live keys, the account %llu",
                         static_cast<unsigned long long>(result_.checkpoints),
                         static_cast<unsigned long long>(st.live),
                         static_cast<unsigned long long>(live_)));
    const std::uint64_t listed = table_->retrieve_all(std::span<K>{}, std::span<V>{}, s);
    if (listed != live_)
      mismatch(strprintf("checkpoint %llu: retrieve_all lists %llu pairs, the account %llu",
                         static_cast<unsigned long long>(result_.checkpoints),
                         static_cast<unsigned long long>(listed),
                         static_cast<unsigned long long>(live_)));
    if (st.failed_full != 0)
      mismatch(
          strprintf("checkpoint %llu: %llu inserts failed for room in a table at most half "
                    "full",
                    static_cast<unsigned long long>(result_.checkpoints),
                    static_cast<unsigned long long>(st.failed_full)));
    if (opt_.progress)
      *opt_.progress << "  " << spec_.name << ": checkpoint " << result_.checkpoints << ", "
                     << format_count(result_.operations) << " operations, " << format_count(live_)
                     << " live in " << format_count(st.capacity) << " slots, " << result_.mismatches
                     << " mismatches" << std::endl;
    // The last checkpoint rebuilds nothing: no round after it would check what a rebuild made.
    if (result_.operations < budget_) rebuild(s);
  }

  void rebuild(stream_view s) {
    const std::uint64_t cap = table_->capacity();
    switch (result_.checkpoints % 5) {
      case 1: table_->rehash(cap, s); break;      // in place
      case 2: table_->rehash(cap * 2, s); break;  // grow
      case 3: table_->rehash(cap / 2, s); break;  // shrink back
      case 4: restore_through_file(s); return;
      default: {
        maintenance_policy p;
        p.rehash_above = 0.01;  // any dead slot: rebuild in place
        if (table_->maintain(p, s).what == maintenance_result::action::none) return;
        break;
      }
    }
    ++result_.rebuilds;
  }

  // Saved to a table file, read back and restored into a new table, which carries on.
  void restore_through_file(stream_view s) {
    namespace fs = std::filesystem;
    const fs::path dir = opt_.scratch.empty() ? fs::temp_directory_path() : fs::path(opt_.scratch);
    const fs::path path =
        dir / ("hashscope-soak-" + std::to_string(::getpid()) + "-" + spec_.name + ".hstable");
    write_table_file(path.string(), table_->save_state(s), s);
    table_state saved = read_table_file(path.string());
    fs::remove(path);
    table_config cfg = spec_.config;
    cfg.capacity = saved.config.capacity;
    table_ = opt_.make(cfg);
    table_->restore_state(saved, s);
    ++result_.restores;
  }

  const soak_table& spec_;
  const soak_options& opt_;
  std::uint64_t budget_ = 0, universe_ = 0, batch_ = 0, live_ = 0;
  op_draw draw_;
  std::unique_ptr<table> table_;
  buffer<op_kind> kinds_;
  buffer<K> keys_;
  buffer<V> values_, results_;
  buffer<op_status> status_;
  std::vector<op_status> host_status_;
  std::vector<V> host_results_;
  std::vector<V> account_;  // account_[i]: index i's value, or k_absent
  table_result result_;
};

}  // namespace

std::vector<soak_table> default_tables(backend b, std::uint64_t capacity) {
  const auto base = [&](family f) {
    table_config c;
    c.family = f;
    c.backend = b;
    c.capacity = capacity;
    return c;
  };
  std::vector<soak_table> out;
  out.push_back({"linear", base(family::linear)});
  table_config dh = base(family::linear);
  dh.linear.deletes = linear_delete_mode::tombstone;
  dh.linear.probe = probe_policy::double_hash;
  out.push_back({"linear-double-tombstone", dh});
  table_config wide = base(family::linear);
  wide.width = key_width::bits64;
  out.push_back({"linear-64", wide});
  wide.linear.deletes = linear_delete_mode::tombstone;
  out.push_back({"linear-64-tombstone", wide});
  out.push_back({"slab", base(family::slab)});
  out.push_back({"hive", base(family::hive)});
  return out;
}

bool soak_result::pass() const {
  return !tables.empty() &&
         std::all_of(tables.begin(), tables.end(), [](const auto& t) { return t.mismatches == 0; });
}

std::uint64_t soak_result::operations() const {
  std::uint64_t n = 0;
  for (const auto& t : tables) n += t.operations;
  return n;
}

std::string soak_result::verdict() const {
  std::uint64_t mismatches = 0, checkpoints = 0, rebuilds = 0, restores = 0;
  for (const auto& t : tables) {
    mismatches += t.mismatches;
    checkpoints += t.checkpoints;
    rebuilds += t.rebuilds;
    restores += t.restores;
  }
  return strprintf(
      "soak %s: %s operations on %zu tables (%s): %s mismatches, %s checkpoints, %s "
      "rebuilds, %s restores from table files",
      pass() ? "PASS" : "FAIL", format_count(operations()).c_str(), tables.size(), device.c_str(),
      format_count(mismatches).c_str(), format_count(checkpoints).c_str(),
      format_count(rebuilds).c_str(), format_count(restores).c_str());
}

soak_result run_soak(const soak_options& given) {
  soak_options opt = given;
  if (opt.capacity == 0) opt.capacity = opt.b == backend::gpu ? 1ull << 26 : 1ull << 14;
  if (opt.batch == 0) opt.batch = opt.b == backend::gpu ? 1ull << 22 : 1ull << 11;
  if (opt.rounds_per_checkpoint < 1)
    throw user_error("soak: rounds per checkpoint must be 1 or more");
  std::vector<soak_table> tables = default_tables(opt.b, opt.capacity);
  if (!opt.only.empty()) {
    std::vector<soak_table> chosen;
    for (const auto& name : opt.only) {
      const auto it = std::find_if(tables.begin(), tables.end(),
                                   [&](const soak_table& t) { return t.name == name; });
      if (it == tables.end()) {
        std::string names;
        for (const auto& t : tables) names += (names.empty() ? "" : ", ") + t.name;
        throw user_error("soak: no table '" + name + "' (the tables: " + names + ")");
      }
      chosen.push_back(*it);
    }
    tables = std::move(chosen);
  }
  soak_result out;
  out.device = backend_label(opt.b);
  const std::uint64_t budget = std::max<std::uint64_t>(1, opt.operations / tables.size());
  for (const auto& spec : tables) {
    if (opt.progress)
      *opt.progress << spec.name << ": " << format_count(budget) << " operations" << std::endl;
    out.tables.push_back(with_key_width(spec.config.width, [&](auto key) {
      using K = decltype(key);
      return table_soak<K, value_of_key<K>>(spec, opt, budget).run();
    }));
  }
  return out;
}

}  // namespace hs::soak
