// `hashscope plot`: the source documents' figures from bench reports, in paper style, each saying
// where its numbers came from; reports it has no recipe for are skipped, bad folders refused.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/plot/plot_figures.hpp"
#include "app/plot/report_reader.hpp"
#include "core/bench/result_table.hpp"
#include "core/common/assets.hpp"
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
  for (const char* f : {"hive-fig9", "hive-throughput", "simple-gpu-hash-table-load-sweep",
                        "families-against-load", "slabhash-fig5"})
    for (const char* ext : {".png", ".svg", ".pdf"})
      CHECK(fs::exists(dir / "figures" / (std::string(f) + ext)));
  CHECK_FALSE(
      fs::exists(dir / "figures" / "slabhash-fig4.png"));  // the slab report has no Fig. 4 table
  CHECK(files.size() == 15);
  // Fig. 5's x is n, which the report writes as "2^18": read as a number, on a log axis.
  const std::string fig5 = test::read_text(dir / "figures" / "slabhash-fig5.svg");
  CHECK_THAT(fig5, ContainsSubstring(">search (all present)</text>"));
  CHECK_THAT(fig5, ContainsSubstring(">keys</text>"));
  const std::string fig9 = test::read_text(dir / "figures" / "hive-fig9.svg");
  CHECK_THAT(fig9, ContainsSubstring(">2: claim</text>"));
  CHECK_THAT(fig9, ContainsSubstring(">share of the inserts</text>"));
  CHECK_THAT(fig9, ContainsSubstring(
                       "NVIDIA H200"));  // the caption says the machine, the date and the command
  CHECK_THAT(fig9, ContainsSubstring("2026-11-20 10:00:00"));
  CHECK_THAT(fig9, ContainsSubstring("bench hive"));
  const std::string sweep =
      test::read_text(dir / "figures" / "simple-gpu-hash-table-load-sweep.svg");
  CHECK_THAT(sweep, ContainsSubstring(">the article&apos;s own algorithm</text>") ||
                        ContainsSubstring(">the article's own algorithm</text>"));
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

namespace {
// bench sharded's scaling rows as it writes them (counts as text), from the nvidia-h200-x4 run of
// 2026-11-28: weak scaling of both widths over 1, 2 and 4 GPUs, and a strong row the figure skips.
void write_sharded_report(const fs::path& dir) {
  std::string rows;
  const auto row = [&](const char* gpus, const char* bits, const char* scaling, const char* op,
                       double all, double ratio) {
    rows += std::string(rows.empty() ? "" : ",") + R"({"GPUs":")" + gpus + R"(","key bits":")" +
            bits + R"(","scaling":")" + scaling + R"(","op":")" + op + R"(","G ops/s":)" +
            std::to_string(all) + R"(,"a GPU / 1 GPU":)" + std::to_string(ratio) + "}";
  };
  for (const char* op : {"insert", "find-hit", "find-miss", "erase", "mix"}) {
    row("1", "32", "weak", op, 16.38, 1.0);
    row("2", "32", "weak", op, 22.52, 0.69);
    row("4", "32", "weak", op, 34.45, 0.53);
    row("1", "64", "weak", op, 12.17, 1.0);
    row("2", "64", "weak", op, 12.11, 0.50);
    row("4", "64", "weak", op, 21.23, 0.44);
  }
  row("2", "32", "strong", "insert", 99.0, 9.0);
  write(
      dir / "sharded.json",
      R"J({"suite":"sharded","metadata":{"date":"2026-11-28 19:40:24","backend":"NVIDIA H200 (GPU)",
    "timing":"median of 3 runs after 1 warm-up (CUDA events)"},"tables":[{"name":"scaling","title":"One linear table over 1 to 4 GPUs (NCCL)",
    "columns":["GPUs","key bits","scaling","op","G ops/s","a GPU / 1 GPU"],"rows":[)J" +
          rows + "]}]}");
}

