// `hashscope plot`: the source documents' figures from bench reports, in paper style, each saying
// where its numbers came from; reports it has no recipe for are skipped, bad folders refused.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/plot_command.hpp"
#include "app/report_reader.hpp"
#include "core/bench/result_table.hpp"
#include "core/common/error.hpp"
#include "tests/support/file_support.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {
void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
}  // namespace

TEST_CASE(
    "plot draws the seed documents' figures from bench reports, saying where the numbers came from",
    "[plot]") {
  const fs::path dir = fs::temp_directory_path() / "hs-plot-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write(dir / "hive.json",
        R"J({"suite":"hive","metadata":{"date":"2026-11-20 10:00:00","backend":"NVIDIA H200 (GPU)"},
    "tables":[{"name":"steps","columns":["load","inserts","1 replace","2 claim","3 evict","4 stash"],"rows":[
      {"load":0.5,"inserts":100,"1 replace":0.0,"2 claim":1.0,"3 evict":0.0,"4 stash":0.0},
      {"load":0.9,"inserts":100,"1 replace":0.0,"2 claim":0.93,"3 evict":0.06,"4 stash":0.01}]},
     {"name":"bulk-insert","columns":["slots","load","insert","find (all hit)"],"rows":[
      {"slots":"2^25","load":0.9,"insert":11.2,"find (all hit)":17.9},{"slots":"2^25","load":0.97,"insert":6.1,"find (all hit)":16.0},
      {"slots":"2^27","load":0.9,"insert":11.7,"find (all hit)":16.7}]}]})J");
  write(
      dir / "seed-linear.json",
      R"J({"suite":"seed-linear","metadata":{"date":"2026-11-20 11:00:00","backend":"NVIDIA H200 (GPU)"},
    "tables":[{"name":"experiment2","columns":["load","HashScope G/s","seed G/s"],"rows":[
      {"load":0.25,"HashScope G/s":14.0,"seed G/s":9.0},{"load":0.75,"HashScope G/s":10.0,"seed G/s":4.0}]}]})J");
  write(dir / "slab.json",
        R"J({"suite":"slab","metadata":{"date":"2026-11-20 12:00:00","backend":"NVIDIA H200 (GPU)"},
    "tables":[{"name":"fig5-size","columns":["n","buckets","utilization","build","search-all","search-none"],"rows":[
      {"n":"2^18","buckets":25947,"utilization":0.6,"build":4.5,"search-all":13.8,"search-none":14.9},
      {"n":"2^22","buckets":415147,"utilization":0.6,"build":13.7,"search-all":19.5,"search-none":21.8}]}]})J");
  write(dir / "notes.json", R"({"not":"a report"})");
  const auto files =
      plot_results(dir.string(), (dir / "figures").string(), fig::page{3.0, 2.2, 100, 8});
  for (const char* f : {"seed003-fig9", "seed003-throughput", "seed000-load-sweep",
                        "families-against-load", "seed004-fig5"})
    for (const char* ext : {".png", ".svg", ".pdf"})
      CHECK(fs::exists(dir / "figures" / (std::string(f) + ext)));
  CHECK_FALSE(
      fs::exists(dir / "figures" / "seed004-fig4.png"));  // the slab report has no Fig. 4 table
  CHECK(files.size() == 15);
  // Fig. 5's x is n, which the report writes as "2^18": read as a number, on a log axis.
  const std::string fig5 = test::read_text(dir / "figures" / "seed004-fig5.svg");
  CHECK_THAT(fig5, ContainsSubstring(">search (all present)</text>"));
  CHECK_THAT(fig5, ContainsSubstring(">keys</text>"));
  const std::string fig9 = test::read_text(dir / "figures" / "seed003-fig9.svg");
  CHECK_THAT(fig9, ContainsSubstring(">2: claim</text>"));
  CHECK_THAT(fig9, ContainsSubstring(">share of the inserts</text>"));
  CHECK_THAT(fig9, ContainsSubstring(
                       "NVIDIA H200"));  // the caption says the machine, the date and the command
  CHECK_THAT(fig9, ContainsSubstring("2026-11-20 10:00:00"));
  CHECK_THAT(fig9, ContainsSubstring("bench hive"));
  const std::string sweep = test::read_text(dir / "figures" / "seed000-load-sweep.svg");
  CHECK_THAT(sweep, ContainsSubstring(">seed 000&apos;s algorithm</text>") ||
                        ContainsSubstring(">seed 000's algorithm</text>"));
  fs::remove_all(dir);
}

