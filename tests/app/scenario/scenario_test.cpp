// Scenario files: the shipped ones parse; every kind of mistake is reported with file and line.
#include <filesystem>
#include <fstream>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include "app/scenario/scenario.hpp"
#include "app/scenario/scenario_keywords.hpp"
#include "app/scenario/scenario_writer.hpp"
#include "core/common/error.hpp"

using namespace hs;
using namespace hs::app;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("shipped scenarios parse", "[scenario]") {
  const auto names = shipped_scenarios();
  REQUIRE_FALSE(names.empty());
  for (const auto& n : names) {
    CAPTURE(n);
    const scenario sc = load_scenario(n);
    CHECK_FALSE(sc.title.empty());
    CHECK_FALSE(sc.steps.empty());
    // Every stage tells its story: a caption before its first capture.
    bool said = false;
    for (const scenario_step& s : sc.steps) {
      said |= s.kind == scenario_step::say;
      if (s.kind == scenario_step::capture) {
        CHECK(said);
        break;
      }
    }
  }
  const scenario lc = load_scenario("linear-clustering");
  CHECK(lc.config.table.capacity == (1u << 22));
  REQUIRE(lc.steps.size() >= 6);
  CHECK(lc.steps[0].kind == scenario_step::say);
  CHECK(lc.steps[1].kind == scenario_step::fill);
  CHECK(lc.steps[1].load == 0.5);
  CHECK(lc.steps[2].kind == scenario_step::capture);
}

TEST_CASE("say attaches a caption to its stage, and a broken one is refused with file and line",
          "[scenario]") {
  const scenario sc = parse_scenario(
      "say \"Load 0.5: short probes # not a comment\"  # a comment\nfill 0.5\n"
      "capture heatmap\n  say \"Next\"\ncapture stats\n",
      "c.scn");
  REQUIRE(sc.steps.size() == 5);
  CHECK(sc.steps[0].kind == scenario_step::say);
  CHECK(sc.steps[0].text == "Load 0.5: short probes # not a comment");
  CHECK(sc.steps[3].text == "Next");
  const auto script = sc.script();
  REQUIRE(script.size() == 5);
  CHECK(script[0].kind == script_step::say);
  CHECK(script[0].text == sc.steps[0].text);
  using Catch::Matchers::ContainsSubstring;
  CHECK_THROWS_WITH(parse_scenario("say \"no end\ncapture heatmap\n", "c.scn"),
                    ContainsSubstring("c.scn:1: say: the caption has no closing quote"));
  CHECK_THROWS_WITH(parse_scenario("fill 0.1\nsay unquoted\ncapture heatmap\n", "c.scn"),
                    ContainsSubstring("c.scn:2: usage: say \"CAPTION\""));
  CHECK_THROWS_WITH(parse_scenario("say \"  \"\ncapture heatmap\n", "c.scn"),
                    ContainsSubstring("c.scn:1: say: the caption is empty"));
  CHECK_THROWS_WITH(parse_scenario("say \"a\" b\ncapture heatmap\n", "c.scn"),
                    ContainsSubstring("nothing may follow"));
}

TEST_CASE("hive settings and views parse; the views are instrumented unless told otherwise",
          "[scenario][hive]") {
  const scenario sc = parse_scenario(
      "table hive\nhive slots=32 tile=8 hashes=murmur3+city+crc32 depth=4 stash=0.02 "
      "resize=auto\nfill 1.5\n"
      "step 64\ncapture buckets evictions steps stash resize heatmap\n",
      "h.scn");
  const hive_options& o = sc.config.table.hive;
  CHECK(sc.config.table.family == family::hive);
  CHECK(o.bucket_slots == 32);
  CHECK(o.tile == 8);
  CHECK(o.hashes == "murmur3+city+crc32");
  CHECK(o.eviction_depth == 4);
  CHECK(o.stash_fraction == 0.02);
  CHECK(o.auto_resize);
  CHECK(o.instrument);
  REQUIRE(sc.steps.size() == 3);
  CHECK(sc.steps[0].load == 1.5);
  CHECK(sc.steps[2].views ==
        std::vector<std::string>{"buckets", "evictions", "steps", "stash", "resize", "heatmap"});
  CHECK_FALSE(parse_scenario("hive instrument=off\ntable hive\ncapture steps\n", "i.scn")
                  .config.table.hive.instrument);
  CHECK_FALSE(parse_scenario("capture heatmap\n", "l.scn")
                  .config.table.hive.instrument);  // not a hive table
  const scenario ev = load_scenario("hive-evictions");
  CHECK(ev.config.table.family == family::hive);
  CHECK(ev.steps.back().views[0] == "evictions");
}

