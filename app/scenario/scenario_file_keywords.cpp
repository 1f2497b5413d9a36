// The scenario keywords that name files: `keys file PATH ...` and `load table` / `save table PATH`,
// each path a neighbour of the scenario file when relative, in double quotes when it holds spaces.
#include <filesystem>
#include <sstream>

#include "app/scenario/scenario_parse_state.hpp"
#include "app/session/terminal_progress.hpp"
#include "core/common/error.hpp"

namespace hs::app {

// The path after the line's word `word` (in double quotes when it holds spaces), made the scenario
// file's neighbour when relative; what follows it goes to `rest`.
namespace {

std::string path_after(const scenario_parse& s, const keyword_line& l, std::string_view word,
                       const std::string& usage, const char* whose, std::string& rest) {
  rest = l.text.substr(l.text.find(word) + word.size());
  const auto start = rest.find_first_not_of(" \t");
  if (start == std::string::npos) l.p.fail(usage);
  rest = rest.substr(start);
  std::string path;
  if (rest.front() == '"') {
    const auto close = rest.find('"', 1);
    if (close == std::string::npos) l.p.fail(std::string(whose) + " path has no closing quote");
    path = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
  } else {
    const auto end = rest.find_first_of(" \t");
    path = rest.substr(0, end);
    rest = end == std::string::npos ? "" : rest.substr(end);
  }
  namespace fs = std::filesystem;
  if (fs::path(path).is_relative() && !s.sc.file.empty())
    path = (fs::path(s.sc.file).parent_path() / path).lexically_normal().string();
  return path;
}

}  // namespace

// `keys file PATH [column N] [format F]`: the class's own keys. A relative path is the scenario
// file's neighbour; a path with spaces is written in double quotes. The file is read here, so a
// scenario that names a bad one is refused at this line with the loader's reason.
void keys_file(scenario_parse& s, const keyword_line& l) {
  constexpr const char* usage =
      "usage: keys file PATH [column N] [format auto|decimal|hex|text|u32le|u64le]";
  if (l.w[1] != "file") l.p.fail(usage);
  workload::key_file_spec spec;
  spec.width = s.sc.config.table.width;  // the width so far: its keys are read for it
  std::string rest;
  spec.path = path_after(s, l, "file", usage, "the key file's", rest);
  std::istringstream more(rest);
  for (std::string name, value; more >> name;) {
    if (!(more >> value)) l.p.fail("'" + name + "' needs a value (" + usage + ")");
    if (name == "column") {
      const std::uint64_t c = l.p.size(value, "column");
      if (c == 0 || c > 1u << 20) l.p.fail("column " + value + ": columns count from 1");
      spec.column = static_cast<std::uint32_t>(c);
    } else if (name == "format") {
      const auto f = workload::parse_key_format(value);
      if (!f)
        l.p.fail("unknown key format '" + value + "' (auto, decimal, hex, text, u32le, u64le)");
      spec.format = *f;
    } else {
      l.p.fail("unknown option '" + name + "' (" + usage + ")");
    }
  }
  try {
    s.now.workload.key_file =
        workload::load_key_file(spec, terminal_progress("reading " + spec.path));
  } catch (const user_error& e) {
    l.p.fail(e.what());
  }
  s.now.workload.keys.dist = workload::distribution::file;
}

// `load table PATH`, `save table PATH`: a table file (table_file.hpp), a relative path being the
// scenario file's neighbour, a path with spaces in double quotes. A file to load is read when the
// step runs (an earlier `save table` may write it).
void table_file(scenario_parse& s, const keyword_line& l) {
  const bool load = l.w[0] == "load";
  const std::string usage = std::string("usage: ") + (load ? "load" : "save") + " table PATH";
  if (l.w[1] != "table") l.p.fail(usage);
  std::string rest;
  scenario_step st;
  st.kind = load ? scenario_step::load_table : scenario_step::save_table;
  st.text = path_after(s, l, "table", usage, "the table file's", rest);
  if (rest.find_first_not_of(" \t\r") != std::string::npos)
    l.p.fail(usage + " (a path with spaces is written in double quotes)");
  s.push(st, l.p.line);
}

}  // namespace hs::app