// Reports with every table the figures read, each with the parameter columns bench writes beside
// the measured ones (beta, buckets), as the H200 runs wrote them.
void write_full_reports(const fs::path& dir) {
  fs::create_directories(dir);
  write(dir / "slab.json",
        R"J({"suite":"slab","metadata":{"date":"2026-11-24 13:35:08","backend":"NVIDIA H200 (GPU)",
    "roofline":"random read 39.81 G/s, random CAS 16.20 G/s, copy 4.24 TB/s","timing":"median of 5 runs after 1 warm-up (CUDA events)"},
    "tables":[{"name":"fig7a-concurrent","title":"Fig. 7a: concurrent mixed batches of 4,194,304 operations","columns":["beta","buckets","initial utilization","G0 (0.5,0.5,0,0)","G1 (0.2,0.2,0.3,0.3)","G2 (0.1,0.1,0.4,0.4)"],"rows":[
      {"beta":0.1,"buckets":2796203,"initial utilization":0.094,"G0 (0.5,0.5,0,0)":11.48,"G1 (0.2,0.2,0.3,0.3)":12.43,"G2 (0.1,0.1,0.4,0.4)":13.02},
      {"beta":0.5,"buckets":559241,"initial utilization":0.467,"G0 (0.5,0.5,0,0)":9.66,"G1 (0.2,0.2,0.3,0.3)":11.36,"G2 (0.1,0.1,0.4,0.4)":12.79},
      {"beta":3.0,"buckets":93207,"initial utilization":0.812,"G0 (0.5,0.5,0,0)":4.13,"G1 (0.2,0.2,0.3,0.3)":4.64,"G2 (0.1,0.1,0.4,0.4)":5.27}]},
     {"name":"fig4-utilization","title":"Fig. 4: build and search of 4,194,304 keys against memory utilization","columns":["beta","buckets","utilization","chained slabs","build","search-all","search-none"],"rows":[
      {"beta":0.1,"buckets":2796203,"utilization":0.094,"chained slabs":0,"build":13.73,"search-all":20.03,"search-none":23.81},
      {"beta":1.0,"buckets":279621,"utilization":0.654,"chained slabs":121081,"build":10.8,"search-all":18.44,"search-none":17.96},
      {"beta":5.0,"buckets":55925,"utilization":0.857,"chained slabs":249812,"build":5.12,"search-all":8.21,"search-none":3.55}]},
     {"name":"fig5-size","title":"Fig. 5: build and search against n at 60% expected utilization (beta 0.674; G ops/s)","columns":["n","buckets","utilization","build","search-all","search-none"],"rows":[
      {"n":"2^18","buckets":25947,"utilization":0.6,"build":4.45,"search-all":13.77,"search-none":14.92},
      {"n":"2^26","buckets":6642340,"utilization":0.601,"build":12.86,"search-all":20.42,"search-none":22.99}]}]})J");
  write(
      dir / "linear.json",
      R"J({"suite":"linear","metadata":{"date":"2026-11-24 13:35:40","backend":"NVIDIA H200 (GPU)",
    "table":"linear, 134,217,728 slots (1.00 GiB), hash murmur3, probing linear, group auto"},
    "tables":[{"name":"bulk","title":"Bulk operations on 134,217,728 slots (G ops/s; % of the roofline ceiling)","columns":["load","keys","probe mean","probe max","insert","find-hit","find-miss","erase"],"rows":[
      {"load":0.5,"keys":67108864,"probe mean":0.485,"probe max":54,"insert":17.36,"find-hit":36.83,"find-miss":32.96,"erase":13.5},
      {"load":0.9,"keys":120795955,"probe mean":4.366,"probe max":1780,"insert":11.24,"find-hit":19.96,"find-miss":3.56,"erase":10.49},
      {"load":0.95,"keys":127506841,"probe mean":9.207,"probe max":6119,"insert":8.49,"find-hit":11.52,"find-miss":0.93,"erase":7.64}]}]})J");
  write(dir / "hive.json",
        R"J({"suite":"hive","metadata":{"date":"2026-11-24 13:35:08","backend":"NVIDIA H200 (GPU)"},
    "tables":[{"name":"bulk-insert","title":"Bulk insert into an empty table up to a load, then lookups of every key","columns":["slots","load","insert","find (all hit)","stashed","refused"],"rows":[
      {"slots":"2^25","load":0.9,"insert":12.36,"find (all hit)":25.49,"stashed":0,"refused":0},
      {"slots":"2^27","load":0.9,"insert":13.3,"find (all hit)":24.7,"stashed":0,"refused":0},
      {"slots":"2^27","load":0.99,"insert":4.13,"find (all hit)":21.95,"stashed":510,"refused":0}]},
     {"name":"steps","columns":["load","inserts","1 replace","2 claim","3 evict","4 stash"],"rows":[
      {"load":0.55,"inserts":503316,"1 replace":0.0,"2 claim":1.0,"3 evict":0.0,"4 stash":0.0},
      {"load":0.97,"inserts":503316,"1 replace":0.0,"2 claim":0.5862,"3 evict":0.4138,"4 stash":0.0}]}]})J");
  write(
      dir / "seed-linear.json",
      R"J({"suite":"seed-linear","metadata":{"date":"2026-11-24 11:00:00","backend":"NVIDIA H200 (GPU)"},
    "tables":[{"name":"experiment2","columns":["load","HashScope G/s","seed G/s"],"rows":[
      {"load":0.5,"HashScope G/s":14.0,"seed G/s":9.0},{"load":0.97,"HashScope G/s":10.0,"seed G/s":4.0}]},
     {"name":"probe_lengths","columns":["load","mean"],"rows":[{"load":0.5,"mean":0.5},{"load":0.97,"mean":16.0}]}]})J");
  write_sharded_report(dir);
}

