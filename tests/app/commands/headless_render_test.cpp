// Headless rendering (Mesa's EGL here, NVIDIA's on the GPU machine): a scenario renders to PNGs of
// the requested size whose heatmap colours encode the table's actual load factor.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/commands/render_command.hpp"
#include "app/platform/png.hpp"
#include "core/shard/sharded_view.hpp"
#include "core/table/table.hpp"
#include "tests/support/file_support.hpp"
#include "visualizers/colormap.hpp"

using namespace hs;
using namespace hs::app;
namespace fs = std::filesystem;

namespace {
/// Mean live fraction inside the rectangle, decoded by nearest colormap entry.
double decoded_live_fraction(const std::vector<std::uint8_t>& px, int width,
                             const std::array<float, 4>& r, const vis::colormap& m) {
  double sum = 0;
  std::uint64_t n = 0;
  for (int y = static_cast<int>(r[1]) + 1; y < static_cast<int>(r[1] + r[3]) - 1; ++y)
    for (int x = static_cast<int>(r[0]) + 1; x < static_cast<int>(r[0] + r[2]) - 1; ++x) {
      const std::uint8_t* p = &px[(static_cast<std::size_t>(y) * width + x) * 4];
      int best = 0, best_d = 1 << 30;
      for (int i = 0; i < vis::k_colormap_size; ++i) {
        const auto& c = m.lut[static_cast<std::size_t>(i)];
        const int d =
            (c.r - p[0]) * (c.r - p[0]) + (c.g - p[1]) * (c.g - p[1]) + (c.b - p[2]) * (c.b - p[2]);
        if (d < best_d) best_d = d, best = i;
      }
      sum += best / 255.0;
      ++n;
    }
  return n ? sum / n : -1;
}

/// Renders scenario `text` (as dir/c.scn) in paper style, 3.0x2.0 in at 100 dpi, into a fresh dir.
render_result render_paper_in(const fs::path& dir, const std::string& text) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  const scenario sc = parse_scenario(text, (dir / "c.scn").string());
  render_style style;
  style.paper = true;
  style.page = {3.0, 2.0, 100, 8};
  return render_scenario(sc, dir.string(), backend_choice::cpu, 0, 800, 600, 14.f, style);
}
}  // namespace

TEST_CASE("a churn scenario renders its timeline with the rebuilds marked", "[render][headless]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-churn";
  fs::remove_all(dir);
  const scenario sc = parse_scenario(
      "capacity 2^14\nbackend cpu\nbatch 1k\nmix insert:0.5,erase:0.5\nmaintain "
      "rehash=0.3\ntimeline on\n"
      "fill 0.4\nrun 30\ncapture timeline\n",
      (dir / "c.scn").string());
  const render_result r = render_scenario(sc, dir.string(), backend_choice::cpu, 0, 800, 600, 14.f);
  REQUIRE(r.figures.size() == 1);
  CHECK(r.figures[0].view == "timeline");
  const auto csv = std::find_if(r.data_files.begin(), r.data_files.end(), [](const std::string& f) {
    return f.find("timeline.csv") != std::string::npos;
  });
  REQUIRE(csv != r.data_files.end());
  std::ifstream in(*csv);
  std::string line;
  int rows = 0, rebuilt = 0;
  std::getline(in, line);
  CHECK(line.rfind("batch,capacity,load,tombstones,erased", 0) == 0);
  while (std::getline(in, line)) {
    ++rows;
    rebuilt += line.find("rehash") != std::string::npos;
  }
  CHECK(rows >= 30);
  CHECK(rebuilt >= 1);
}

