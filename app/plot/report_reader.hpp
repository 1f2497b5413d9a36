// Reading back the JSON reports `bench` writes (core/bench/result_table.cpp), for `plot`: a
// report is checked whole where it is read, so that every later access finds what it expects, and
// a file that is not what it claims to be is refused with its name and what is wrong.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace hs::app {

struct bench_report {
  std::string path;
  std::string suite;
  nlohmann::json doc;  ///< checked: metadata of strings, tables of name, columns and rows
};

/// @brief The report in `text` (read from `path`); nothing when it is JSON but no bench report
/// (it has no "suite": metadata files, other tools' JSON). Throws hs::user_error naming `path`
/// for text that is not JSON or a report whose parts are not what a report holds.
std::optional<bench_report> parse_report(const std::string& text, const std::string& path);

}  // namespace hs::app
