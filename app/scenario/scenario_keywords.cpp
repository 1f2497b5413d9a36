// The scenario keywords' handlers, the table that names them, and the reference printed from it.
#include "app/scenario/scenario_keywords.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <sstream>
#include <utility>

#include "app/families/family_hooks.hpp"
#include "app/scenario/scenario_parse_state.hpp"
#include "app/session/terminal_progress.hpp"
#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "core/table/family_registry.hpp"

namespace hs::app {

namespace {

// "heatmap, histogram, throughput, stats, timeline, compare, chains, allocator (slab), ..."
std::string view_names() {
  std::string s = "heatmap, histogram, throughput, stats, timeline, compare, gpus";
  for (const family_descriptor* f : families()) {
    const auto figures = hooks_of(f->id).figures;
    if (figures.empty()) continue;
    for (std::string_view v : figures) s += ", " + std::string(v);
    s += " (" + std::string(f->name) + ")";
  }
  return s;
}

bool is_view(const std::string& v) { return parse_view_kind(v) || !families_of_figure(v).empty(); }

// "name=value" split, or the error that says what the options are.
std::pair<std::string, std::string> option(const line_parser& p, const std::string& word,
                                           std::string_view names) {
  const auto eq = word.find('=');
  if (eq == std::string::npos)
    p.fail("'" + word + "' should be name=value (" + std::string(names) + ")");
  return {word.substr(0, eq), word.substr(eq + 1)};
}

// "FIRST:COUNT" as two sizes.
std::pair<std::uint64_t, std::uint64_t> first_count(const line_parser& p, const std::string& r,
                                                    const char* what, const char* first,
                                                    const char* count) {
  const auto colon = r.find(':');
  if (colon == std::string::npos) p.fail(std::string(what) + " should be FIRST:COUNT");
  return {p.size(r.substr(0, colon), first), p.size(r.substr(colon + 1), count)};
}

scenario_step step_of(scenario_step::kind_t kind) {
  scenario_step s;
  s.kind = kind;
  return s;
}

// ---- the table and where it runs

void title(scenario_parse& s, const keyword_line& l) {
  std::string t = l.text.substr(l.text.find("title") + 5);
  t.erase(0, t.find_first_not_of(" \t"));
  t.erase(t.find_last_not_of(" \t\r") + 1);
  s.sc.title = t;
}

void table(scenario_parse& s, const keyword_line& l) {
  const auto f = parse_family(l.w[1]);
  if (!f) l.p.fail("unknown table family '" + l.w[1] + "' (" + family_names() + ")");
  s.sc.config.table.family = *f;
  s.table_line = l.p.line;
}

// A power of two where the family needs one: checked once the family is known.
void capacity(scenario_parse& s, const keyword_line& l) {
  s.sc.config.table.capacity = l.p.size(l.w[1], "capacity");
  s.capacity_line = l.p.line;
}

void hash(scenario_parse& s, const keyword_line& l) {
  const auto h = parse_hash_kind(l.w[1]);
  if (!h) l.p.fail("unknown hash '" + l.w[1] + "' (murmur3, knuth, identity)");
  s.sc.config.table.hash = *h;
}

void gpus(scenario_parse& s, const keyword_line& l) try {
  s.sc.config.table.devices = parse_devices(l.w[1]);
} catch (const user_error& e) {
  l.p.fail(e.what());
}

void owner(scenario_parse& s, const keyword_line& l) {
  const auto o = parse_owner_bits(l.w[1]);
  if (!o) l.p.fail("unknown owner '" + l.w[1] + "' (independent, low-bits)");
  s.sc.config.table.owner = *o;
}

void backend(scenario_parse& s, const keyword_line& l) {
  const auto b = parse_backend_choice(l.w[1]);
  if (!b) l.p.fail("unknown backend '" + l.w[1] + "' (gpu, cpu, auto)");
  s.sc.backend = *b;
}

// Resolved at the end, on the scenario's own table settings.
void compare(scenario_parse& s, const keyword_line& l) {
  s.compare_words.assign(l.w.begin() + 1, l.w.end());
  s.compare_line = l.p.line;
}

// ---- the workload

void distribution(scenario_parse& s, const keyword_line& l) {
  const auto d = workload::parse_distribution(l.w[1]);
  if (!d)
    l.p.fail("unknown distribution '" + l.w[1] +
             "' (uniform, uniform-dup, sequential, clustered, zipf; a key file: keys file PATH)");
  auto& keys = s.now.workload.keys;
  keys.dist = *d;
  for (std::size_t i = 2; i < l.w.size(); ++i) {
    const auto [name, val] = option(l.p, l.w[i], "universe, cluster, start, zipf, ids");
    if (name == "universe")
      keys.universe = l.p.size(val, "universe size");
    else if (name == "cluster")
      keys.cluster = static_cast<std::uint32_t>(l.p.size(val, "cluster length"));
    else if (name == "start")
      keys.start = l.p.size(val, "start key");
    else if (name == "zipf")
      keys.zipf_s = l.p.number(val, "zipf exponent");
    else if (name == "ids" && (val == "64" || val == "table"))
      keys.id_bits = val == "64" ? 64 : 0;
    else if (name == "ids")
      l.p.fail("ids=" + val +
               ": ids=64 draws 64-bit IDs (a 32-bit table takes them folded), "
               "ids=table keys of the table's width");
    else
      l.p.fail("unknown distribution option '" + name + "' (universe, cluster, start, zipf, ids)");
  }
}

void seed(scenario_parse& s, const keyword_line& l) {
  s.now.workload.keys.seed = l.p.size(l.w[1], "seed");
}

void batch(scenario_parse& s, const keyword_line& l) {
  s.now.workload.batch_size = l.p.size(l.w[1], "batch size");
}

void mix(scenario_parse& s, const keyword_line& l) {
  const auto m = workload::parse_mix(l.w[1]);
  if (!m)
    l.p.fail("'" + l.w[1] +
             "' is not a mix (e.g. insert:0.5,find-hit:0.3,find-miss:0.1,erase:0.1)");
  s.now.workload.mix = *m;
}

void maintain(scenario_parse& s, const keyword_line& l) {
  for (std::size_t i = 1; i < l.w.size(); ++i) {
    const auto [name, val] = option(l.p, l.w[i], "grow, shrink, rehash");
    const double v = l.p.load(val);
    if (name == "grow")
      s.now.maintenance.grow_above = v;
    else if (name == "shrink")
      s.now.maintenance.shrink_below = v;
    else if (name == "rehash")
      s.now.maintenance.rehash_above = v;
    else
      l.p.fail("unknown maintenance threshold '" + name + "' (grow, shrink, rehash)");
  }
}

void timeline(scenario_parse& s, const keyword_line& l) {
  if (l.w[1] != "on" && l.w[1] != "off") l.p.fail("timeline is on or off");
  s.now.record_timeline = l.w[1] == "on";
}

// ---- the steps

void fill_or_drain(scenario_parse& s, const keyword_line& l) {
  scenario_step st = step_of(l.w[0] == "fill" ? scenario_step::fill : scenario_step::drain);
  st.load = l.p.load(l.w[1], max_fill_load(s.sc.config.table.family));
  s.push(st, l.p.line);
}

void run(scenario_parse& s, const keyword_line& l) {
  scenario_step st = step_of(scenario_step::run);
  st.batches = l.p.size(l.w[1], "batch count");
  s.push(st, l.p.line);
}

// `step OPS` (of the mix) or `step insert|find|erase KEY...` (the class's own keys: numbers, or
// words through the string hash).
void step(scenario_parse& s, const keyword_line& l) {
  scenario_step st = step_of(scenario_step::step);
  std::optional<op_kind> kind;
  for (const op_kind k : {op_kind::insert, op_kind::find, op_kind::erase})
    if (l.w[1] == to_string(k)) kind = k;
  if (kind) {
    if (l.w.size() < 3) l.p.fail("usage: step " + l.w[1] + " KEY [KEY...] (numbers or words)");
    std::string keys;
    for (std::size_t i = 2; i < l.w.size(); ++i) keys += l.w[i] + " ";
    try {
      for (const std::uint64_t k : workload::parse_key_list(keys, s.sc.config.table.width))
        st.given.push_back(typed_op(*kind, k));
    } catch (const user_error& e) {
      l.p.fail(e.what());
    }
    st.batches = st.given.size();
    // One key written in hex, or a word, and the lesson's keys show in hex.
    const key_radix r = workload::radix_of_key_list(keys);
    s.sc.keys_radix = !s.keys_given || r == key_radix::hex ? r : s.sc.keys_radix;
    s.keys_given = true;
  } else {
    if (l.w.size() > 2) l.p.fail("usage: step OPS, or step insert|find|erase KEY [KEY...]");
    st.batches = l.p.size(l.w[1], "operation count");
  }
  if (st.batches == 0 || st.batches > k_traced_step_ops) l.p.fail("step takes 1 to 64 operations");
  if (s.pending_ask) {
    if (st.given.empty())
      line_parser{l.p.file, s.pending_ask_line}.fail(
          "ask needs the step after it to name its keys (step insert 76): the question is about "
          "its first key");
    st.ask = std::exchange(s.pending_ask, {});
    st.ask_line = s.pending_ask_line;
  }
  s.push(st, l.p.line);
}

// `ask where|probes|bucket`: a question on the next step (which names its keys), asked before it
// runs. Whether the table's family can answer it is checked once the table is known.
void ask(scenario_parse& s, const keyword_line& l) {
  const std::optional<question_kind> q = parse_question(l.w[1]);
  if (!q)
    l.p.fail(
        "ask takes where (the slot its first key lands in), probes (the slots it reads) or bucket "
        "(the bucket it goes to)");
  if (s.pending_ask) l.p.fail("an ask before this one has no step yet");
  s.pending_ask = q;
  s.pending_ask_line = l.p.line;
}

void clear(scenario_parse& s, const keyword_line& l) {
  s.push(step_of(scenario_step::clear), l.p.line);
}

void rehash(scenario_parse& s, const keyword_line& l) {
  scenario_step st = step_of(scenario_step::rehash);
  st.batches = l.w.size() > 1 ? l.p.size(l.w[1], "capacity") : 0;
  if (st.batches && !is_pow2(st.batches))
    l.p.fail("rehash capacity " + l.w[1] + " is not a power of two");
  s.push(st, l.p.line);
}

void regpus(scenario_parse& s, const keyword_line& l) {
  scenario_step st = step_of(scenario_step::regpus);
  st.batches = l.p.size(l.w[1], "devices");
  if (st.batches < 1 || st.batches > k_max_devices)
    l.p.fail("regpus moves a table to 1 to " + std::to_string(k_max_devices) + " devices, not " +
             l.w[1]);
  s.push(st, l.p.line);
}

void flush(scenario_parse& s, const keyword_line& l) {
  s.push(step_of(scenario_step::flush), l.p.line);
}

// `back [N]`: the table as it was before the last N commands (1 by default).
void back(scenario_parse& s, const keyword_line& l) {
  scenario_step st = step_of(scenario_step::back);
  st.batches = l.w.size() > 1 ? l.p.size(l.w[1], "command count") : 1;
  if (st.batches == 0) l.p.fail("back takes 1 or more commands");
  if (st.batches > s.commands)
    l.p.fail(s.commands == 0
                 ? std::string("back: no command before it to undo")
                 : "back " + l.w[1] + ": only " + std::to_string(s.commands) + " command" +
                       (s.commands == 1 ? "" : "s") + " before it to undo");
  s.push(st, l.p.line);
}

// `say "caption"`, read from the raw line: a caption may hold '#'.
void say(scenario_parse& s, const keyword_line& l) {
  const std::string& raw = l.raw;
  const auto after = raw.find("say") + 3;
  const auto open = raw.find_first_not_of(" \t", after);
  if (open == std::string::npos || raw[open] != '"')
    l.p.fail("usage: say \"CAPTION\" (the text in double quotes)");
  const auto close = raw.find('"', open + 1);
  if (close == std::string::npos) l.p.fail("say: the caption has no closing quote");
  const auto rest = raw.find_first_not_of(" \t\r", close + 1);
  if (rest != std::string::npos && raw[rest] != '#')
    l.p.fail("say: nothing may follow the closing quote but a comment");
  scenario_step st = step_of(scenario_step::say);
  st.text = raw.substr(open + 1, close - open - 1);
  if (st.text.find_first_not_of(" \t") == std::string::npos) l.p.fail("say: the caption is empty");
  s.push(st, l.p.line);
}

// `capture animation [seconds=S] [fps=F] [view=V]`: the stage as a video.
scenario_step animation(const keyword_line& l) {
  animation_spec a;
  for (std::size_t i = 2; i < l.w.size(); ++i) {
    const auto [name, val] = option(l.p, l.w[i], "seconds, fps, view");
    if (name == "seconds")
      a.seconds = l.p.number(val, "seconds");
    else if (name == "fps") {
      const double fps = l.p.number(val, "frames per second");  // checked before it is an int
      if (!(fps >= 1 && fps <= 60)) l.p.fail("fps is 1 to 60");
      a.fps = static_cast<int>(fps);
    } else if (name == "view")
      a.view = val;
    else
      l.p.fail("unknown animation option '" + name + "' (seconds, fps, view)");
  }
  if (!(a.seconds > 0) || a.seconds > 600)
    l.p.fail("an animation lasts more than 0 and at most 600 seconds (10 minutes)");
  if (a.fps < 1 || a.fps > 60) l.p.fail("fps is 1 to 60");
  if (!is_view(a.view)) l.p.fail("unknown view '" + a.view + "' (" + view_names() + ")");
  scenario_step st = step_of(scenario_step::capture);
  st.views.push_back(a.view);
  st.animation = a;
  return st;
}

void capture(scenario_parse& s, const keyword_line& l) {
  if (l.w.size() < 2)
    l.p.fail(
        "usage: capture VIEW... [range=FIRST:COUNT | device=D] [buckets=FIRST:COUNT] (views: " +
        view_names() + ")");
  scenario_step st = l.w[1] == "animation" ? animation(l) : step_of(scenario_step::capture);
  for (std::size_t i = 1; !st.animation && i < l.w.size(); ++i) {
    const std::string& w = l.w[i];
    if (w.rfind("range=", 0) == 0) {
      const auto [first, count] =
          first_count(l.p, w.substr(6), "range", "first slot", "slot count");
      st.range_first = first;
      st.range_count = count;
    } else if (w.rfind("device=", 0) == 0) {  // one shard of a table over several devices
      const std::uint64_t d = l.p.size(w.substr(7), "device");
      if (d >= k_max_devices)
        l.p.fail("device=" + w.substr(7) + ": a table spans at most " +
                 std::to_string(k_max_devices) + " devices, numbered from 0");
      st.range_device = static_cast<std::uint32_t>(d);
    } else if (w.rfind("buckets=", 0) == 0) {  // the hive's eviction arcs over a bucket range
      st.buckets = first_count(l.p, w.substr(8), "buckets", "first bucket", "bucket count");
    } else if (is_view(w)) {
      st.views.push_back(w);
    } else {
      l.p.fail("unknown view '" + w + "' (" + view_names() + ")");
    }
  }
  if (st.views.empty())
    l.p.fail("capture names no view (heatmap, histogram, throughput, stats, timeline)");
  s.push(st, l.p.line);
}

// ---- how the figures look

void colormap(scenario_parse& s, const keyword_line& l) {
  const auto& names = vis::colormap_names();
  if (std::find(names.begin(), names.end(), l.w[1]) == names.end())
    l.p.fail("unknown colormap '" + l.w[1] + "' (viridis, cividis)");
  s.sc.colormap = l.w[1];
}

void heatmap_mode(scenario_parse& s, const keyword_line& l) {
  if (l.w[1] == "occupancy")
    s.sc.heatmap_mode = vis::heatmap_mode::occupancy;
  else if (l.w[1] == "probe-length")
    s.sc.heatmap_mode = vis::heatmap_mode::displacement;
  else
    l.p.fail("unknown heatmap mode '" + l.w[1] + "' (occupancy, probe-length)");
}

void style(scenario_parse& s, const keyword_line& l) {
  if (l.w[1] != "paper" && l.w[1] != "screen")
    l.p.fail("unknown style '" + l.w[1] + "' (paper, screen)");
  s.sc.paper_style = l.w[1] == "paper";
}

std::string family_list() { return "Families: " + family_names() + "."; }
std::string views_list() { return "Views: " + view_names() + "."; }

using K = scenario_keyword;
constexpr auto any = K::k_any;
constexpr auto table_ = keyword_role::table;
constexpr auto workload_ = keyword_role::workload;
constexpr auto step_ = keyword_role::step;
constexpr auto look_ = keyword_role::look;

const std::array k_keywords{
    K{"title", "title TEXT", "The scenario's title, on its figures.", table_, 0, any, title},
    K{"table", "table FAMILY", "The table's family.", table_, 1, 1, table, family_list},
    K{"capacity", "capacity SLOTS",
      "The table's slots (1048576, 1M, 2^20; a power of two for open addressing and the hive).",
      table_, 1, 1, capacity},
    K{"hash", "hash murmur3|knuth|identity", "The hash of the keys (identity shows clustering).",
      table_, 1, 1, hash},
    K{"backend", "backend gpu|cpu|auto",
      "Where the table runs; auto takes the GPU when there is one.", table_, 1, 1, backend},
    K{"gpus", "gpus N|all",
      "Shard the table over N GPUs (NCCL), or N simulated devices on the CPU.", table_, 1, 1, gpus},
    K{"owner", "owner independent|low-bits",
      "A sharded table's owner bits: an independent hash, or the table's own low bits.", table_, 1,
      1, owner},
    K{"compare", "compare TABLE TABLE [TABLE]",
      "Two or three tables run the same steps side by side, each a family with :name=value "
      "options (compare linear:hash=identity linear:hash=murmur3); captures are then 'compare'.",
      table_, 2, compare_set::k_max_tables, compare},
    K{"distribution",
      "distribution uniform|uniform-dup|sequential|clustered|zipf [universe=N] [cluster=N] "
      "[start=N] [zipf=S] [ids=64]",
      "Where the workload's keys come from, over the table's key width; ids=64 draws 64-bit IDs "
      "whatever the width, and a 32-bit table takes each folded to 32 bits (its halves xored), "
      "so distinct IDs may share a key.",
      workload_, 1, 5, distribution},
    K{"keys", "keys file PATH [column N] [format auto|decimal|hex|text|u32le|u64le]",
      "The workload's keys from a file, in its order: one key per line (decimal, hex or text, "
      "text through FNV-1a), a CSV's column, or raw little-endian 32-bit words; duplicates, "
      "reserved keys and unreadable lines are counted and skipped.",
      workload_, 2, any, keys_file},
    K{"seed", "seed N", "The workload generator's seed.", workload_, 1, 1, seed},
    K{"batch", "batch OPERATIONS", "Operations in one batch (default 1M).", workload_, 1, 1, batch},
    K{"mix", "mix insert:W,find-hit:W,find-miss:W,erase:W",
      "The share of each operation in a batch that `run` launches.", workload_, 1, 1, mix},
    K{"maintain", "maintain [grow=LOAD] [shrink=LOAD] [rehash=DEAD_FRACTION]",
      "Resize or rebuild between batches when the load or the share of dead slots crosses these "
      "(a slab table in unique mode compacts with FLUSH instead of rebuilding).",
      workload_, 1, 3, maintain},
    K{"timeline", "timeline on|off", "Record the churn timeline (`capture timeline`).", workload_,
      1, 1, timeline},
    K{"fill", "fill LOAD", "Insert new keys until the table holds this load.", step_, 1, 1,
      fill_or_drain},
    K{"drain", "drain LOAD", "Erase keys until the table holds this load.", step_, 1, 1,
      fill_or_drain},
    K{"run", "run BATCHES", "Run this many batches of the mix.", step_, 1, 1, run},
    K{"step", "step OPS | step insert|find|erase KEY...",
      "One traced batch of 1 to 64 operations for the step view: of the mix, or your own keys "
      "(numbers, 0x hex, or words through FNV-1a).",
      step_, 1, any, step},
    K{"ask", "ask where|probes|bucket",
      "Before the next step (which names its keys) runs, ask the class where its first key lands "
      "(linear probing, the hive), how many slots it reads (linear probing) or which bucket it "
      "goes to (the hive); the reveal shows the answer on the real table and keeps a tally.",
      step_, 1, 1, ask},
    K{"clear", "clear", "Empty the table.", step_, 0, 0, clear},
    K{"rehash", "rehash [CAPACITY]",
      "Rebuild the table, at a new power-of-two capacity if one is given.", step_, 0, 1, rehash},
    K{"regpus", "regpus N",
      "Move a table over several devices to N of them: whole virtual shards change owner and "
      "their pairs travel through the exchange; the stage's numbers say how many moved and how "
      "many bytes. Back cannot go past it.",
      step_, 1, 1, regpus},
    K{"flush", "flush", "The slab table's flush: drop erased keys and free empty slabs.", step_, 0,
      0, flush},
    K{"back", "back [N]",
      "Go back to before the last N commands (1 if none is given): the table, its counts and the "
      "plots as they were.",
      step_, 0, 1, back},
    K{"save", "save table PATH",
      "Write the table's exact state to a table file (next to the scenario if relative).", step_, 2,
      any, table_file},
    K{"load", "load table PATH",
      "Make the table the state of a table file (a table of the same family and options).", step_,
      2, any, table_file},
    K{"say", "say \"CAPTION\"", "The caption of the stage the line stands in.", step_, 0, any, say},
    K{"capture", "capture VIEW... [range=FIRST:COUNT | device=D] [buckets=FIRST:COUNT]",
      "Ends a stage: its figures; the heatmap over a slot range, or over device D's shard alone (a "
      "table over several devices: refused, naming them, where D is not one then). `capture "
      "animation [seconds=S] [fps=F] [view=V]` records the stage as a video instead.",
      step_, 0, any, capture, views_list},
    K{"colormap", "colormap viridis|cividis", "The heatmap's colours.", look_, 1, 1, colormap},
    K{"heatmap-mode", "heatmap-mode occupancy|probe-length",
      "What the heatmap colours: the slots' occupancy or each key's probe length.", look_, 1, 1,
      heatmap_mode},
    K{"style", "style paper|screen",
      "Figures for print (white, axes, PNG+SVG+PDF) or as the window draws them.", look_, 1, 1,
      style},
};

constexpr std::string_view k_role_titles[] = {
    "The table (read once, wherever the line stands)",
    "The workload (after a step, a line changes it from there on)",
    "Steps (in order; a stage ends at a capture)",
    "How the figures look",
};

}  // namespace

std::span<const scenario_keyword> scenario_keywords() { return k_keywords; }

const scenario_keyword* find_scenario_keyword(std::string_view name) {
  for (const scenario_keyword& k : k_keywords)
    if (k.name == name) return &k;
  return nullptr;
}

std::string scenario_keyword_names() {
  std::string s;
  for (const scenario_keyword& k : k_keywords) s += (s.empty() ? "" : ", ") + std::string(k.name);
  return s;
}

namespace {
// One entry of the reference as Markdown list lines of at most 100 columns (its continuation
// indented under the dash): the README holds it word for word, and READMEs wrap their prose. The
// head (the dash and the usage in backticks) stays whole on the first line, as it is searched for.
std::string wrapped_entry(const std::string& head, const std::string& text) {
  constexpr std::size_t k_width = 100;
  std::string out, line = head;
  std::istringstream words(text);
  for (std::string w; words >> w;) {
    if (line.size() + 1 + w.size() > k_width && line != "  ") {
      out += line + "\n";
      line = "  ";
    } else if (line != "  ") {
      line += ' ';
    }
    line += w;
  }
  return out + line + "\n";
}
}  // namespace

std::string scenario_reference() {
  std::string out =
      "A scenario is plain text: one keyword and its arguments per line, `#` starts a comment, "
      "and an error names the file and the line.\n";
  for (std::size_t r = 0; r < std::size(k_role_titles); ++r) {
    out.append("\n**").append(k_role_titles[r]).append("**\n\n");
    for (const scenario_keyword& k : k_keywords) {
      if (static_cast<std::size_t>(k.role) != r) continue;
      std::string text(k.help);
      if (k.detail) text.append(" ").append(k.detail());
      out += wrapped_entry("- `" + std::string(k.usage) + "`:", text);
    }
  }
  out +=
      "\n**Each family's own options** (a line of another family's options is an error, "
      "unless the scenario compares tables)\n\n";
  for (const family_descriptor* f : families())
    out += wrapped_entry("- " + std::string(f->name) + ":", "`" + std::string(f->keywords) + "`");
  return out;
}

}  // namespace hs::app