TEST_CASE("tombstone, maintenance and timeline settings parse", "[scenario]") {
  const scenario sc = parse_scenario(
      "delete tombstone\nmaintain grow=0.9 shrink=0.2 rehash=0.3\ntimeline on\nfill 0.5\nrehash "
      "2^20\n"
      "rehash\ncapture timeline\n",
      "t.scn");
  CHECK(sc.config.table.linear.deletes == linear_delete_mode::tombstone);
  CHECK(sc.config.maintenance.grow_above == 0.9);
  CHECK(sc.config.maintenance.shrink_below == 0.2);
  CHECK(sc.config.maintenance.rehash_above == 0.3);
  CHECK(sc.config.record_timeline);
  REQUIRE(sc.steps.size() == 4);
  CHECK(sc.steps[1].kind == scenario_step::rehash);
  CHECK(sc.steps[1].batches == (1u << 20));
  CHECK(sc.steps[2].batches == 0);
  CHECK(sc.steps[3].views[0] == "timeline");
}

TEST_CASE("key-bits 64 parses and runs; typed keys past 32 bits need it", "[scenario]") {
  const scenario sc = parse_scenario(
      "key-bits 64\ndistribution sequential start=2^40\nfill 0.5\nstep insert 0x1234567890ab\n"
      "capture heatmap\n",
      "w.scn");
  CHECK(bits_of(sc.config.table.width) == 64);
  CHECK(sc.config.workload.keys.start == std::uint64_t{1} << 40);
  REQUIRE(sc.steps.size() == 3);
  CHECK(sc.steps[1].given.at(0).key == 0x1234567890abull);
  session_config cfg = sc.config;
  cfg.table.backend = backend::cpu;
  cfg.table.capacity = 1u << 10;
  session s(cfg);
  s.queue(sc.script());
  s.wait_idle();
  CHECK(s.status().live == (1u << 9) + 1);
  CHECK_THROWS_WITH(parse_scenario("fill 0.5\nstep insert 0x1234567890ab\n", "n.scn"),
                    ContainsSubstring("n.scn:2: '0x1234567890ab' has more than 32 bits: this "
                                      "table holds 32-bit keys"));
  // A later key-bits line: the keys are checked against the table's width once it is known.
  CHECK_THROWS_WITH(
      parse_scenario("key-bits 64\nstep insert 0x1234567890ab\nkey-bits 32\ncapture heatmap\n",
                     "l.scn"),
      ContainsSubstring("l.scn:2: key 0x1234567890ab does not fit this table"));
  CHECK_THROWS_WITH(
      parse_scenario("distribution sequential start=2^40\nfill 0.5\ncapture heatmap\n", "s.scn"),
      ContainsSubstring("start key 0x10000000000 is past the 32-bit keys"));
}

TEST_CASE("slab settings, fills past beta 1 and flush steps parse", "[scenario][slab]") {
  const scenario sc = parse_scenario(
      "table slab\nslab mode=multi beta=0.5 keys=1M tile=16\nfill 2.5\nflush\ncapture chains "
      "allocator\n",
      "x.scn");
  CHECK(sc.config.table.family == family::slab);
  CHECK(sc.config.table.slab.mode == slab_mode::multi);
  CHECK(sc.config.table.slab.buckets == 139811);  // ceil(2^20 / 7.5)
  CHECK(sc.config.table.slab.tile == 16);
  REQUIRE(sc.steps.size() == 3);
  CHECK(sc.steps[0].load == 2.5);
  CHECK(sc.steps[1].kind == scenario_step::flush);
  CHECK(sc.script()[1].kind == script_step::flush);
  const scenario st = parse_scenario("table slab\nslab tile=2\nstep 16\ncapture chains\n", "y.scn");
  CHECK(st.config.table.slab.tile == 2);
  REQUIRE(st.steps.size() == 2);
  CHECK(st.steps[0].kind == scenario_step::step);
  CHECK(st.script()[0].kind == script_step::step);
  CHECK(st.script()[0].batches == 16);
}

