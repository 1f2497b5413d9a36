// Scenario rendering: steps run on a session synchronously; captures draw single-view figures
// through the headless platform, and the numbers behind each go beside it.
#include "app/commands/render_command.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/families/family_hooks.hpp"
#include "app/platform/headless_platform.hpp"
#include "app/platform/png.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/figure_numbers.hpp"
#include "app/ui/render_animation.hpp"
#include "app/ui/render_paper.hpp"
#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace fs = std::filesystem;

namespace {

using json = nlohmann::ordered_json;

void save(const fs::path& p, const std::string& text, std::vector<std::string>& files) {
  write_file_atomically(p, text);  // whole or not at all
  files.push_back(p.string());
}

std::string now_text() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", std::localtime(&t));
  return buf;
}

void create_out_dir(const std::string& out_dir) {
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw user_error("cannot create " + out_dir + ": " + ec.message());
}

/// The scenario's table with the command line's backend and capacity over it; `note` says how the
/// backend was chosen.
session_config render_config(const scenario& sc, backend_choice wanted, std::uint64_t capacity,
                             std::string& note) {
  session_config cfg = sc.config;
  cfg.table.backend = resolve_backend(wanted, &note);
  if (capacity) cfg.table.capacity = capacity;
  if (cfg.table.capacity == 0) cfg.table.capacity = default_capacity(cfg.table.backend);
  return cfg;
}

/// Compared tables run on the rendered table's backend; a capacity from the command line is theirs
/// too.
void start_compared_tables(app_frame& frame, const scenario& sc, const session_config& cfg,
                           std::uint64_t capacity) {
  if (sc.compare.empty()) return;
  std::vector<compare_entry> entries = sc.compare;
  for (compare_entry& e : entries) {
    e.table.backend = cfg.table.backend;
    if (e.table.capacity == 0 || capacity) e.table.capacity = cfg.table.capacity;
  }
  frame.start_compare(entries);
}

/// The family's own settings, as its rows in the numbers say them (the hive's shape, ...).
json family_settings_json(const session_config& cfg, session& s) {
  number_rows about;
  if (const auto rows = hooks_of(cfg.table.family).about_rows) rows(about, s, s.tbl().stats({}));
  json settings = json::object();
  for (const auto& [name, value] : about) settings[name] = value;
  return settings;
}

json workload_json(const session_config& cfg) {
  const auto& keys = cfg.workload.keys;
  json w{{"distribution", std::string(workload::to_string(keys.dist))},
         {"seed", keys.seed},
         {"universe", keys.universe},
         {"cluster", keys.cluster},
         {"zipf_s", keys.zipf_s},
         {"batch", cfg.workload.batch_size},
         {"mix", workload::to_string(cfg.workload.mix)}};
  if (keys.dist == workload::distribution::sequential) w["start"] = keys.start;
  if (keys.id_bits) w["id_bits"] = keys.id_bits;  // drawn as 64-bit IDs, folded for 32-bit keys
  if (const auto& file = cfg.workload.key_file; file && keys.dist == workload::distribution::file) {
    const workload::key_file_report& r = file->report;
    w["key_file"] = {{"path", file->source.path},
                     {"column", file->source.column},
                     {"format", std::string(workload::to_string(r.format))},
                     {"keys", r.keys},
                     {"records", r.records},
                     {"duplicates", r.duplicates},
                     {"reserved", r.reserved},
                     {"unreadable", r.unreadable},
                     {"colliding_strings", r.colliding_strings},
                     {"bytes", r.bytes},
                     {"read_seconds", r.seconds},
                     {"summary", r.summary()}};
    if (r.format == workload::key_format::text)
      w["key_file"]["string_hash"] = workload::string_hash_name(r.width);
  }
  return w;
}

/// The metadata, written through nlohmann's library (keys in this order); the captures follow.
json scenario_metadata(const scenario& sc, const std::string& title, const std::string& note,
                       const session_config& cfg, session& s, const headless_platform& gl) {
  json meta{{"scenario", sc.name},
            {"file", sc.file},
            {"title", title},
            {"date", now_text()},
            {"backend", s.gpu() ? s.backend_label() : "CPU model (" + note + ")"}};
  if (auto g = query_gpu(); g && s.gpu()) meta["gpu"] = g->name;
  meta["graphics"] = gl.description();
  meta["family"] = std::string(to_string(cfg.table.family));
  meta["capacity"] = cfg.table.capacity;
  meta["hash"] = std::string(to_string(cfg.table.hash));
  meta["key_bits"] = bits_of(cfg.table.width);
  if (!sc.compare.empty()) {
    json compared = json::array();
    for (const compare_entry& e : sc.compare)
      compared.push_back({{"label", e.label}, {"key_bits", bits_of(e.table.width)}});
    meta["compared"] = compared;
  }
  meta["family_settings"] = family_settings_json(cfg, s);
  meta["maintenance"] = {{"grow_above", cfg.maintenance.grow_above},
                         {"shrink_below", cfg.maintenance.shrink_below},
                         {"rehash_above", cfg.maintenance.rehash_above}};
  meta["workload"] = workload_json(cfg);
  return meta;
}