TEST_CASE("a headless render writes figures whose heatmap shows the load factor",
          "[render][headless]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-test";
  fs::remove_all(dir);
  const scenario sc = parse_scenario(
      "title test\ncapacity 2^16\nbackend cpu\nbatch 8k\nfill 0.62\ncapture heatmap histogram\n"
      "capture heatmap range=0:2048\n",
      (dir / "t.scn").string());
  const render_result r = render_scenario(sc, dir.string(), backend_choice::cpu, 0, 900, 640, 16.f);
  REQUIRE(r.figures.size() == 3);
  const vis::colormap viridis = vis::load_colormap("viridis");
  for (const rendered_figure& f : r.figures) {
    CAPTURE(f.png);
    int w = 0, h = 0;
    const auto px = read_png(f.png, w, h);
    CHECK(w == 900);
    CHECK(h == 640);
    CHECK(f.load == Catch::Approx(0.62).margin(1e-4));
    if (f.view != "heatmap") continue;
    REQUIRE(f.view_rect[2] > 50);
    REQUIRE(f.view_rect[3] > 50);
    const double live = decoded_live_fraction(px, w, f.view_rect, viridis);
    // Whole table: pixels average several slots. Zoomed to slots: every cell is all or nothing,
    // and a 2048-slot window deviates a little from the table-wide load.
    CHECK(live == Catch::Approx(0.62).margin(f.capture == 1 ? 0.01 : 0.05));
  }
  CHECK(fs::exists(r.metadata));
  std::ifstream meta(r.metadata);
  const std::string text((std::istreambuf_iterator<char>(meta)), std::istreambuf_iterator<char>());
  CHECK(text.find("\"backend\":\"CPU model") != std::string::npos);
  CHECK(text.find("\"seed\":") != std::string::npos);
  CHECK(r.data_files.size() >= 4);
}

TEST_CASE("capture heatmap device=D draws that device's shard alone", "[render][headless][shard]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-device";
  fs::remove_all(dir);
  // 300 keys that device 1 of 2 owns, stepped in: its 512 slots hold them all, device 0's none.
  const std::string head = "title shards\ncapacity 2^10\ngpus 2\nbackend cpu\n";
  table_config cfg = parse_scenario(head + "capture heatmap\n", "x.scn").config.table;
  cfg.backend = backend::cpu;
  const auto sharded = make_table(cfg);
  std::vector<std::string> lines(5, "step insert");
  std::size_t mine = 0;
  for (std::uint64_t k = 1; mine < 300; ++k)
    if (owner_of(as_sharded(*sharded)->map(), static_cast<key_type>(k)) == 1)
      lines[mine++ / 60] += " " + std::to_string(k);
  std::string body;
  for (const std::string& l : lines) body += l + "\n";
  body += "capture heatmap device=1\ncapture heatmap device=0\n";
  const scenario sc = parse_scenario(head + body, (dir / "t.scn").string());
  const render_result r = render_scenario(sc, dir.string(), backend_choice::cpu, 0, 900, 640, 16.f);
  REQUIRE(r.figures.size() == 2);
  const vis::colormap viridis = vis::load_colormap("viridis");
  for (const rendered_figure& f : r.figures) {
    int w = 0, h = 0;
    const auto px = read_png(f.png, w, h);
    CAPTURE(f.png);
    const double live = decoded_live_fraction(px, w, f.view_rect, viridis);
    CHECK(live == Catch::Approx(f.capture == 1 ? 300.0 / 512 : 0.0).margin(0.02));
  }
  // In print the title gives the shard's own load, from the slots drawn.
  const scenario paper =
      parse_scenario(head + "style paper\n" + body, (dir / "paper.scn").string());
  render_style print;
  print.paper = paper.paper_style;
  print.page = {3.5, 2.4, 100, 8};
  render_scenario(paper, (dir / "paper").string(), backend_choice::cpu, 0, 900, 640, 16.f, print);
  std::ifstream in(dir / "paper" / "paper-01-heatmap.svg");
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(svg, Catch::Matchers::ContainsSubstring("of the slots shown, load 0.586"));
  const scenario past = parse_scenario(
      "title t\ncapacity 2^10\ngpus 2\nbackend cpu\nfill 0.2\ncapture heatmap device=2\n",
      (dir / "p.scn").string());
  CHECK_THROWS_WITH(render_scenario(past, dir.string(), backend_choice::cpu, 0, 900, 640, 16.f),
                    Catch::Matchers::ContainsSubstring("device=2: the table is over 2 devices"));
}