TEST_CASE("a scenario's script pauses at each capture", "[scenario]") {
  const scenario sc =
      parse_scenario("fill 0.3\ncapture heatmap\nrun 2\ncapture histogram stats\n", "s.scn");
  const auto script = sc.script();
  REQUIRE(script.size() == 4);
  CHECK(script[0].kind == script_step::fill);
  CHECK(script[1].kind == script_step::pause);
  CHECK(script[2].batches == 2);
}

TEST_CASE("malformed scenarios name file and line", "[scenario]") {
  auto fails = [](const std::string& text, const std::string& where, const std::string& what) {
    CAPTURE(text);
    CHECK_THROWS_WITH(parse_scenario(text, "x.scn"),
                      ContainsSubstring(where) && ContainsSubstring(what));
  };
  fails("capacity 1000\ncapture heatmap\n", "x.scn:1", "not a power of two");
  fails("key-bits 48\ncapture heatmap\n", "x.scn:1", "32, 64");
  fails("\n\nfill 1.5\ncapture heatmap\n", "x.scn:3", "load factor");
  fails("table btree\ncapture heatmap\n", "x.scn:1", "unknown table family");
  fails("hash sha256\ncapture heatmap\n", "x.scn:1", "unknown hash");
  fails("fill 0.5\ncapture chart\n", "x.scn:2", "unknown view 'chart'");
  fails("mix insert:1,lookup:2\ncapture heatmap\n", "x.scn:1", "not a mix");
  fails("distribution zipf s=1\ncapture heatmap\n", "x.scn:1", "unknown distribution option");
  fails("frobnicate\ncapture heatmap\n", "x.scn:1", "unknown keyword 'frobnicate'");
  fails("fill\ncapture heatmap\n", "x.scn:1", "usage: fill");
  fails("capacity 2^10\ncapture heatmap range=1000:100\n", "x.scn:2", "past the table");
  fails("gpus 2\ncapture heatmap range=0:100 device=1\n", "x.scn:2", "range= or device=");
  fails("gpus 2\ncapture heatmap device=64\n", "x.scn:2", "at most 64 devices");
  fails("distribution clustered cluster=100\ncapture heatmap\n", "x.scn", "cluster");
  fails("delete soft\ncapture heatmap\n", "x.scn:1", "unknown delete mode");
  fails("maintain grow=1.5\ncapture heatmap\n", "x.scn:1", "load factor");
  fails("maintain split=0.5\ncapture heatmap\n", "x.scn:1", "unknown maintenance threshold");
  fails("timeline maybe\ncapture heatmap\n", "x.scn:1", "on or off");
  fails("rehash 1000\ncapture heatmap\n", "x.scn:1", "not a power of two");
  fails("gpus 2\nregpus 0\ncapture gpus\n", "x.scn:2", "1 to 64 devices, not 0");
  fails("gpus 2\nregpus 65\ncapture gpus\n", "x.scn:2", "1 to 64 devices, not 65");
  fails("gpus 2\nregpus\ncapture gpus\n", "x.scn:2", "usage: regpus N");
  fails("table slab\nslab mode=triple\ncapture chains\n", "x.scn:2", "unknown slab mode");
  fails("table slab\nslab beta=0.7\ncapture chains\n", "x.scn:2", "beta and keys go together");
  fails("table slab\nslab tile=12\ncapture chains\n", "x.scn:2", "unknown threads per");
  fails("table slab\nstep 0\ncapture chains\n", "x.scn:2", "1 to 64 operations");
  fails("table slab\nstep 65\ncapture chains\n", "x.scn:2", "1 to 64 operations");
  fails("fill 0.5\ncapture chains\n", "x.scn:2", "add 'table slab'");
  fails("table slab\nfill 0.5\ncapture evictions\n", "x.scn:3", "add 'table hive'");
  fails("table hive\nhive slots=12\ncapture buckets\n", "x.scn:2", "(8, 16, 32)");
  fails("table hive\nhive tile=3\ncapture buckets\n", "x.scn:2", "unknown threads per");
  fails("table hive\nhive hashes=md5+city\ncapture buckets\n", "x.scn:2", "not a hash policy");
  fails("table hive\nhive depth=40\ncapture buckets\n", "x.scn:2", "0 to 32");
  fails("table hive\nhive stash=0.5\ncapture buckets\n", "x.scn:2", "fraction");
  fails("table hive\nhive resize=sometimes\ncapture buckets\n", "x.scn:2", "(auto, off)");
  fails("table hive\nhive colour=blue\ncapture buckets\n", "x.scn:2", "unknown hive option");
  fails("table hive\nfill 5\ncapture buckets\n", "x.scn:2", "between 0 and 4");
  fails("table slab\nfill 9\ncapture chains\n", "x.scn:2", "between 0 and 8");
  CHECK_THROWS_AS(load_scenario("no-such-scenario"), user_error);
}