/// Steps of a stage that ends in `capture animation` wait for it: it spreads them over its frames.
std::vector<bool> steps_held_for_animation(const scenario& sc) {
  std::vector<bool> animated(sc.steps.size(), false);
  for (std::size_t i = sc.steps.size(), next_capture_animated = 0; i-- > 0;) {
    if (sc.steps[i].kind == scenario_step::capture)
      next_capture_animated = sc.steps[i].animation.has_value();
    else
      animated[i] = next_capture_animated;
  }
  return animated;
}

/// What the steps of one render share: the frame that runs and draws them, where the figures go,
/// and the metadata's list of captures they add to.
struct scenario_render {
  const scenario& sc;
  const std::string& out_dir;
  int width;
  int height;
  const render_style& style;
  headless_platform& gl;
  app_frame& frame;
  session& s;
  const std::string& title;
  render_result& out;
  json& captures;
  int capture = 0;
  std::vector<scenario_step> stage{};  ///< steps waiting for the animation that ends their stage

  void run_step(const scenario_step& step, bool held_for_animation);
  void capture_animation(const scenario_step& step);
  void run_compared_step(const scenario_step& step);
  void run_session_step(const scenario_step& step);
  void capture_views(const scenario_step& step);
  bool write_paper_view(const std::string& v, const std::string& stem, json& views);
  double write_screen_view(const std::string& v, const std::string& stem, json& views);
  fs::path save_numbers(const std::string& v, const std::string& stem);
  double shown_load(const std::string& v) const;
};

void scenario_render::run_step(const scenario_step& step, bool held_for_animation) {
  if (step.kind != scenario_step::capture && held_for_animation && !frame.comparing()) {
    stage.push_back(step);
    return;
  }
  if (step.animation && !frame.comparing()) return capture_animation(step);
  if (step.kind != scenario_step::capture && frame.comparing()) return run_compared_step(step);
  if (step.kind != scenario_step::capture) return run_session_step(step);
  capture_views(step);
}

void scenario_render::capture_animation(const scenario_step& step) {
  ++capture;
  const std::string base =
      (fs::path(out_dir) / strprintf("%s-%02d-animation", sc.name.c_str(), capture)).string();
  const animation_result a =
      record_animation(frame, gl, stage, *step.animation, base, width, height,
                       strprintf("%s  |  capture %d", title.c_str(), capture));
  stage.clear();
  if (!a.error.empty())
    std::cerr << "hashscope: " << sc.file << ":" << step.line << ": " << a.error << "\n";
  json entry{{"capture", capture},
             {"line", step.line},
             {"animation", a.file},
             {"frames", a.frames},
             {"fps", step.animation->fps}};
  if (!a.error.empty()) entry["error"] = a.error;
  entry["load"] = frame.last_sample().stats.load_factor();
  captures.push_back(std::move(entry));
  out.figures.push_back(
      {a.file, step.animation->view, capture, {}, frame.last_sample().stats.load_factor()});
}

/// In compare mode every table takes the step.
void scenario_render::run_compared_step(const scenario_step& step) {
  compare_set& c = *frame.comparing();
  c.queue({*as_script_step(step)});
  c.wait_idle();
  if (const std::string e = c.error(); !e.empty())
    throw gpu_error(sc.file + ":" + std::to_string(step.line) + ": " + e);
  if (step.kind == scenario_step::say)
    s.queue({*as_script_step(step)}), s.wait_idle();  // the caption under the figure
}

void scenario_render::run_session_step(const scenario_step& step) {
  s.queue({*as_script_step(step)});
  s.wait_idle();
  const session_status st = s.status();
  if (st.error) throw gpu_error(sc.file + ":" + std::to_string(step.line) + ": " + st.note);
  if (!st.note.empty()) std::cout << sc.name << ":" << step.line << ": " << st.note << "\n";
}

