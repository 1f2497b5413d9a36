// The loads a suite measures at: a dense default fine enough to draw curves, or --loads.
#pragma once
#include <string_view>
#include <vector>

namespace hs::bench {

/// @brief "FROM:TO:STEP" as the loads FROM, FROM + STEP, ... up to TO (within a thousandth of a
/// step, so 0.05:0.95:0.05 ends at 0.95), each rounded to 1e-9. Throws hs::user_error unless
/// 0 < FROM <= TO < 1 and STEP > 0, with at most 1000 loads.
std::vector<double> parse_load_sweep(std::string_view text);

/// @brief Open addressing's default: 0.05 to 0.95 in steps of 0.05, then each of `beyond` (the
/// loads past 0.95 the family reaches: 0.97 for linear probing, 0.97 and 0.99 for the hive).
std::vector<double> default_load_sweep(const std::vector<double>& beyond);

}  // namespace hs::bench