TEST_CASE(
    "probe double is open addressing's: a scenario giving it to another family is refused where it "
    "is read",
    "[scenario]") {
  using Catch::Matchers::ContainsSubstring;
  CHECK(parse_scenario("table linear\nprobe double\ncapture heatmap\n", "p.scn")
            .config.table.linear.probe == probe_policy::double_hash);
  CHECK_THROWS_WITH(
      parse_scenario("table hive\nprobe double\ncapture heatmap\n", "p.scn"),
      ContainsSubstring(
          "p.scn:2: 'probe' is an option of the linear family, and this scenario's table is hive"));
  CHECK_THROWS_WITH(parse_scenario("probe double\ntable slab\ncapture heatmap\n", "p.scn"),
                    ContainsSubstring("p.scn:1: 'probe' is an option of the linear family"));
  CHECK_THROWS_WITH(
      parse_scenario("table linear\nprobe double\ngroup 4\ncapture heatmap\n", "p.scn"),
      ContainsSubstring("group must be 1 or auto"));
  CHECK_THROWS_WITH(parse_scenario("probe triple\ncapture heatmap\n", "p.scn"),
                    ContainsSubstring("p.scn:1: unknown probing 'triple'"));
}

TEST_CASE("capture animation takes seconds, fps and a view, and refuses more than 10 minutes",
          "[scenario][animation]") {
  using Catch::Matchers::ContainsSubstring;
  const scenario sc =
      parse_scenario("fill 0.5\ncapture animation seconds=3 fps=24 view=histogram\n", "a.scn");
  REQUIRE(sc.steps[1].animation);
  CHECK(sc.steps[1].animation->frames() == 72);
  CHECK(sc.steps[1].animation->view == "histogram");
  CHECK_THROWS_WITH(parse_scenario("capture animation seconds=601\n", "a.scn"),
                    ContainsSubstring("a.scn:1: an animation lasts"));
  CHECK_THROWS_WITH(parse_scenario("capture animation fps=0\n", "a.scn"),
                    ContainsSubstring("fps is 1 to 60"));
  // Found by fuzz_scenario: a rate past int's range was converted before it was checked.
  CHECK_THROWS_WITH(parse_scenario("capture animation fps=319999999990\n", "a.scn"),
                    ContainsSubstring("a.scn:1: fps is 1 to 60"));
  CHECK_THROWS_WITH(parse_scenario("capture animation fps=nan\n", "a.scn"),
                    ContainsSubstring("fps is 1 to 60"));
  CHECK_THROWS_WITH(parse_scenario("capture animation view=nothing\n", "a.scn"),
                    ContainsSubstring("unknown view 'nothing'"));
  CHECK_THROWS_WITH(parse_scenario("capture animation speed=2\n", "a.scn"),
                    ContainsSubstring("unknown animation option 'speed'"));
}

