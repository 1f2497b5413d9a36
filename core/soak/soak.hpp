// `hashscope soak`: a long mixed workload on every family, checked against an independent account
// of what each table must hold. Each table's keys come from a universe of indices (soak_ops.hpp);
// the account is a plain array indexed by them, kept on the host from the operations alone, and
// every status and found value the table returns is compared with it. Every few rounds a
// checkpoint looks every index up and compares the live count, then rebuilds the table in turn in
// place, twice as large, back again, or through a table file into a new table (save and restore),
// or by its maintenance policy.
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "core/table/table.hpp"

namespace hs::soak {

/// @brief One table of the soak: a name and the config it starts from.
struct soak_table {
  std::string name;  ///< "linear", "linear-64-tombstone", "slab", "hive", ...
  table_config config;
};

/// @brief Every family and option the soak runs by default: linear probing with value deletes and
/// double hashing with tombstones at 32 bits, both delete modes at 64 bits, the slab hash, the
/// hive. `capacity` is each table's starting size.
std::vector<soak_table> default_tables(backend b, std::uint64_t capacity);

struct soak_options {
  backend b = backend::cpu;
  std::uint64_t operations = 1'000'000;  ///< in all, shared evenly between the tables
  std::uint64_t capacity = 0;            ///< slots a table starts with (0: 2^26 GPU, 2^14 CPU)
  std::uint64_t batch = 0;  ///< operations a batch (0: 2^22 GPU, 2^11 CPU; at most the universe)
  std::uint64_t seed = 1;
  int rounds_per_checkpoint = 4;
  std::vector<std::string> only;  ///< run only these tables (empty: all of default_tables)
  std::string scratch;            ///< folder for the table files (empty: the system's temp folder)
  /// Makes each table (tests wrap the real table to prove that a wrong answer fails the soak).
  std::function<std::unique_ptr<table>(const table_config&)> make = make_table;
  std::ostream* progress = nullptr;  ///< a line per checkpoint, if set
};

/// @brief What one table's soak found.
struct table_result {
  std::string name;
  std::uint64_t operations = 0, checkpoints = 0, rebuilds = 0, restores = 0;
  std::uint64_t mismatches = 0;    ///< statuses, values or counts unlike the account's
  std::vector<std::string> first;  ///< the first few mismatches, described
  std::uint64_t final_live = 0;
  double seconds = 0;
};

struct soak_result {
  std::string device;  ///< backend_label
  std::vector<table_result> tables;
  bool pass() const;
  std::uint64_t operations() const;
  /// @brief "soak PASS: 10,000,000,000 operations on 6 tables (...): 0 mismatches, ...".
  std::string verdict() const;
};

/// @brief Runs the soak; throws hs::user_error for an unknown table name or impossible options.
soak_result run_soak(const soak_options& opt);

}  // namespace hs::soak