void scenario_render::capture_views(const scenario_step& step) {
  ++capture;
  const std::string stem = strprintf("%s-%02d", sc.name.c_str(), capture);
  if (step.range_first) {
    frame.heatmap().set_range(*step.range_first, step.range_count, s.capacity());
  } else if (step.range_device) {  // the shard's slots: shard d holds [d per, (d + 1) per)
    const std::uint32_t devices = std::max<std::uint32_t>(s.config().table.devices, 1);
    if (*step.range_device >= devices)
      throw user_error(strprintf("%s:%d: capture device=%u: the table is over %u device%s then",
                                 sc.file.c_str(), step.line, *step.range_device, devices,
                                 devices == 1 ? "" : "s"));
    const std::uint64_t per = s.capacity() / devices;
    frame.heatmap().set_range(*step.range_device * per, per, s.capacity());
  } else
    frame.heatmap().set_range(0, 0, s.capacity());
  if (family_views* fv = frame.views())
    fv->set_bucket_range(step.buckets ? step.buckets->first : 0,
                         step.buckets ? step.buckets->second : 0);
  json entry{{"capture", capture}, {"line", step.line}};
  if (const std::string caption = s.status().caption; !caption.empty()) entry["caption"] = caption;
  json& views = entry["views"] = json::array();
  double load = 0;
  for (const std::string& v : step.views) {
    if (style.paper && write_paper_view(v, stem, views)) continue;
    load = write_screen_view(v, stem, views);
  }
  entry["numbers"] = json::object();
  for (const auto& [k, val] : frame.numbers()) entry["numbers"][k] = val;
  entry["load"] = load;
  captures.push_back(std::move(entry));
}

/// In paper style a view with a paper figure is written as one, and the stats view as its numbers
/// alone; false when the view has neither, so it is drawn as on screen.
bool scenario_render::write_paper_view(const std::string& v, const std::string& stem, json& views) {
  if (const auto paper = paper_figure(frame, v, s.status().caption)) {
    const std::string base = (fs::path(out_dir) / (stem + "-" + v)).string();
    // --size is one panel's: a figure of two panels is twice as wide, as in plot
    fig::page pg = style.page;
    pg.width_in *= double(std::max<std::size_t>(paper->panels.size(), 1));
    pg = fig::fit_page(*paper, pg);  // a code listing asks for room
    const auto files = fig::write_figure(*paper, pg, base);
    out.figures.push_back({files.front(), v, capture, {}, shown_load(v)});
    const fs::path data = save_numbers(v, stem);
    if (v == "compare" && frame.compare_figure())  // and every batch's point
      save(fs::path(out_dir) / (stem + "-compare-batches.csv"),
           frame.compare_figure()->batches_csv(), out.data_files);
    views.push_back({{"view", v},
                     {"style", "paper"},
                     {"png", fs::path(files[0]).filename().string()},
                     {"svg", fs::path(files[2]).filename().string()},
                     {"pdf", fs::path(files[1]).filename().string()},
                     {"numbers", data.filename().string()}});
    return true;
  }
  if (v == "stats") {  // in paper style the numbers are their CSV, not a picture
    const fs::path data = save_numbers(v, stem);
    views.push_back({{"view", v}, {"style", "paper"}, {"numbers", data.filename().string()}});
    return true;
  }
  return false;
}

/// Draws the view as on screen into a PNG with its numbers beside it; returns the load it shows.
double scenario_render::write_screen_view(const std::string& v, const std::string& stem,
                                          json& views) {
  const std::string fig_title = strprintf("%s  |  capture %d", title.c_str(), capture);
  const auto draw = [&] { return frame.draw_figure(v, float(width), float(height), fig_title); };
  // A first frame lays the view out (the heatmap learns its area), then sample, then draw.
  gl.render(width, height, draw, 1);
  frame.sample_now();
  if (!parse_view_kind(v)) {  // a family view may choose from that sample what to show (the
                              // longest list)
    gl.render(width, height, draw, 1);
    frame.sample_now();
  }
  std::array<float, 4> rect{};
  const auto px = gl.render(width, height, [&] { rect = draw(); });
  const fs::path png = fs::path(out_dir) / (stem + "-" + v + ".png");
  write_png(png.string(), width, height, px);
  const double load = shown_load(v);
  out.figures.push_back({png.string(), v, capture, rect, load});
  const fs::path data = save_numbers(v, stem);
  json view{{"view", v}, {"png", png.filename().string()}};
  if (style.paper) view["style"] = "screen (this view has no paper figure yet)";
  view["numbers"] = data.filename().string();
  view["view_rect"] = {double(rect[0]), double(rect[1]), double(rect[2]), double(rect[3])};
  views.push_back(std::move(view));
  return load;
}