TEST_CASE(
    "render --animate records every stage before its still figures; animations written out stay; "
    "compare is refused",
    "[scenario][animation]") {
  using Catch::Matchers::ContainsSubstring;
  scenario sc = parse_scenario(
      "table slab\nfill 0.5\ncapture stats histogram heatmap\nfill 0.9\ncapture animation "
      "seconds=2 view=throughput\n"
      "fill 0.95\ncapture chains\n",
      "a.scn");
  animate_every_stage(sc, 4);
  std::vector<std::string> shape;  // each capture: its views, "~" before an animation
  for (const scenario_step& st : sc.steps)
    if (st.kind == scenario_step::capture)
      shape.push_back((st.animation ? "~" : "") + st.views.front());
  CHECK(shape ==
        std::vector<std::string>{"~histogram", "stats", "~throughput", "~heatmap", "chains"});
  CHECK(sc.steps[1].animation->seconds == 4);
  CHECK(sc.steps[4].animation->seconds == 2);   // the scenario's own animation keeps its length
  CHECK(sc.steps[1].line == sc.steps[2].line);  // errors still name the capture's line
  scenario cmp = parse_scenario("compare linear hive\nfill 0.5\ncapture compare\n", "c.scn");
  CHECK_THROWS_WITH(animate_every_stage(cmp, 4), ContainsSubstring("c.scn: --animate"));
}

TEST_CASE(
    "a capture may give a family view a bucket range: the hive's eviction arcs over part of the "
    "table",
    "[scenario][hive]") {
  using Catch::Matchers::ContainsSubstring;
  const scenario sc =
      parse_scenario("table hive\nfill 0.9\ncapture evictions buckets=1024:256\n", "b.scn");
  REQUIRE(sc.steps[1].buckets);
  CHECK(sc.steps[1].buckets->first == 1024);
  CHECK(sc.steps[1].buckets->second == 256);
  CHECK_THROWS_WITH(parse_scenario("table hive\ncapture evictions buckets=12\n", "b.scn"),
                    ContainsSubstring("b.scn:2: buckets should be FIRST:COUNT"));
}

TEST_CASE("every keyword of the table is parsed by its handler and named in the reference",
          "[scenario]") {
  const std::string reference = scenario_reference();
  for (const scenario_keyword& k : scenario_keywords()) {
    CAPTURE(k.name);
    CHECK(k.usage.substr(0, k.name.size()) == k.name);  // the usage begins with the keyword
    CHECK(find_scenario_keyword(k.name) == &k);
    CHECK(reference.find("`" + std::string(k.usage) + "`") != std::string::npos);
    CHECK_THROWS_WITH(parse_scenario("frobnicate\n", "x.scn"),
                      ContainsSubstring(std::string(k.name)));
    // A wrong count of arguments quotes the table's usage, with the line.
    if (k.min_args > 0 && k.name != "say")
      CHECK_THROWS_WITH(parse_scenario(std::string(k.name) + "\ncapture heatmap\n", "x.scn"),
                        ContainsSubstring("x.scn:1: usage: " + std::string(k.usage)));
    if (k.max_args != scenario_keyword::k_any) {
      std::string line(k.name);
      for (std::size_t i = 0; i <= k.max_args; ++i) line += " 1";
      CHECK_THROWS_WITH(parse_scenario(line + "\ncapture heatmap\n", "x.scn"),
                        ContainsSubstring("x.scn:1: usage: " + std::string(k.usage)));
    }
  }
  for (const char* family_word : {"linear", "slab", "hive"})
    CHECK(reference.find(family_word) != std::string::npos);
}

TEST_CASE("a workload that cannot run names the line that set it", "[scenario]") {
  CHECK_THROWS_WITH(
      parse_scenario("title t\n\ndistribution clustered cluster=100\nfill 0.5\ncapture heatmap\n",
                     "x.scn"),
      ContainsSubstring("x.scn:3:"));
  CHECK_THROWS_WITH(parse_scenario("fill 0.5\ncapture heatmap\n\ndistribution clustered "
                                   "cluster=100\nrun 1\ncapture heatmap\n",
                                   "x.scn"),
                    ContainsSubstring("x.scn:4:"));
}

