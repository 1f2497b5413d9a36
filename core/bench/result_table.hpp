// Benchmark results as tables: printed like the seed documents' own tables, written as CSV, and
// gathered with run metadata into one JSON report.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace hs::bench {

/// @brief One cell: its printed text, and its number for CSV/JSON when it has one.
struct cell {
  std::string text;
  std::optional<double> number;
  cell(std::string t) : text(std::move(t)) {}
  cell(const char* t) : text(t) {}
  cell(double v, const char* fmt);
};

struct result_table {
  std::string name;   ///< file-name friendly, e.g. "experiment2"
  std::string title;  ///< printed above the table
  std::vector<std::string> columns;
  std::vector<std::vector<cell>> rows;

  void add(std::vector<cell> row) { rows.push_back(std::move(row)); }
  void print(std::ostream& os) const;
  std::string csv() const;
};

/// @brief A suite's output: metadata, tables and free-form notes.
struct report {
  std::string suite;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<result_table> tables;
  std::vector<std::string> notes;

  /// Prints metadata, tables and notes to os.
  void print(std::ostream& os) const;
  /// Writes <dir>/<suite>-<table>.csv per table and <dir>/<suite>.json; returns the file paths.
  std::vector<std::string> write(const std::string& dir) const;
};

}  // namespace hs::bench