std::vector<bench_report> read_reports(const fs::path& dir) {
  std::vector<bench_report> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".json")
      out.push_back(*parse_report(test::read_text(e.path()), e.path().string()));
  return out;
}
}  // namespace

TEST_CASE("every series a figure draws is a measured column its recipe names, never a parameter",
          "[plot]") {
  const fs::path dir = fs::temp_directory_path() / "hs-plot-columns";
  fs::remove_all(dir);
  write_full_reports(dir);
  const auto declared = declared_columns();
  const auto figures = figures_from_reports(read_reports(dir));
  REQUIRE(figures.size() >= 7);
  for (const named_figure& nf : figures) {
    INFO(nf.file);
    std::size_t drawn = 0;
    for (const auto& p : nf.figure.panels) drawn += p.data.size();
    CHECK(nf.columns.size() == drawn);  // every series drawn is accounted for
    for (const std::string& c : nf.columns) {
      INFO(c);
      CHECK(std::find(declared.begin(), declared.end(), c) != declared.end());
      for (const char* parameter : {"/beta", "/buckets", "/keys", "/slots", "/n"})
        CHECK_FALSE(c.ends_with(parameter));
    }
  }
  // Fig. 7a draws the three mixes, and beta only as the caption's words, never as a series.
  const auto fig7 = std::find_if(figures.begin(), figures.end(),
                                 [](const named_figure& f) { return f.file == "slabhash-fig7"; });
  REQUIRE(fig7 != figures.end());
  REQUIRE(fig7->figure.panels.size() == 1);
  CHECK(fig7->figure.panels[0].data.size() == 3);
  for (const auto& s : fig7->figure.panels[0].data) CHECK(s.name.find("beta") == std::string::npos);
  // The cross-family figure keeps open addressing's load and the slab's utilization apart.
  const auto fam = std::find_if(figures.begin(), figures.end(), [](const named_figure& f) {
    return f.file == "families-against-load";
  });
  REQUIRE(fam != figures.end());
  REQUIRE(fam->figure.panels.size() == 3);
  CHECK(fam->figure.panels[2].x.label.find("utilization") != std::string::npos);
  for (int i = 0; i < 2; ++i)
    for (const auto& s : fam->figure.panels[i].data)
      for (double x : s.x) CHECK(x <= 1.0);
  // The caption names the device, its bandwidth, the timing, the table and the command.
  CHECK_THAT(fig7->figure.caption, ContainsSubstring("NVIDIA H200"));
  CHECK_THAT(fig7->figure.caption, ContainsSubstring("copy 4.24 TB/s"));
  CHECK_THAT(fig7->figure.caption, ContainsSubstring("median of 5 runs"));
  CHECK_THAT(fig7->figure.caption, ContainsSubstring("4,194,304 operations"));
  CHECK_THAT(fig7->figure.caption, ContainsSubstring("hashscope bench slab"));
  fs::remove_all(dir);
}