TEST_CASE("keys file reads the class's keys beside the scenario; a bad one names file and line",
          "[scenario][keys]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "hs scenario keys";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "ids.csv") << "name,id\nada,17\nbob,42\n";
  const std::string scn = (dir / "class.scn").string();
  const scenario sc =
      parse_scenario("keys file ids.csv column 2\nfill 0.001\ncapture heatmap\n", scn);
  const workload::workload_spec& w = sc.config.workload;
  REQUIRE(w.key_file);
  CHECK(w.keys.dist == workload::distribution::file);
  CHECK(w.key_file->keys == std::vector<key_type>{17, 42});
  CHECK(w.key_file->source.path == (dir / "ids.csv").string());  // beside the scenario
  // A path with spaces in quotes; the scenario prints it back the same way.
  const scenario quoted = parse_scenario("keys file \"" + (dir / "ids.csv").string() +
                                             "\" column 2 format decimal\nfill 0.001\n"
                                             "capture heatmap\n",
                                         "x.scn");
  REQUIRE(quoted.config.workload.key_file);
  CHECK(quoted.config.workload.key_file->keys.size() == 2);
  const std::string printed = print_scenario(quoted);
  CHECK(printed.find("keys file \"" + (dir / "ids.csv").string() + "\" column 2 format decimal") !=
        std::string::npos);
  CHECK(print_scenario(parse_scenario(printed, "again.scn")) == printed);
  auto fails = [&](const std::string& text, const std::string& what) {
    CAPTURE(text);
    CHECK_THROWS_WITH(parse_scenario("title t\n" + text + "\nfill 0.5\ncapture heatmap\n", scn),
                      ContainsSubstring(scn + ":2:") && ContainsSubstring(what));
  };
  fails("keys file missing.txt", "missing.txt: cannot read the key file");
  fails("keys file ids.csv column 3",
        "no valid key in 3 lines (line 1: 2 columns, column 3 asked)");
  fails("keys file ids.csv format base64", "unknown key format 'base64'");
  fails("keys file ids.csv column", "'column' needs a value");
  fails("keys file ids.csv colour red", "unknown option 'colour'");
  fails("keys table ids.csv", "usage: keys file PATH");
  fails("keys file \"ids.csv", "no closing quote");
  fails("distribution file", "a key file: keys file PATH");
}

TEST_CASE("step insert|find|erase KEY... steps the class's own keys, and prints back the same",
          "[scenario][keys]") {
  const scenario sc =
      parse_scenario("capacity 2^10\nstep insert 12 44 ada\ncapture heatmap\n", "x.scn");
  REQUIRE(sc.steps.size() == 2);
  const scenario_step& st = sc.steps[0];
  REQUIRE(st.given.size() == 3);
  CHECK(st.batches == 3);
  CHECK(st.given[0] == typed_op(op_kind::insert, 12));
  CHECK(st.given[2].key == workload::text_key("ada"));
  CHECK(st.given[2].value != k_empty);
  const std::string printed = print_scenario(sc);
  CHECK(printed.find("step insert 12 44 " + std::to_string(workload::text_key("ada"))) !=
        std::string::npos);
  CHECK(print_scenario(parse_scenario(printed, "again.scn")) == printed);
  CHECK(sc.script().front().given == st.given);
  // A step of several kinds (a session's API allows it) is written as a step per run of one kind.
  scenario mixed = sc;
  mixed.steps[0].given = {typed_op(op_kind::insert, 140), typed_op(op_kind::insert, 7),
                          typed_op(op_kind::find, 12)};
  const std::string mixed_text = print_scenario(mixed);
  CHECK(mixed_text.find("step insert 140 7\nstep find 12\n") != std::string::npos);
  const scenario again = parse_scenario(mixed_text, "again.scn");
  REQUIRE(again.steps.size() == 3);
  CHECK(again.steps[0].given.size() == 2);
  CHECK(again.steps[1].given == std::vector<given_op>{typed_op(op_kind::find, 12)});
  CHECK_THROWS_WITH(parse_scenario("step insert 12 12abc\ncapture heatmap\n", "x.scn"),
                    ContainsSubstring("x.scn:1: '12abc' is neither a key"));
  CHECK_THROWS_WITH(parse_scenario("step erase\ncapture heatmap\n", "x.scn"),
                    ContainsSubstring("x.scn:1: usage: step erase KEY"));
  std::string many = "step find";
  for (int i = 1; i <= 65; ++i) many += " " + std::to_string(i);
  CHECK_THROWS_WITH(parse_scenario(many + "\ncapture heatmap\n", "x.scn"),
                    ContainsSubstring("x.scn:1: step takes 1 to 64 operations"));
  CHECK_THROWS_WITH(parse_scenario("step 4 5\ncapture heatmap\n", "x.scn"),
                    ContainsSubstring("x.scn:1: usage: step OPS"));
}

