// Compare mode's tables: one workload (same seed, same keys, same batches) run on two or three
// tables at once, each in a session of its own, every command sent to all of them. Entries name a
// family with options ("linear:hash=identity", "hive:slots=32:depth=4"); before any table is made
// the set checks that they fit in GPU memory together.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/session/session.hpp"

namespace hs::app {

struct compare_entry {
  std::string label;  ///< as written: "linear:hash=identity"
  table_config table;
};

/// @brief One entry: a registered family, then `:name=value` options of its own table line, or
/// `hash=`, `capacity=` (on top of `base`). Throws hs::user_error naming what is wrong.
compare_entry parse_compare_entry(std::string_view text, const table_config& base);
/// @brief The entry text that parse_compare_entry reads back to `cfg` on top of `base`: the family,
/// then the options where they differ from what the bare family name would make.
std::string format_compare_entry(const table_config& cfg, const table_config& base);

/// @brief Throws hs::user_error unless tables of these configs fit together in `free_bytes` (with a
/// tenth kept back for the workload's batches and the views), saying how much is missing.
void check_fits_together(const std::vector<compare_entry>& entries, std::uint64_t free_bytes);

class compare_set {
 public:
  static constexpr std::size_t k_max_tables = 3;
  /// @brief Makes a session per entry with `base`'s workload and policies; throws hs::user_error
  /// for fewer than 2 or more than 3 entries, or tables that do not fit in GPU memory together.
  compare_set(const std::vector<compare_entry>& entries, const session_config& base);

  std::size_t size() const { return sessions_.size(); }
  session& at(std::size_t i) { return *sessions_[i]; }
  const session& at(std::size_t i) const { return *sessions_[i]; }
  const std::string& label(std::size_t i) const { return labels_[i]; }

  void run();
  void pause();
  void step(std::uint64_t ops = 0);
  void step(const std::vector<given_op>& ops);
  void fill_to(double load);
  void reset();
  /// @brief Back and Forward on every table together: refused, naming the table and why, unless
  /// every table can (so the compared tables stay on one workload).
  void back(std::uint64_t n = 1);
  void forward(std::uint64_t n = 1);
  void queue(const std::vector<script_step>& steps);
  void continue_script();
  void wait_idle();
  /// @brief Whether any table's script waits at a pause (all hold at the same stage).
  bool held() const;
  /// @brief Whether any table is doing something (running, filling, stepping, a script).
  bool running() const;
  /// @brief The first table's status note that is an error, or empty.
  std::string error() const;

 private:
  std::vector<std::unique_ptr<session>> sessions_;
  std::vector<std::string> labels_;
};

}  // namespace hs::app