TEST_CASE("every figure keeps its text on the page and apart, at every supported page size",
          "[plot]") {
  const fs::path dir = fs::temp_directory_path() / "hs-plot-layout";
  fs::remove_all(dir);
  write_full_reports(dir);
  const auto figures = figures_from_reports(read_reports(dir));
  for (const auto& [w, h] : {std::pair{3.0, 2.2}, {3.5, 2.4}, {7.16, 3.0}, {2.5, 2.0}})
    for (const named_figure& nf : figures) {
      fig::page pg{w * static_cast<double>(nf.figure.panels.size()), h, 150, 8};
      INFO(nf.file << " on " << w << "x" << h << " in a panel");
      const auto boxes = fig::layout_text(nf.figure, pg);
      REQUIRE(boxes.size() > 5);
      const double W = pg.width_in * 72, H = pg.height_in * 72, slack = 0.25;
      for (const auto& b : boxes) {
        INFO("'" << b.text << "' at " << b.x0 << "," << b.y0 << " - " << b.x1 << "," << b.y1);
        CHECK(b.x0 >= -slack);
        CHECK(b.y0 >= -slack);
        CHECK(b.x1 <= W + slack);
        CHECK(b.y1 <= H + slack);
      }
      for (std::size_t i = 0; i < boxes.size(); ++i)
        for (std::size_t j = i + 1; j < boxes.size(); ++j) {
          const auto &a = boxes[i], &b = boxes[j];
          const bool apart = a.x1 <= b.x0 + slack || b.x1 <= a.x0 + slack || a.y1 <= b.y0 + slack ||
                             b.y1 <= a.y0 + slack;
          INFO("'" << a.text << "' and '" << b.text << "'");
          CHECK(apart);
        }
    }
  fs::remove_all(dir);
}

TEST_CASE("every measured point of every plot is a marker inside its page", "[plot]") {
  const fs::path dir = fs::temp_directory_path() / "hs-plot-markers";
  fs::remove_all(dir);
  write_full_reports(dir);
  const auto figures = figures_from_reports(read_reports(dir));
  REQUIRE(figures.size() >= 6);
  for (const named_figure& nf : figures) {
    INFO(nf.file);
    const fig::page pg{3.5 * static_cast<double>(nf.figure.panels.size()), 2.4, 150, 8};
    const auto spots = fig::layout_markers(nf.figure, pg);
    // As many markers per series name as the series have points (bars have none).
    std::map<std::string, std::size_t> want, got;
    for (const fig::panel& p : nf.figure.panels)
      for (const fig::series& s : p.data)
        if (s.kind != fig::series::bars) want[s.name] += std::min(s.x.size(), s.y.size());
    for (const fig::marker_spot& m : spots) {
      ++got[m.series];
      CHECK(m.x - m.r >= 0);  // whole, on the page
      CHECK(m.y - m.r >= 0);
      CHECK(m.x + m.r <= pg.width_in * 72);
      CHECK(m.y + m.r <= pg.height_in * 72);
    }
    CHECK(got == want);
  }
  fs::remove_all(dir);
}