TEST_CASE("a lesson's keys are shown as it wrote them: decimal when every step's keys are numbers",
          "[scenario][keys]") {
  const auto radix = [](const std::string& text) {
    return parse_scenario(text + "capture heatmap\n", "x.scn").keys_radix;
  };
  CHECK(radix("step insert 12 76 140\nstep find 140\n") == key_radix::decimal);
  CHECK(radix("step insert 12 76\nstep find 0x4c\n") == key_radix::hex);  // one hex line
  CHECK(radix("step insert 0x0c\nstep find 12\n") == key_radix::hex);
  CHECK(radix("step insert ada bob\n") == key_radix::hex);  // words: their keys are hashes
  CHECK(radix("step 4\n") == key_radix::hex);               // the generator's keys
}

TEST_CASE("render --key-bits sets a linear scenario's key width, checked as a key-bits line",
          "[scenario]") {
  scenario sc = load_scenario("linear-step");
  set_key_width(sc, key_width::bits64);
  CHECK(bits_of(sc.config.table.width) == 64);
  scenario slab = load_scenario("slab-step");
  CHECK_THROWS_WITH(set_key_width(slab, key_width::bits64),
                    ContainsSubstring("--key-bits 64: the slab family holds 32-bit keys only"));
  scenario wide =
      parse_scenario("key-bits 64\nstep insert 0x1234567890ab\ncapture heatmap\n", "w.scn");
  CHECK_THROWS_WITH(set_key_width(wide, key_width::bits32),
                    ContainsSubstring("--key-bits 32: key 0x1234567890ab does not fit this table"));
  // ids=64 draws 64-bit IDs whatever the width, and is written back as it was read.
  const scenario ids = load_scenario("linear-64-bit");
  CHECK(ids.config.workload.keys.id_bits == 64);
  CHECK(bits_of(ids.compare.at(0).table.width) == 64);
  CHECK(bits_of(ids.compare.at(1).table.width) == 32);
  CHECK_THROWS_WITH(
      parse_scenario("distribution uniform ids=48\nfill 0.5\ncapture heatmap\n", "i.scn"),
      ContainsSubstring("i.scn:1: ids=48"));
}

TEST_CASE(
    "a compare scenario's 64-bit keys go to the tables that hold them; a slab table stays "
    "32-bit",
    "[scenario]") {
  const scenario sc = parse_scenario(
      "table slab\nkey-bits 64\ncompare slab linear\nfill 0.3\ncapture compare\n", "c.scn");
  CHECK(sc.config.table.family == family::slab);
  CHECK(sc.config.table.width == key_width::bits32);  // the scenario's own table can be made
  REQUIRE(sc.compare.size() == 2);
  CHECK(sc.compare.at(0).table.width == key_width::bits32);
  CHECK(sc.compare.at(1).table.family == family::linear);
  CHECK(sc.compare.at(1).table.width == key_width::bits64);
  CHECK(make_table(sc.config.table) != nullptr);
}