TEST_CASE(
    "render in paper style writes each view as PNG, SVG and PDF at the page's size, the numbers as "
    "CSV",
    "[render][paper]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-paper";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const scenario sc = parse_scenario(
      "title paper\ncapacity 2^14\nbackend cpu\nbatch 2k\nstyle paper\nsay \"Half full: short "
      "probes.\"\nfill 0.5\n"
      "capture heatmap histogram throughput stats\nstep 4\ncapture walk\n",
      (dir / "p.scn").string());
  CHECK(sc.paper_style);
  render_style style;
  style.paper = sc.paper_style;
  style.page = {3.5, 2.4, 100, 8};
  const render_result r =
      render_scenario(sc, dir.string(), backend_choice::cpu, 0, 800, 600, 14.f, style);
  for (const char* v : {"heatmap", "histogram", "throughput"}) {
    INFO(v);
    for (const char* ext : {".png", ".svg", ".pdf"})
      CHECK(fs::exists(dir / (std::string("p-01-") + v + ext)));
    CHECK(fs::exists(dir / (std::string("p-01-") + v + ".csv")));
    int w = 0, h = 0;
    const auto png = read_png((dir / (std::string("p-01-") + v + ".png")).string(), w, h);
    CHECK(w == 350);  // 3.5 in at 100 dpi
    CHECK(h == 240);
    CHECK(std::count(png.begin(), png.end(), std::uint8_t{255}) <
          static_cast<long>(png.size()));  // not blank
  }
  CHECK_FALSE(fs::exists(dir / "p-01-stats.png"));  // the numbers: a CSV, not a picture
  CHECK(fs::exists(dir / "p-01-stats.csv"));
  std::ifstream in(dir / "p-01-histogram.svg");
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(svg.find(">probe length</text>") != std::string::npos);
  CHECK(svg.find(">Half full: short probes.</text>") != std::string::npos);  // the stage's caption
  // Step mode's probe walks: a row per operation, a point per probe, coloured by what it did.
  const std::string walk = test::read_text(dir / "p-02-walk.svg");
  CHECK(walk.find(">probe (0: the home slot)</text>") != std::string::npos);
  CHECK(walk.find("step 1: 4 operations") != std::string::npos);
  CHECK(walk.find(">claimed</text>") != std::string::npos);
  std::ifstream meta(r.metadata);
  const std::string m((std::istreambuf_iterator<char>(meta)), std::istreambuf_iterator<char>());
  CHECK(m.find("\"style\":\"paper\"") != std::string::npos);
  CHECK(m.find("no paper figure yet") == std::string::npos);  // every view of this scenario has one
  fs::remove_all(dir);
}