TEST_CASE(
    "plot --series files are drawn beside the families; bad ones are refused with file and line",
    "[plot]") {
  const fs::path dir = fs::temp_directory_path() / "hs-plot-series";
  fs::remove_all(dir);
  write_full_reports(dir);
  write(dir / "peer.csv",
        "# cuco static_map on the H200\n"
        "label,family,operation,load,rate,min,max\n"
        "\"cuco, linear probing\",linear,insert,0.9,8.9,8.7,9.1\n"
        "\"cuco, linear probing\",linear,insert,0.5,12.6,12.5,12.8\n"
        "\"cuco, linear probing\",linear,find,0.5,27.6,27.1,27.9\n"
        "other chaining,slab,insert,0.6,9.0,8.0,9.5\n");
  const auto extra = read_series_csv((dir / "peer.csv").string());
  REQUIRE(extra.size() == 3);
  CHECK(extra[0].label == "cuco, linear probing");
  CHECK(extra[0].load == std::vector<double>{0.5, 0.9});  // sorted by load
  CHECK(extra[0].lo == std::vector<double>{12.5, 8.7});
  const auto figures = figures_from_reports(read_reports(dir), extra);
  const auto fam = std::find_if(figures.begin(), figures.end(), [](const named_figure& f) {
    return f.file == "families-against-load";
  });
  REQUIRE(fam != figures.end());
  const auto names = [&](int panel) {
    std::vector<std::string> n;
    for (const auto& s : fam->figure.panels[panel].data) n.push_back(s.name);
    return n;
  };
  const auto inserts = names(0), finds = names(1), slab = names(2);
  CHECK(std::count(inserts.begin(), inserts.end(), "cuco, linear probing") == 1);
  CHECK(std::count(finds.begin(), finds.end(), "cuco, linear probing") == 1);
  CHECK(std::count(slab.begin(), slab.end(), "other chaining (insert)") == 1);
  CHECK_THAT(fam->figure.caption, ContainsSubstring("Other series from peer.csv"));
  const auto files = plot_results(dir.string(), (dir / "figures").string(),
                                  fig::page{3.0, 2.2, 100, 8}, {(dir / "peer.csv").string()});
  CHECK_THAT(test::read_text(dir / "figures" / "families-against-load.svg"),
             ContainsSubstring(">cuco, linear probing</text>"));
  const std::string header = "label,family,operation,load,rate\n";
  const std::pair<std::string, std::string> bad[] = {
      {"label,family,operation,load\nx,linear,insert,0.5\n", "bad.csv:1: no 'rate' column"},
      {header + "x,linear,insert,0.5,fast\n", "bad.csv:2: rate 'fast' is not a number"},
      {header + "x,linear,insert,0.5,1\nx,linear,insert,1.5,1\n", "bad.csv:3: load 1.5 is outside"},
      {header + "x,robin-hood,insert,0.5,1\n", "bad.csv:2: family 'robin-hood'"},
      {header + "x,linear,upsert,0.5,1\n", "bad.csv:2: operation 'upsert'"},
      {"label,family,operation,load,rate,style\nx,linear,insert,0.5,1,dashed\n",
       "bad.csv:2: style 'dashed'"},
      {header + "x,linear,insert,0.5,1,2\n", "bad.csv:2: 6 fields where the header has 5"},
      {"label,family,operation,load,rate,min,max\nx,linear,insert,0.5,3,1,2\n",
       "bad.csv:2: the rate is not between its min and max"},
      {header + "x,linear,insert,0.5,1\nx,linear,insert,0.5,2\n", "bad.csv:3: a second rate"},
      {header + "\"x,linear,insert,0.5,1\n", "bad.csv:2: a quote is not closed"},
      {header, "holds no rows"},
      {"", "holds no rows"}};
  for (const auto& [text, message] : bad) {
    INFO(text);
    write(dir / "bad.csv", text);
    fs::remove_all(dir / "out");
    CHECK_THROWS_WITH(
        plot_results(dir.string(), (dir / "out").string(), {}, {(dir / "bad.csv").string()}),
        ContainsSubstring(message));
    CHECK_FALSE(fs::exists(dir / "out"));  // nothing written, not even the folder
  }
  fs::remove_all(dir);
}