TEST_CASE("plot names the probing the linear suite ran with", "[plot]") {
  const fs::path dir = fs::temp_directory_path() / "hs-plot-probing";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string rows =
      R"J("tables":[{"name":"bulk","columns":["load","probe mean","insert","find-hit","find-miss","erase"],"rows":[
      {"load":0.5,"probe mean":0.38,"insert":16.6,"find-hit":28.7,"find-miss":20.0,"erase":11.9},
      {"load":0.9,"probe mean":1.54,"insert":10.5,"find-hit":15.3,"find-miss":4.2,"erase":8.6}]}]})J";
  write(
      dir / "linear.json",
      R"J({"suite":"linear","metadata":{"date":"2026-11-23 14:11:18","backend":"NVIDIA H200 (GPU)",
    "table":"linear, 134,217,728 slots (1.00 GiB), hash murmur3, probing double, group auto"},)J" +
          rows);
  plot_results(dir.string(), (dir / "double").string(), fig::page{3.0, 2.2, 100, 8});
  const std::string twice = test::read_text(dir / "double" / "linear-bulk.svg");
  CHECK_THAT(twice, ContainsSubstring(">Double hashing: bulk rates against load</text>"));
  CHECK_THAT(twice, ContainsSubstring(">mean probe length (probes)</text>"));
  CHECK_THAT(twice, ContainsSubstring("bench linear --probe double"));
  CHECK_THAT(test::read_text(dir / "double" / "families-against-load.svg"),
             ContainsSubstring(">double hashing</text>"));
  write(
      dir / "linear.json",
      R"J({"suite":"linear","metadata":{"date":"2026-11-23 14:10:00","backend":"NVIDIA H200 (GPU)",
    "table":"linear, 134,217,728 slots (1.00 GiB), hash murmur3, probing linear, group auto"},)J" +
          rows);
  plot_results(dir.string(), (dir / "linear").string(), fig::page{3.0, 2.2, 100, 8});
  const std::string once = test::read_text(dir / "linear" / "linear-bulk.svg");
  CHECK_THAT(once, ContainsSubstring(">Linear probing: bulk rates against load</text>"));
  CHECK_THAT(once, !ContainsSubstring("--probe double"));
  fs::remove_all(dir);
}

TEST_CASE("plot refuses a folder without reports, and names a report that is not JSON", "[plot]") {
  const fs::path dir = fs::temp_directory_path() / "hs-plot-bad";
  fs::remove_all(dir);
  fs::create_directories(dir);
  CHECK_THROWS_WITH(plot_results(dir.string(), (dir / "f").string(), {}),
                    ContainsSubstring("holds no bench report"));
  write(dir / "linear.json", "{\"suite\": \"linear\", ");
  CHECK_THROWS_WITH(plot_results(dir.string(), (dir / "f").string(), {}),
                    ContainsSubstring("linear.json is not valid JSON"));
  fs::remove_all(dir);
}

TEST_CASE(
    "a report bench writes reads back; one whose parts are not a report's is refused with its name",
    "[plot]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-report-round-trip";
  fs::remove_all(dir);
  bench::report r;
  r.suite = "linear";
  r.metadata = {{"backend", "NVIDIA H200 (GPU)"}, {"table", "2^27 slots, probing double"}};
  bench::result_table t{"bulk", "Bulk rates \"quoted\"", {"load", "insert (G/s)", "note"}};
  t.add({bench::cell(0.5, "%.2f"), bench::cell(19.52, "%.2f"), bench::cell("a, b")});
  r.tables.push_back(t);
  r.notes = {"one note"};
  const auto files = r.write(dir.string());
  const std::string text = test::read_text(dir / "linear.json");
  const auto back = parse_report(text, "linear.json");
  REQUIRE(back);
  CHECK(back->suite == "linear");
  CHECK(back->doc["metadata"]["table"] == "2^27 slots, probing double");
  CHECK(back->doc["tables"][0]["title"] == "Bulk rates \"quoted\"");
  CHECK(back->doc["tables"][0]["rows"][0]["insert (G/s)"] == 19.52);
  CHECK(back->doc["tables"][0]["rows"][0]["note"] == "a, b");
  CHECK_FALSE(parse_report(R"({"not":"a report"})", "x.json"));
  CHECK_FALSE(parse_report("[1, 2]", "x.json"));
  for (const char* bad :
       {R"({"suite": 3, "tables": []})", R"({"suite": "s", "metadata": [1], "tables": []})",
        R"({"suite": "s", "metadata": {"date": 5}, "tables": []})", R"({"suite": "s"})",
        R"({"suite": "s", "tables": [7]})",
        R"({"suite": "s", "tables": [{"name": "t", "columns": [1], "rows": []}]})",
        R"({"suite": "s", "tables": [{"name": "t", "columns": ["a"], "rows": [{"a": [1]}]}]})"}) {
    INFO(bad);
    CHECK_THROWS_WITH(parse_report(bad, "bad.json"),
                      ContainsSubstring("bad.json is no bench report HashScope can read"));
  }
  CHECK_THROWS_WITH(parse_report("{\"suite\": ", "cut.json"),
                    ContainsSubstring("cut.json is not valid JSON"));
  fs::remove_all(dir);
}
