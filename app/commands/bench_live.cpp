// The live benchmark: alternating windows of the session running alone and running while frames
// are drawn at 60 Hz (sampling every frame, within the default share, and not at all, which tells
// what drawing costs from what sampling costs; and empty frames, what any frame costs), and at the
// window's watching pace; throughput from the session's own operation count over wall time (what
// a user gets), frame times from the frame's start to the GPU finishing its drawing, and the
// GPU's time on a frame's graphics from a GL timer query.
#include "app/commands/bench_live.hpp"

#include "app/families/family_hooks.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

#include "app/commands/bench_command.hpp"
#include "app/platform/headless_platform.hpp"
#include "app/ui/app_frame.hpp"
#include "core/bench/result_table.hpp"
#include "core/bench/suites.hpp"
#include "core/bench/table_filter.hpp"
#include "core/bench/timing.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"
#include "visualizers/gl/gl.hpp"

namespace hs::app {

namespace {

using clock_type = std::chrono::steady_clock;
constexpr double k_window_s = 3.0, k_warm_s = 1.0;
constexpr int k_windows = 3;  // of each kind, alternating
constexpr int k_width = 1920, k_height = 1080;

double since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

struct live_case {
  const char* name;
  session_config cfg;
  double load;  ///< filled to this live load before running
};

// Keys drawn from a universe 1.5x the keys the table is filled with: inserts and erases in equal
// shares then keep the live count near the fill and bound the slots keys ever take (erasing by
// value keeps a key's slot), so the run never stops on a full table.
live_case make_case(const char* name, family f, std::uint64_t capacity, double load,
                    key_width width = key_width::bits32) {
  live_case c{name, {}, load};
  c.cfg.table.family = f;
  c.cfg.table.width = width;
  c.cfg.table.backend = backend::gpu;
  c.cfg.table.capacity = capacity;
  if (const auto prepare = hooks_of(f).prepare) prepare(c.cfg.table);  // as the window runs it
  workload::workload_spec& w = c.cfg.workload;
  w.batch_size = 1u << 20;  // the window's default on the GPU
  w.keys.dist = workload::distribution::uniform_dup;
  w.keys.universe = static_cast<std::uint64_t>(1.5 * load * static_cast<double>(capacity));
  w.mix = {0.2, 0.5, 0.1, 0.2};
  // A slab table in unique mode keeps every erase as a tombstone until a FLUSH: under this churn
  // its lists would grow until it all but stops (core/slab/README.md). The session compacts it
  // as a user keeping it healthy would ask, with `maintain rehash=0.25` (other families: off).
  if (f == family::slab) c.cfg.maintenance.rehash_above = 0.25;
  return c;
}

struct window_result {
  double ops_per_s = 0;
  double samples_per_s = 0;
  std::vector<double> frame_ms, draw_ms;  // whole frames; building them on the CPU
  std::vector<double> gl_ms;              // the GPU's time on each frame's GL commands
};

struct frames_spec {
  double hz = 60;
  bool empty = false;  ///< frames with nothing drawn: what the switch to graphics alone costs
};

// GL_TIME_ELAPSED around one frame's GL commands: the time the GPU spent on them.
class gl_timer {
 public:
  gl_timer() {
    glGenQueries(1, &query_);
    glBeginQuery(GL_TIME_ELAPSED, query_);
  }
  ~gl_timer() { glDeleteQueries(1, &query_); }
  gl_timer(const gl_timer&) = delete;
  gl_timer& operator=(const gl_timer&) = delete;
  /// @brief Ends the query and waits for its result (milliseconds).
  double stop_ms() {
    glEndQuery(GL_TIME_ELAPSED);
    GLuint64 ns = 0;
    glGetQueryObjectui64v(query_, GL_QUERY_RESULT, &ns);
    return static_cast<double>(ns) / 1e6;
  }