TEST_CASE("a rate reported with its repetitions' min and max is drawn with an error bar",
          "[plot]") {
  const fs::path dir = fs::temp_directory_path() / "hs-plot-ranges";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write(
      dir / "linear.json",
      R"J({"suite":"linear","metadata":{"date":"2026-11-24 14:00:00","backend":"NVIDIA H200 (GPU)"},
    "tables":[{"name":"bulk","columns":["load","insert","insert min","insert max","find-hit"],"rows":[
      {"load":0.5,"insert":17.36,"insert min":17.1,"insert max":17.5,"find-hit":36.8},
      {"load":0.9,"insert":11.24,"insert min":11.0,"insert max":11.3,"find-hit":20.0}]}]})J");
  const auto figures = figures_from_reports(read_reports(dir));
  const auto bulk = std::find_if(figures.begin(), figures.end(),
                                 [](const named_figure& f) { return f.file == "linear-bulk"; });
  REQUIRE(bulk != figures.end());
  const auto& series = bulk->figure.panels[0].data;
  REQUIRE(series.size() == 2);
  CHECK(series[0].lo == std::vector<double>{17.1, 11.0});  // insert: its range
  CHECK(series[0].hi == std::vector<double>{17.5, 11.3});
  CHECK(series[1].lo.empty());  // find-hit has none in this report
  fs::remove_all(dir);
}

TEST_CASE("the peer series the README's figure draws reads as a --series file", "[plot]") {
  const auto peers = read_series_csv(asset_path("peers/h200-cuco-static-map.csv").string());
  REQUIRE(peers.size() == 4);  // two configurations, inserts and finds
  for (const auto& p : peers) {
    CHECK(p.load.size() == 20);
    CHECK(p.lo.size() == p.load.size());
    CHECK_FALSE(p.chaining);
  }
}

TEST_CASE("a report plot cannot read names the HashScope that wrote it", "[plot]") {
  CHECK_THROWS_WITH(
      parse_report(R"({"suite": "s", "metadata": {"hashscope": "0.0.9"}, "tables": [7]})",
                   "old.json"),
      ContainsSubstring("old.json is no bench report HashScope can read") &&
          ContainsSubstring("written by HashScope 0.0.9"));
  CHECK_THROWS_WITH(parse_report(R"({"suite": "s", "tables": [7]})", "older.json"),
                    ContainsSubstring("did not record its version"));
  // A readable report from another version is read.
  CHECK(parse_report(R"({"suite": "s", "metadata": {"hashscope": "0.0.9"}, "tables": []})",
                     "ok.json"));
}

TEST_CASE("plot draws bench sharded's scaling against the GPUs: weak rows of each width only",
          "[plot][shard]") {
  const fs::path dir = fs::temp_directory_path() / "hs-plot-sharded";
  fs::remove_all(dir);
  fs::create_directories(dir);
  write_sharded_report(dir);
  const auto figures = figures_from_reports(read_reports(dir));
  REQUIRE(figures.size() == 1);  // the other recipes find no report of theirs
  const named_figure& f = figures.front();
  CHECK(f.file == "sharded-scaling");
  REQUIRE(f.figure.panels.size() == 2);
  const auto& all = f.figure.panels[0].data;
  REQUIRE(all.size() == 5);  // insert, both finds, erase, mix
  CHECK(all[0].name == "insert");
  CHECK(all[0].x == std::vector<double>{1, 2, 4});
  CHECK(all[0].y ==
        std::vector<double>{16.38, 22.52, 34.45});  // 32-bit, weak: never the strong row
  const auto& each = f.figure.panels[1].data;
  REQUIRE(each.size() == 4);
  CHECK(each[2].name == "insert, 64-bit");
  CHECK(each[2].y == std::vector<double>{1.0, 0.50, 0.44});
  CHECK_THAT(f.figure.caption, ContainsSubstring("hashscope bench sharded"));
  CHECK_THAT(f.figure.caption, ContainsSubstring("WarpDrive"));
  const auto files = plot_results(dir.string(), (dir / "figures").string(), fig::page{});
  CHECK(fs::exists(dir / "figures" / "sharded-scaling.png"));
  CHECK(fs::exists(dir / "figures" / "sharded-scaling.pdf"));
  fs::remove_all(dir);
}