/// The numbers behind a view, as CSV beside its figure.
fs::path scenario_render::save_numbers(const std::string& v, const std::string& stem) {
  const fs::path data = fs::path(out_dir) / (stem + "-" + v + ".csv");
  save(data, figure_numbers(frame, v), out.data_files);
  return data;
}

/// The load a figure shows: in compare mode the compared tables' (they share one workload), not
/// the idle session table's.
double scenario_render::shown_load(const std::string& v) const {
  const compare_view* c = frame.compare_figure();
  return v == "compare" && c ? c->load(0) : frame.last_sample().stats.load_factor();
}

}  // namespace

render_result render_scenario(const scenario& sc, const std::string& out_dir, backend_choice choice,
                              std::uint64_t capacity, int width, int height, float font_size,
                              const render_style& style) {
  render_result out;
  out.dir = out_dir;
  create_out_dir(out_dir);

  std::string note;
  const backend_choice wanted = choice != backend_choice::automatic ? choice : sc.backend;
  const session_config cfg = render_config(sc, wanted, capacity, note);

  headless_platform gl(font_size);
  auto frame = std::make_unique<app_frame>(cfg, wanted, note);
  frame->heatmap().set_colormap(sc.colormap);
  frame->heatmap().set_mode(sc.heatmap_mode);
  frame->state().given_radix = sc.keys_radix;  // a lesson's decimal keys stay decimal in figures
  start_compared_tables(*frame, sc, cfg, capacity);
  session& s = frame->sess();
  const std::string title = (sc.title.empty() ? sc.name : sc.title);

  json meta = scenario_metadata(sc, title, note, cfg, s, gl);
  json& captures = meta["captures"] = json::array();
  const std::vector<bool> held = steps_held_for_animation(sc);
  scenario_render run{sc, out_dir, width, height, style, gl, *frame, s, title, out, captures};
  for (std::size_t i = 0; i < sc.steps.size(); ++i) run.run_step(sc.steps[i], held[i]);

  const fs::path meta_path = fs::path(out_dir) / (sc.name + "-metadata.json");
  save(meta_path, meta.dump() + "\n", out.data_files);
  out.metadata = meta_path.string();
  frame.reset();  // GL objects go while the context lives
  return out;
}

int run_render(const cli_options& o) {
  scenario sc = load_scenario(o.scenario);
  if (!sc.captures())  // the window plays such a scenario; render draws only what is captured
    throw user_error(sc.file +
                     ": the scenario captures nothing for render to draw (add a "
                     "'capture heatmap' step; the window plays it as it is)");
  if (o.table_width) set_key_width(sc, *o.table_width);
  if (o.gpus)
    sc.config.table.devices = devices_for(
        o, resolve_backend(o.backend != backend_choice::automatic ? o.backend : sc.backend));
  if (o.animate_seconds > 0) animate_every_stage(sc, o.animate_seconds);
  const std::string dir = o.out_dir.empty() ? "out/render/" + sc.name : o.out_dir;
  std::string notice;
  const float font_size = o.font_size > 0 ? clamp_font_size(o.font_size, &notice) : 18.f;
  if (!notice.empty()) std::cerr << "hashscope: " << notice << "\n";
  render_style style;
  style.paper = o.style ? *o.style == "paper" : sc.paper_style;
  if (style.paper) {
    style.page.dpi = o.dpi;
    if (!o.page_size.empty()) {
      const auto in = fig::parse_page_size(o.page_size, o.dpi);
      if (!in)
        throw user_error("--size: '" + o.page_size +
                         "' is not WxH with in, cm, mm or px (3.5x2.4in, 9x6cm)");
      style.page.width_in = in->first, style.page.height_in = in->second;
    }
    if (style.page.width_in * o.dpi > 16384 || style.page.height_in * o.dpi > 16384)
      throw user_error(strprintf("--size %.2fx%.2f in at --dpi %.0f is over 16,384 pixels a side",
                                 style.page.width_in, style.page.height_in, o.dpi));
  }
  const render_result r =
      render_scenario(sc, dir, o.backend, o.capacity.value_or(0), static_cast<int>(o.width),
                      static_cast<int>(o.height), font_size, style);
  std::cout << "rendered " << r.figures.size() << " figures of " << sc.name << " into " << r.dir
            << ":\n";
  for (const auto& f : r.figures)
    std::cout << "  " << f.png << "  (load " << strprintf("%.3f", f.load) << ")\n";
  std::cout << "numbers and metadata: " << r.metadata << "\n";
  return 0;
}

}  // namespace hs::app