 private:
  GLuint query_ = 0;
};

window_result measure_window(app_frame& f, headless_platform* gl, bool running = true,
                             frames_spec spec = {}) {
  session& s = f.sess();
  window_result r;
  const std::uint64_t ops0 = s.status().operations, samples0 = f.samples_taken();
  const auto t0 = clock_type::now();
  auto next = t0;
  while (since(t0) < k_window_s) {
    if (!gl) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      continue;
    }
    const auto start = clock_type::now();
    gl_timer timer;
    gl->frame(
        k_width, k_height,
        [&] {
          if (!spec.empty) f.draw_window();
          r.draw_ms.push_back(since(start) * 1e3);
        },
        f.state().font_size, f.state().ui_theme);
    r.gl_ms.push_back(timer.stop_ms());
    glFinish();  // the frame's GL work counts: interop copies and drawing
    r.frame_ms.push_back(since(start) * 1e3);
    next += std::chrono::duration_cast<clock_type::duration>(
        std::chrono::duration<double>(1.0 / spec.hz));
    if (next > clock_type::now())
      std::this_thread::sleep_until(next);
    else
      next = clock_type::now();  // a late frame does not make the next ones hurry
  }
  const double seconds = since(t0);
  const session_status st = s.status();
  if (st.error || (running && st.act != activity::running))
    throw gpu_error("the workload stopped during the benchmark: " + st.note);
  r.ops_per_s = static_cast<double>(st.operations - ops0) / seconds;
  r.samples_per_s = static_cast<double>(f.samples_taken() - samples0) / seconds;
  return r;
}

double percentile(std::vector<double> v, double p);

// bench live --minutes N: the table runs with frames at 60 Hz sampling within the default share
// for N minutes; one row a minute (does the rate hold?).
void run_minutes(app_frame& f, headless_platform& gl, const char* name, int minutes,
                 bench::result_table& t) {
  for (int m = 1; m <= minutes; ++m) {
    std::vector<double> rates, samples, frames;
    for (int w = 0; w < 20; ++w) {  // 20 windows of 3 s
      window_result r = measure_window(f, &gl);
      rates.push_back(r.ops_per_s);
      samples.push_back(r.samples_per_s);
      frames.insert(frames.end(), r.frame_ms.begin(), r.frame_ms.end());
    }
    double sum = 0, sampled = 0;
    for (std::size_t i = 0; i < rates.size(); ++i) sum += rates[i], sampled += samples[i];
    const double rate = sum / static_cast<double>(rates.size());
    t.add({name, bench::cell(m, "%.0f"), bench::cell(rate / 1e9, "%.3f"),
           bench::cell(sampled / static_cast<double>(samples.size()), "%.1f"),
           bench::cell(percentile(frames, 0.99), "%.2f"), format_count(f.sess().status().live)});
    std::cout << "    minute " << m << ": " << strprintf("%.3f", rate / 1e9) << " G ops/s\n"
              << std::flush;
  }
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1,
                    static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

/// The linear, hive and slab cases, each scaled down to `o.capacity` when given.
std::vector<live_case> live_cases(const cli_options& o) {
  const auto scaled = [&](std::uint64_t full) {
    return o.capacity ? std::min(full, *o.capacity) : full;
  };
  const std::uint64_t slab_pairs = scaled(1ull << 27);
  return {
      make_case("linear", family::linear, scaled(1ull << 28), 0.5),
      make_case("linear-64", family::linear, scaled(1ull << 27), 0.5, key_width::bits64),
      make_case("hive", family::hive, scaled(1ull << 27), 0.5),
      // 10^8 keys in 2^27 pairs of base slabs (beta 0.75), as in the slab case.
      make_case("slab", family::slab, slab_pairs,
                std::min(0.745, 1e8 / static_cast<double>(slab_pairs))),
  };
}

bench::report live_report(const headless_platform& gl) {
  bench::bench_options bo;
  bo.backend = backend::gpu;
  bench::report rep = bench::detail::new_report("live", bo);
  rep.metadata.emplace_back("graphics", gl.description());
  rep.metadata.emplace_back("maintenance",
                            "slab: maintain rehash=0.25 (a FLUSH when the erases since the last "
                            "compaction pass a quarter of the pairs); linear, hive: none");
  rep.metadata.emplace_back(
      "method",
      strprintf("%d rounds, after %.0f s running, of six %.0f s windows: no frames, frames "
                "sampling every frame, frames sampling within the default share, the same at the "
                "window's watching pace (Display > frames while watching), frames without "
                "sampling, empty frames; frames of %dx%d at 60 Hz unless paced; throughput = "
                "operations retired / wall time; GL ms a frame from a GL_TIME_ELAPSED query "
                "around each frame without sampling; medians",
                k_windows, k_warm_s, k_window_s, k_width, k_height));
  return rep;
}

bench::result_table live_table() {
  return bench::result_table{
      "live",
      "Throughput while the window draws at 60 Hz, sampling every frame and within the "
      "default share of the time, against no frames",
      {"table",
       "slots",
       "live keys",
       "no frames (G ops/s)",
       "sampling every frame (G ops/s)",
       "cost every frame",
       "default share (G ops/s)",
       "cost default share",
       "drawing only (G ops/s)",
       "cost drawing only",
       "empty frames (G ops/s)",
       "cost empty frames",
       "watching pace (G ops/s)",
       "cost watching pace",
       "samples/s",
       "ms a sample",
       "batches alone (G ops/s)",
       "frame p50 (ms)",
       "frame p99 (ms)",
       "frame max (ms)",
       "GL ms a frame",
       "draw p50 (ms)",
       "idle frame p50 (ms)",
       "idle frame p99 (ms)",
       "frames",
       "heatmap path"},
      {}};
}

bench::result_table minutes_table() {
  return bench::result_table{
      "live-minutes",
      "Throughput minute by minute while the window draws at 60 Hz sampling within the default "
      "share (each minute the mean of twenty 3 s windows)",
      {"table", "minute", "G ops/s", "samples/s", "frame p99 (ms)", "live keys"},
      {}};
}

/// Fills the case's table, starts its workload and draws frames for the warm-up time.
void fill_and_warm(app_frame& f, const live_case& c, headless_platform& gl) {
  session& s = f.sess();
  s.fill_to(c.load);
  s.wait_idle();
  if (s.status().error) throw gpu_error(std::string(c.name) + ": fill failed: " + s.status().note);
  s.run();
  const auto warm = clock_type::now();
  while (since(warm) < k_warm_s)
    gl.frame(k_width, k_height, [&] { f.draw_window(); }, f.state().font_size, f.state().ui_theme);
}

/// What each kind of window measured over the rounds, and the same frames with the table idle.
struct live_windows {
  std::vector<double> off, on, shared, shared_rate, drawing, empty, paced, frames, draws, gl_ms;
  double sample_ms = 0;
  window_result idle;
};

/// The rounds of six windows (no frames, sampling every frame, within the default share, at the
/// watching pace, drawing without sampling, empty frames); then the table pauses for the idle
/// frames.
live_windows measure_rounds(app_frame& f, headless_platform& gl, double default_share) {
  live_windows m;
  const frames_spec watching{f.pacing().watching_hz > 0 ? f.pacing().watching_hz : 60.0};
  for (int i = 0; i < k_windows; ++i) {
    m.off.push_back(measure_window(f, nullptr).ops_per_s);
    f.sampling().share = 1;  // every frame, as the measurement asks
    window_result w = measure_window(f, &gl);
    m.on.push_back(w.ops_per_s);
    m.frames.insert(m.frames.end(), w.frame_ms.begin(), w.frame_ms.end());
    m.draws.insert(m.draws.end(), w.draw_ms.begin(), w.draw_ms.end());
    f.sampling().share = default_share;
    const window_result d = measure_window(f, &gl);
    m.shared.push_back(d.ops_per_s);
    m.shared_rate.push_back(d.samples_per_s);
    m.paced.push_back(measure_window(f, &gl, true, watching).ops_per_s);
    f.sampling().period_s = 1e9;  // the frames go on, showing the last sample
    const window_result dr = measure_window(f, &gl);
    m.drawing.push_back(dr.ops_per_s);
    m.gl_ms.insert(m.gl_ms.end(), dr.gl_ms.begin(), dr.gl_ms.end());
    m.empty.push_back(measure_window(f, &gl, true, {60, true}).ops_per_s);
    f.sampling().period_s = 0;
  }
  m.sample_ms = f.last_sample_seconds() * 1e3;
  session& s = f.sess();
  s.pause();
  s.wait_idle();
  // The same frames with the table idle: what drawing and sampling cost alone.
  m.idle = measure_window(f, &gl, false);
  return m;
}

/// The case's row of the live table, and a line of it on the terminal.
void add_live_row(bench::result_table& t, const char* name, app_frame& f, const live_windows& m) {
  session& s = f.sess();
  const double a = bench::median(m.off), b = bench::median(m.on);
  // Each batch's own rate (CUDA events around its kernels): what the pipeline would reach if
  // nothing but the batches ran, to tell GPU time from time lost between batches.
  std::vector<double> alone;
  for (const auto& p : s.throughput()) alone.push_back(p.ops_per_s);
  t.add({name,
         format_count(s.capacity()),
         format_count(s.status().live),
         bench::cell(a / 1e9, "%.2f"),
         bench::cell(b / 1e9, "%.2f"),
         bench::cell(100.0 * (1.0 - b / a), "%.1f%%"),
         bench::cell(bench::median(m.shared) / 1e9, "%.2f"),
         bench::cell(100.0 * (1.0 - bench::median(m.shared) / a), "%.1f%%"),
         bench::cell(bench::median(m.drawing) / 1e9, "%.2f"),
         bench::cell(100.0 * (1.0 - bench::median(m.drawing) / a), "%.1f%%"),
         bench::cell(bench::median(m.empty) / 1e9, "%.2f"),
         bench::cell(100.0 * (1.0 - bench::median(m.empty) / a), "%.1f%%"),
         bench::cell(bench::median(m.paced) / 1e9, "%.2f"),
         bench::cell(100.0 * (1.0 - bench::median(m.paced) / a), "%.1f%%"),
         bench::cell(bench::median(m.shared_rate), "%.1f"),
         bench::cell(m.sample_ms, "%.2f"),
         bench::cell(bench::median(alone) / 1e9, "%.2f"),
         bench::cell(percentile(m.frames, 0.5), "%.2f"),
         bench::cell(percentile(m.frames, 0.99), "%.2f"),
         bench::cell(percentile(m.frames, 1.0), "%.2f"),
         bench::cell(percentile(m.gl_ms, 0.5), "%.2f"),
         bench::cell(percentile(m.draws, 0.5), "%.2f"),
         bench::cell(percentile(m.idle.frame_ms, 0.5), "%.2f"),
         bench::cell(percentile(m.idle.frame_ms, 0.99), "%.2f"),
         bench::cell(static_cast<double>(m.frames.size()), "%.0f"),
         f.image().path()});
  std::cout << "    no frames " << strprintf("%.2f", a / 1e9) << ", sampling every frame "
            << strprintf("%.2f", b / 1e9) << ", within the default share "
            << strprintf("%.2f", bench::median(m.shared) / 1e9) << " G ops/s\n"
            << std::flush;
}

}  // namespace

int run_live_bench(const cli_options& o) {
  std::string why;
  if (!query_gpu(&why)) throw user_error("bench live needs a CUDA device: " + why);
  headless_platform gl(18.f);
  std::cout << "graphics: " << gl.description() << "\n" << std::flush;
  const std::vector<live_case> cases = live_cases(o);
  bench::report rep = live_report(gl);
  bench::result_table t = live_table();
  const bench::table_filter only("live", o.bench.only, {"linear", "linear-64", "hive", "slab"});
  bench::result_table by_minute = minutes_table();
  for (const live_case& c : cases) {
    if (!only.wants(c.name)) continue;
    std::cout << "--- " << c.name << ": filling to load " << c.load << "\n" << std::flush;
    app_frame f(c.cfg, backend_choice::gpu, "bench live");
    f.state().font_size = 18.f;
    f.sampling().period_s = 0;
    const double default_share = f.sampling().share;
    fill_and_warm(f, c, gl);
    if (o.live_minutes > 0) {
      run_minutes(f, gl, c.name, o.live_minutes, by_minute);
      f.sess().pause();
      f.sess().wait_idle();
      continue;
    }
    add_live_row(t, c.name, f, measure_rounds(f, gl, default_share));
  }
  rep.tables.push_back(std::move(o.live_minutes > 0 ? by_minute : t));
  rep.notes.push_back(
      "cost = 1 - with frames / without; the default share lets sampling take at most that share "
      "of the "
      "time (Display > sampling share); a frame draws the whole window (every view of the family) "
      "after sampling "
      "the table: occupancy, histograms, the family's inspections, through CUDA-GL interop where "
      "the GL context is on the CUDA device");
  publish_report(rep, o);
  return 0;
}

}  // namespace hs::app
