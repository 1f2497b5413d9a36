// Opens the window with a fresh session (or a scenario as a preset); falls back to rendering the
// default demo headless when there is no display, and says where the images went.
#include "app/commands/window_command.hpp"

#include <iostream>

#include "app/commands/render_command.hpp"
#include "app/session/terminal_progress.hpp"
#include "app/ui/app_frame.hpp"
#include "app/ui/window_platform.hpp"
#include "core/common/error.hpp"

namespace hs::app {

namespace {
constexpr const char* k_demo = "linear-clustering";

int render_demo(const cli_options& o, const std::string& why) {
  std::cout << "hashscope: " << why << ": rendering the default demo (" << k_demo
            << ") headless instead\n";
  cli_options r = o;
  r.scenario = o.scenario.empty() ? k_demo : o.scenario;
  if (r.out_dir.empty()) r.out_dir = "out/demo";
  return run_render(r);
}
// The window's first table and workload from the command line (--keys read for its width).
session_config window_config(const cli_options& o, backend b) {
  session_config cfg;
  cfg.table.backend = b;
  cfg.table.capacity = o.capacity.value_or(0);
  if (o.hash) cfg.table.hash = *o.hash;
  if (o.probe) cfg.table.linear.probe = *o.probe;
  if (o.table_width) set_key_width(cfg.table, *o.table_width);
  cfg.table.devices = devices_for(o, b);
  cfg.workload.batch_size = b == backend::gpu ? (1u << 20) : (1u << 16);
  if (!o.keys.path.empty()) {
    if (!o.scenario.empty())
      throw user_error(
          "--keys gives the workload its keys, and a scenario names its own: write "
          "'keys file PATH' in the scenario instead");
    workload::key_file_spec keys = o.keys;
    keys.width = cfg.table.width;  // read for the table's key width
    cfg.workload.key_file =
        workload::load_key_file(keys, terminal_progress("reading " + keys.path));
    cfg.workload.keys.dist = workload::distribution::file;
    std::cout << "hashscope: keys from " << o.keys.path << ": "
              << cfg.workload.key_file->report.summary() << "\n";
  } else if (o.keys.column || o.keys.format != workload::key_format::automatic) {
    throw user_error("--keys-column and --keys-format go with --keys FILE");
  }
  return cfg;
}
}  // namespace

int run_window_command(const cli_options& o) {
  if (o.headless) return render_demo(o, "--headless given");
  if (!display_available())
    return render_demo(o, "no display ($DISPLAY and $WAYLAND_DISPLAY are unset)");
  std::string note;
  const backend b = resolve_backend(o.backend, &note);
  std::cout << "hashscope: " << (b == backend::gpu ? "GPU backend: " : "CPU model backend: ")
            << note << "\n";
  const session_config cfg = window_config(o, b);
  if (!o.table_file.empty() && !o.scenario.empty())
    throw user_error(
        "--table opens a table, and a scenario makes its own: write "
        "'load table PATH' in the scenario instead");
  window_options w;
  w.frames = o.frames;
  w.font_size = o.font_size;
  w.ui_theme = o.ui_theme;
  w.screenshot = o.screenshot;
  try {
    run_window(
        [&](bool first_launch) {
          auto frame = std::make_unique<app_frame>(cfg, o.backend, note);
          // A first launch welcomes with the demo preset's first stage rather than an empty table,
          // unless the command line asked for a scenario or a table of its own.
          std::string preset = o.scenario;
          if (preset.empty() && first_launch && !o.capacity && !o.hash && !o.probe &&
              !o.table_width && !o.gpus && o.keys.path.empty() && o.table_file.empty()) {
            preset = k_demo;
            std::cout << "hashscope: first launch: the " << k_demo
                      << " preset plays its first stage (Space runs, N goes "
                      << "on, F1 lists the keys)\n";
          }
          // A scenario that cannot be opened (a file gone since a desktop launcher named it, a
          // malformed one) leaves the window open on its table, saying why.
          if (!preset.empty()) {
            try {
              frame->load_preset(load_scenario(preset));
            } catch (const std::exception& e) {
              frame->set_error(std::string("cannot open the scenario: ") + e.what());
              frame->notify("the scenario could not be opened: see the Controls");
              std::cerr << "hashscope: cannot open the scenario: " << e.what() << "\n";
            }
          }
          if (!o.table_file.empty()) {
            try {
              frame->open_table(o.table_file);
            } catch (const std::exception& e) {
              frame->set_error(std::string("cannot open the table: ") + e.what());
              std::cerr << "hashscope: cannot open the table: " << e.what() << "\n";
            }
          }
          if (o.present) frame->set_presenting(true);
          return frame;
        },
        w);
  } catch (const graphics_error& e) {
    return render_demo(o, std::string("no window (") + e.what() + ")");
  }
  return 0;
}

}  // namespace hs::app
