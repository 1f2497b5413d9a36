// The source documents' figures from
// the JSON reports `bench` writes, in paper style (PNG, SVG, PDF): the Simple GPU Hash Table
// article's load sweep, the SlabHash paper's Fig. 4, 5 and 7, the Hive paper's Fig. 9 and
// throughput against load, the linear table's bulk rates, and one figure of every family's insert
// and find rates against load on the same axes. Each figure says the machine, the date and the
// command its numbers came from.
#pragma once
#include <string>
#include <vector>

#include "app/plot/plot_series_csv.hpp"
#include "app/plot/report_reader.hpp"
#include "visualizers/figure/figure.hpp"

namespace hs::app {

/// @brief Writes every figure the reports in `results_dir` have the numbers for into `out_dir`,
/// with the series of the `series_files` (--series CSVs) in the cross-family figure; returns the
/// files written. Throws hs::user_error, before writing anything, when the folder holds no
/// report, a report cannot be read or a series file is bad (naming the file and line).
std::vector<std::string> plot_results(const std::string& results_dir, const std::string& out_dir,
                                      const fig::page& page,
                                      const std::vector<std::string>& series_files = {});

/// @brief A figure and the file name (without extension) it is written under.
struct named_figure {
  std::string file;
  fig::figure figure;
  /// "suite/table/column" of each series drawn, panel by panel: every one a column the figure's
  /// recipe names.
  std::vector<std::string> columns;
};
/// @brief Every "suite/table/column" some figure may plot as a series.
std::vector<std::string> declared_columns();
/// @brief Every figure the reports have the numbers for (a later report of a suite wins).
std::vector<named_figure> figures_from_reports(const std::vector<bench_report>& reports,
                                               const std::vector<extra_series>& extra = {});

}  // namespace hs::app