TEST_CASE("the Code view and a warp's lanes render for print from a traced step",
          "[render][paper][code]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-code-paper";
  const render_result r =
      render_paper_in(dir,
                      "table hive\ncapacity 2^10\nhive slots=32 tile=32\nbatch 32\nfill 0.5\n"
                      "step insert 12\ncapture code lanes\n");
  for (const char* v : {"code", "lanes"})
    for (const char* ext : {".png", ".svg", ".pdf", ".csv"}) {
      INFO(v << ext);
      CHECK(fs::exists(dir / (std::string("c-01-") + v + ext)));
    }
  const std::string code = test::read_text(dir / "c-01-code.svg");
  CHECK(code.find("insert(0x0000000c) -&gt; inserted") != std::string::npos);
  CHECK(code.find("core/hive/hive_ops.cuh, lines") != std::string::npos);
  CHECK(code.find("DejaVu Sans Mono") != std::string::npos);  // the code in monospace
  const std::string lanes = test::read_text(dir / "c-01-lanes.svg");
  CHECK(lanes.find("a tile of 32 lanes serves it") != std::string::npos);
  CHECK(lanes.find("ballot(") != std::string::npos);
  // The listing asks for a page tall enough for its lines: taller than the 2 in given.
  int w = 0, h = 0;
  read_png((dir / "c-01-code.png").string(), w, h);
  CHECK(h > 200);
  const std::string m = test::read_text(r.metadata);
  CHECK(m.find("no paper figure yet") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE(
    "capture animation records a stage as it runs, at a fixed frame rate; without ffmpeg the "
    "frames are kept",
    "[render][animation]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-animation";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const scenario sc = parse_scenario(
      "capacity 2^12\nbackend cpu\nbatch 512\nfill 0.1\ncapture heatmap\nfill 0.8\n"
      "capture animation seconds=1 fps=8 view=heatmap\n",
      (dir / "a.scn").string());
  REQUIRE(sc.steps.back().animation);
  CHECK(sc.steps.back().animation->frames() == 8);
  SECTION("through ffmpeg, an MP4 of every frame") {
    if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0) SKIP("ffmpeg is not installed");
    const render_result r =
        render_scenario(sc, dir.string(), backend_choice::cpu, 0, 320, 240, 12.f);
    REQUIRE(fs::exists(dir / "a-02-animation.mp4"));
    CHECK(fs::file_size(dir / "a-02-animation.mp4") > 1000);
    for (const auto& e : fs::directory_iterator(dir))  // no temporary video left behind
      CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
    CHECK(r.figures.back().load ==
          Catch::Approx(0.8).margin(1.0 / 4096));  // the stage ran to its end
    const std::string probe =
        "ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames "
        "-of csv=p=0 '" +
        (dir / "a-02-animation.mp4").string() + "' > '" + (dir / "n.txt").string() + "'";
    if (std::system(probe.c_str()) == 0) {
      std::ifstream n(dir / "n.txt");
      int frames = 0;
      n >> frames;
      CHECK(frames == 8);
    }
  }
  SECTION("without ffmpeg, the frames as numbered PNGs and the error in the metadata") {
    setenv("HASHSCOPE_FFMPEG", "/nonexistent/ffmpeg", 1);
    const render_result r =
        render_scenario(sc, dir.string(), backend_choice::cpu, 0, 320, 240, 12.f);
    unsetenv("HASHSCOPE_FFMPEG");
    for (int k = 1; k <= 8; ++k)
      CHECK(fs::exists(dir / ("a-02-animation-000" + std::to_string(k) + ".png")));
    std::ifstream meta(r.metadata);
    const std::string m((std::istreambuf_iterator<char>(meta)), std::istreambuf_iterator<char>());
    CHECK(m.find("ffmpeg (/nonexistent/ffmpeg) is not installed") != std::string::npos);
    // Frames are spread over the stage: the first shows the fill begun, not done.
    int w = 0, h = 0;
    CHECK_FALSE(read_png((dir / "a-02-animation-0001.png").string(), w, h).empty());
  }
  fs::remove_all(dir);
}

TEST_CASE(
    "every family view has a paper figure: the hive's Fig. 9, fill, evictions, stash and resize; "
    "the slab's list and SlabAlloc",
    "[render][paper]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-paper-families";
  fs::remove_all(dir);
  fs::create_directories(dir);
  render_style style;
  style.paper = true;
  style.page = {3.0, 2.0, 100, 8};
  const scenario hive = parse_scenario(
      "table hive\ncapacity 2^12\nbackend cpu\nbatch 256\nfill 0.95\ncapture steps buckets\n",
      (dir / "h.scn").string());
  const render_result hr =
      render_scenario(hive, dir.string(), backend_choice::cpu, 0, 800, 600, 14.f, style);
  // The metadata says the family's own settings, not the linear table's tuning.
  const std::string hm = test::read_text(hr.metadata);
  CHECK(hm.find("\"family_settings\":{\"hive\":\"16 slots/bucket") != std::string::npos);
  CHECK(hm.find("\"tuning\"") == std::string::npos);
  const std::string steps = test::read_text(dir / "h-01-steps.svg");
  CHECK(steps.find(">2: claim</text>") != std::string::npos);
  CHECK(steps.find(">share of the inserts</text>") != std::string::npos);
  CHECK(fs::exists(dir / "h-01-buckets.pdf"));
  CHECK(test::read_text(dir / "h-01-buckets.svg").find(">live slots in the bucket</text>") !=
        std::string::npos);
  const scenario slab = parse_scenario(
      "table slab\nslab buckets=300\nbackend cpu\nbatch 512\nfill 1.5\ncapture chains allocator\n"
      "step 8\ncapture chains\n",
      (dir / "s.scn").string());
  const render_result sr =
      render_scenario(slab, dir.string(), backend_choice::cpu, 0, 800, 600, 14.f, style);
  const std::string chains = test::read_text(dir / "s-01-chains.svg");
  CHECK(chains.find(">slabs in the list (base included)</text>") != std::string::npos);
  CHECK(chains.find("(the longest)") != std::string::npos);  // the list shown is the longest
  CHECK(chains.find("15 pairs a slab") != std::string::npos);
  CHECK(test::read_text(dir / "s-02-chains.svg").find("framed: the step's keys") !=
        std::string::npos);  // after step 8
  int w = 0, h = 0;
  CHECK_FALSE(read_png((dir / "s-01-chains.png").string(), w, h).empty());
  CHECK(w == 600);  // two panels: twice the page's width
  CHECK(h == 200);
  CHECK(fs::exists(dir / "s-01-allocator.png"));
  // The hive's evictions (arcs and their lengths), stash and resize views, on a table that grew.
  const scenario grown = parse_scenario(
      "table hive\ncapacity 2^10\nhive depth=2 resize=auto\nbackend cpu\nbatch 256\n"
      "fill 0.97\ncapture evictions stash resize\n",
      (dir / "g.scn").string());
  render_scenario(grown, dir.string(), backend_choice::cpu, 0, 800, 600, 14.f, style);
  const std::string arcs = test::read_text(dir / "g-01-evictions.svg");
  CHECK(arcs.find(">hop distance (buckets)</text>") != std::string::npos);
  CHECK(arcs.find(">entries moved by the eviction</text>") != std::string::npos);
  CHECK(test::read_text(dir / "g-01-stash.svg").find("Stash: ") != std::string::npos);
  const std::string resize = test::read_text(dir / "g-01-resize.svg");
  CHECK(resize.find("split pointer at") != std::string::npos);
  CHECK(resize.find(" splits and 0 merges since creation.") != std::string::npos);
  std::ifstream meta(sr.metadata);
  CHECK(std::string((std::istreambuf_iterator<char>(meta)), std::istreambuf_iterator<char>())
            .find("no paper figure yet") == std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE(
    "render captures compare mode: every table's column and numbers, the figure at the compared "
    "tables' load",
    "[render][compare]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-compare";
  const render_result r = render_paper_in(
      dir,
      "capacity 2^12\nbackend cpu\nbatch 512\ncompare linear linear:probe=double\nfill 0.8\n"
      "capture compare\n");
  REQUIRE(r.figures.size() == 1);
  CHECK(r.figures[0].load ==
        Catch::Approx(0.8).margin(0.01));  // the compared tables', not the idle session's
  const std::string svg = test::read_text(dir / "c-01-compare.svg");
  CHECK(svg.find(">Throughput against load</text>") != std::string::npos);
  // The caption names the device, the tables' size and the batch size.
  CHECK(svg.find("CPU model") != std::string::npos);
  CHECK(svg.find("4,096 slots each") != std::string::npos);
  CHECK(svg.find("batches of 512 operations") != std::string::npos);
  const std::string csv = test::read_text(dir / "c-01-compare.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);  // a header and a row per table
  CHECK(csv.find("probe=double") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("with the timeline on, the compare figure has a reads point for every batch",
          "[render][compare]") {
  const fs::path dir = fs::temp_directory_path() / "hashscope-render-compare-batches";
  render_paper_in(dir,
                  "capacity 2^12\nbackend cpu\nbatch 512\ntimeline on\ncompare linear hive\n"
                  "fill 0.75\ncapture compare\n");
  // 0.75 of 4,096 slots in batches of 512: 6 batches a table, each with its rate and its cost.
  const std::string csv = test::read_text(dir / "c-01-compare-batches.csv");
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  CHECK(line == "table,batch,ops,load_before,ops_per_s,load_after,reads_per_op,cost_unit");
  int linear = 0, hive = 0;
  double last_linear_cost = 0;
  while (std::getline(in, line)) {
    CAPTURE(line);
    const bool is_linear = line.rfind("\"linear\"", 0) == 0;
    linear += is_linear, hive += line.rfind("\"hive\"", 0) == 0;
    const auto unit = line.rfind(',');
    const auto cost = line.rfind(',', unit - 1);
    const double reads = std::stod(line.substr(cost + 1, unit - cost - 1));
    CHECK(reads >= 1.0);  // at least the home slot or first bucket
    if (is_linear) {
      CHECK(reads >= last_linear_cost);  // walks lengthen as the table fills
      last_linear_cost = reads;
    }
  }
  CHECK(linear == 6);
  CHECK(hive == 6);
  CHECK(last_linear_cost > 1.5);  // at 0.75 linear probing reads more than its home slot
  // ...which the figure's reads panel draws.
  const std::string svg = test::read_text(dir / "c-01-compare.svg");
  CHECK(svg.find(">Reads per operation</text>") != std::string::npos);
  fs::remove_all(dir);
}
