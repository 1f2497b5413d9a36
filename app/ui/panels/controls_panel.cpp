// The controls. Each section has its own ID scope: a header and a widget of one label ("Run")
// would otherwise share an ID, and the button would never register a press.
#include "app/ui/panels/controls_panel.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>

#include <imgui_stdlib.h>

#include "app/ui/panels/heatmap_panel.hpp"
#include "app/ui/panels/history_strip.hpp"
#include "core/common/bit_math.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace {

bool log2_slider(const char* label, std::uint64_t& value, int lo, int hi) {
  int e = floor_log2_64(std::max<std::uint64_t>(value, 1));
  const std::string shown = "2^" + std::to_string(e) + " = " + format_count(std::uint64_t{1} << e);
  const bool changed = ImGui::SliderInt(label, &e, lo, hi, shown.c_str());
  if (changed) value = std::uint64_t{1} << e;
  return changed;
}

void tooltip_with_keys(const char* what, command c) {
  ImGui::SetItemTooltip("%s (%s)", what, keys_for(c));
}

}  // namespace

controls_panel::controls_panel() {
  try {
    presets_ = shipped_scenarios();
  } catch (const std::exception&) {
  }
}

const char* controls_panel::title() const { return "Controls"; }

void controls_panel::draw(frame_state& f) {
  if (pending_serial_ != f.table_serial) {  // a new table: its settings are the ones to edit
    pending_ = f.sess->config();
    pending_serial_ = f.table_serial;
  }
  const float fs = ImGui::GetFontSize();
  const session_status st = f.sess->status();
  draw_backend_label(f);
  if (!f.sess->gpu()) ImGui::TextWrapped("(%s)", f.backend_note.c_str());
  ImGui::PushItemWidth(-9.5f * fs);
  const auto section = [&](const char* header, const char* id, ImGuiTreeNodeFlags flags,
                           auto&& body) {
    ImGui::PushID(id);
    if (ImGui::CollapsingHeader(header, flags)) body();
    ImGui::PopID();
  };
  if (ImGui::CollapsingHeader("Run", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::PushID(
        "run-section");  // after the header: the "Run" header and the "Run" button are two items
    draw_run(f, st);
    ImGui::PopID();
  }
  section("Workload", "workload-section", ImGuiTreeNodeFlags_DefaultOpen,
          [&] { draw_workload(f); });
  section("Table", "table-section", ImGuiTreeNodeFlags_DefaultOpen, [&] { draw_table(f); });
  section("Maintenance", "maintenance-section", 0, [&] { draw_maintenance(f); });
  section("Display", "display-section", 0, [&] { draw_display(f); });
  ImGui::PopItemWidth();
  if (!f.error.empty())
    ImGui::TextColored(role_color(ui_role::error, f.ui_theme), "%s", f.error.c_str());
}

void controls_panel::draw_run(frame_state& f, const session_status& st) {
  const float fs = ImGui::GetFontSize();
  const bool running = st.act != activity::idle;
  if (ImGui::Button(running ? "Pause" : "Run", ImVec2(5 * fs, 0)))
    f.actions->execute(command::run_pause);
  tooltip_with_keys(
      running ? "pause after the batches in flight" : "run the workload batch after batch",
      command::run_pause);
  ImGui::SameLine();
  if (ImGui::Button("Back")) f.actions->execute(command::back);
  tooltip_with_keys("the table, its counts and plots as they were before the last command",
                    command::back);
  ImGui::SameLine();
  if (ImGui::Button("Step")) f.actions->execute(command::step);
  tooltip_with_keys("one batch, or the step ops below (traced up to 64)", command::step);
  ImGui::SameLine();
  if (ImGui::Button("Forward")) f.actions->execute(command::forward);
  tooltip_with_keys("replay the commands Back undid, as they ran", command::forward);
  ImGui::SameLine();
  if (ImGui::Button("Reset")) f.actions->execute(command::reset);
  tooltip_with_keys("empty the table and the plots", command::reset);
  draw_history_strip(f);
  ImGui::SliderInt("step ops", &f.step_ops, 0, 64, f.step_ops == 0 ? "one batch" : "%d ops");
  draw_typed_keys(f);
  float target = static_cast<float>(f.target_load);
  const auto top = static_cast<float>(max_fill_load(f.sess->config().table.family));
  if (ImGui::SliderFloat(top > 1 ? "target load (beta)" : "target load", &target, 0.f, top, "%.3f"))
    f.target_load = target;
  if (ImGui::Button("Fill or drain to target")) f.actions->execute(command::fill);
  tooltip_with_keys("insert or erase until the live load reaches the target", command::fill);
  ImGui::Text("%s, live load %.4f", to_string(st.act), st.live / double(f.sess->capacity()));
  draw_note(f, st, "");
  if (presets_.empty()) return;
  if (loaded_seen_ != f.loaded_serial) {  // a load or a new table: the combo names what is loaded
    loaded_seen_ = f.loaded_serial;
    const auto at = std::find(presets_.begin(), presets_.end(), f.loaded_scenario);
    preset_ = at == presets_.end() ? -1 : static_cast<int>(at - presets_.begin());
  }
  const std::string shown = preset_ >= 0 ? presets_[static_cast<std::size_t>(preset_)]
                            : f.loaded_scenario.empty() ? std::string("none loaded")
                                                        : f.loaded_scenario + " (a file)";
  preset_shown_ = shown;
  if (ImGui::BeginCombo("preset", shown.c_str())) {
    for (int i = 0; i < static_cast<int>(presets_.size()); ++i)
      if (ImGui::Selectable(presets_[static_cast<std::size_t>(i)].c_str(), i == preset_))
        preset_ = i;
    ImGui::EndCombo();
  }
  ImGui::BeginDisabled(preset_ < 0);
  const bool load = ImGui::Button("Load preset");
  ImGui::EndDisabled();
  if (load) {
    try {
      f.actions->load_preset(load_scenario(presets_[static_cast<std::size_t>(preset_)]));
      f.error.clear();
    } catch (const std::exception& e) {
      f.error = e.what();
    }
  }
  if (st.script_held) {
    ImGui::SameLine();
    if (ImGui::Button("Next stage")) f.actions->execute(command::next_stage);
    tooltip_with_keys("run the preset's next stage", command::next_stage);
  }
}

void controls_panel::draw_workload(frame_state& f) {
  workload::workload_spec w = f.sess->workload();
  bool changed = false;
  int dist = static_cast<int>(w.keys.dist);
  if (ImGui::Combo("keys", &dist,
                   "uniform\0uniform-dup\0sequential\0clustered\0zipf\0key file\0")) {
    const auto picked = static_cast<workload::distribution>(dist);
    if (picked != workload::distribution::file) {
      w.keys.dist = picked;
      changed = true;
    } else if (f.last_keys) {  // back to the file read last
      w.keys.dist = picked;
      w.key_file = f.last_keys;
      changed = true;
    } else {
      f.actions->execute(command::open_key_file);  // the keys change once the file is read
    }
  }
  draw_key_file(f, w);
  if (w.keys.dist == workload::distribution::uniform_dup ||
      w.keys.dist == workload::distribution::zipf)
    changed |= log2_slider("universe", w.keys.universe, 4, 31);
  if (w.keys.dist == workload::distribution::zipf) {
    float s = static_cast<float>(w.keys.zipf_s);
    if (ImGui::SliderFloat("zipf s", &s, 0.1f, 3.f)) w.keys.zipf_s = s, changed = true;
  }
  if (w.keys.dist == workload::distribution::clustered) {
    std::uint64_t c = w.keys.cluster;
    if (log2_slider("cluster", c, 1, 20))
      w.keys.cluster = static_cast<std::uint32_t>(c), changed = true;
  }
  changed |= ImGui::InputScalar("seed", ImGuiDataType_U64, &w.keys.seed);
  changed |= log2_slider("batch", w.batch_size, 0, 26);
  float mix[4] = {static_cast<float>(w.mix.insert), static_cast<float>(w.mix.find_hit),
                  static_cast<float>(w.mix.find_miss), static_cast<float>(w.mix.erase)};
  const char* names[4] = {"insert", "find (hit)", "find (miss)", "erase"};
  for (int i = 0; i < 4; ++i) changed |= ImGui::SliderFloat(names[i], &mix[i], 0.f, 1.f, "%.2f");
  if (mix[0] + mix[1] + mix[2] + mix[3] <= 0.f) mix[0] = 1.f;
  w.mix = {mix[0], mix[1], mix[2], mix[3]};
  if (!changed) return;
  try {
    f.sess->set_workload(w);
    f.error.clear();
  } catch (const user_error& e) {
    f.error = e.what();
  }
}

// The key file's part of the Workload section: what was read, how the next file is read, and the
// read under way.
void controls_panel::draw_key_file(frame_state& f, const workload::workload_spec& w) {
  if (w.keys.dist == workload::distribution::file && w.key_file) {
    const workload::key_list& k = *w.key_file;
    ImGui::TextWrapped("%s", std::filesystem::path(k.source.path).filename().string().c_str());
    ImGui::SetItemTooltip("%s", k.source.path.c_str());
    ImGui::TextDisabled("%s", k.report.summary().c_str());
    if (k.report.format == workload::key_format::text)
      ImGui::TextDisabled("text keys through %s", workload::string_hash_name(k.report.width));
  }
  if (w.keys.dist != workload::distribution::file && !f.key_loader.busy()) return;
  if (f.key_loader.busy()) {
    const float done = f.key_loader.progress();
    ImGui::ProgressBar(
        done, ImVec2(-FLT_MIN, 0),
        strprintf("reading %s: %.0f%%",
                  std::filesystem::path(f.key_loader.path()).filename().c_str(), 100.0 * done)
            .c_str());
  }
  int format = static_cast<int>(f.key_source.format);
  ImGui::Combo("key format", &format, "auto\0decimal\0hex\0text\0u32le\0u64le\0");
  f.key_source.format = static_cast<workload::key_format>(format);
  ImGui::SetItemTooltip(
      "How the next key file is read, for the table's key width. auto: u32le for .u32 and .bin "
      "files, u64le for .u64, else the first key decides (0x... hex, digits decimal, anything "
      "else text through %s, or %s for 64-bit keys).",
      workload::k_string_hash, workload::k_string_hash_64);
  int column = static_cast<int>(f.key_source.column);
  if (ImGui::InputInt("CSV column", &column)) f.key_source.column = std::clamp(column, 0, 1 << 20);
  ImGui::SetItemTooltip("A CSV's column, counted from 1 (0: the whole line is the key).");
  if (ImGui::Button("Open key file...")) f.actions->execute(command::open_key_file);
  tooltip_with_keys("read your own keys: one per line, a CSV column or raw 32- or 64-bit words",
                    command::open_key_file);
}

// The step box: keys typed by the class, stepped one by one as traced operations.
void controls_panel::draw_typed_keys(frame_state& f) {
  std::string text = f.typed.text();
  if (ImGui::InputTextWithHint("your keys", "12, 44, 7 or words", &text))
    if (const auto radix = f.typed.read(std::move(text), f.typed_width()))
      f.given_radix = *radix;  // shown as they were typed
  ImGui::SetItemTooltip(
      "Step then runs these keys one by one, each a traced operation the views replay. Numbers "
      "are keys (decimal, or hex with 0x); words go through %s.",
      workload::string_hash_name(f.typed_width()));
  int kind = static_cast<int>(f.typed.kind());
  if (ImGui::Combo("typed keys as", &kind, "insert\0find\0erase\0"))
    f.typed.set_kind(static_cast<op_kind>(kind));
  const step_box& box = f.typed;
  if (!box.error().empty()) {
    ImGui::TextColored(role_color(ui_role::error, f.ui_theme), "%s", box.error().c_str());
  } else if (const auto op = box.next()) {
    ImGui::TextDisabled("Step: %s %s next (%zu of %zu)", std::string(to_string(op->kind)).c_str(),
                        key_text(op->key, f.keys_radix()).c_str(), box.stepped() + 1,
                        box.keys().size());
  } else if (!box.keys().empty()) {
    ImGui::TextDisabled("all %zu typed keys stepped: Step runs the mix again", box.keys().size());
  }
}

void controls_panel::draw_table(frame_state& f) {
  ImGui::TextDisabled("changes rebuild the table");
  const auto registered = families();
  int fam = 0;
  for (std::size_t i = 0; i < registered.size(); ++i)
    if (registered[i]->id == pending_.table.family) fam = static_cast<int>(i);
  const auto name_of = [](void* data, int i) {
    return static_cast<const family_descriptor* const*>(data)[i]->name.data();
  };
  if (ImGui::Combo("family", &fam, name_of,
                   const_cast<void*>(static_cast<const void*>(registered.data())),
                   static_cast<int>(registered.size()))) {
    set_family(pending_.table, registered[fam]->id);  // a width it does not hold: its narrowest
    // Open addressing and the hive count slots in a power of two; a family that counts pairs in
    // lists (the slab) needs several times their bytes, so it starts from 2^27 at most.
    if (registered[fam]->pow2_capacity)
      pending_.table.capacity =
          std::bit_floor(std::max<std::uint64_t>(pending_.table.capacity, 16));
    else if (pending_.table.capacity > (1ull << 28))
      pending_.table.capacity = 1ull << 27;
    if (const auto prepare = hooks_of(pending_.table.family).prepare) prepare(pending_.table);
  }
  const family_descriptor& fd = describe(pending_.table.family);
  const family_ui& fu = ui_of(pending_.table.family);
  log2_slider(fd.pow2_capacity ? "capacity" : fd.capacity_unit.data(), pending_.table.capacity, 4,
              32);
  int h = static_cast<int>(pending_.table.hash);
  if (fu.hooks().common_hash && ImGui::Combo("hash", &h, "murmur3\0knuth\0identity\0universal\0"))
    pending_.table.hash = static_cast<hash_kind>(h);
  // One table over several devices: a shard a GPU through NCCL, or simulated devices on the CPU.
  int d = std::countr_zero(std::bit_floor(std::clamp<std::uint32_t>(pending_.table.devices, 1, 8)));
  if (ImGui::Combo("GPUs", &d,
                   "1\0"
                   "2\0"
                   "4\0"
                   "8\0"))
    pending_.table.devices = 1u << d;
  if (pending_.table.devices > 1) {
    int o = static_cast<int>(pending_.table.owner);
    if (ImGui::Combo("owner", &o,
                     "independent\0"
                     "low-bits\0"))
      pending_.table.owner = static_cast<owner_bits>(o);
  }
  if (fu.draw_table_controls) fu.draw_table_controls(pending_.table, *f.sess, f.sample.stats);
  int b = static_cast<int>(f.choice);
  if (ImGui::Combo("backend", &b, "auto\0gpu\0cpu\0")) f.choice = static_cast<backend_choice>(b);
  if (!ImGui::Button("Apply (rebuild the table)")) return;
  try {
    session_config cfg = pending_;
    cfg.workload = f.sess->workload();
    std::string note;
    const backend resolved = resolve_backend(f.choice, &note);
    if (resolved != cfg.table.backend) f.backend_note = note;
    cfg.table.backend = resolved;
    f.actions->rebuild(cfg);
    f.error.clear();
  } catch (const std::exception& e) {
    f.error = e.what();
  }
}

void controls_panel::draw_maintenance(frame_state& f) {
  session& s = *f.sess;
  maintenance_policy p = s.maintenance();
  float grow = static_cast<float>(p.grow_above), shrink = static_cast<float>(p.shrink_below),
        rehash = static_cast<float>(p.rehash_above);
  bool changed = ImGui::SliderFloat("grow above", &grow, 0.f, 1.f, grow > 0 ? "load %.2f" : "off");
  changed |=
      ImGui::SliderFloat("shrink below", &shrink, 0.f, 0.5f, shrink > 0 ? "load %.2f" : "off");
  changed |=
      ImGui::SliderFloat("rehash above", &rehash, 0.f, 1.f, rehash > 0 ? "%.2f dead" : "off");
  if (changed) s.set_maintenance({grow, shrink, rehash});
  if (const auto extra = f.ui().draw_maintenance) extra(s);
  if (ImGui::Button("Rehash now")) s.rehash();
  ImGui::SameLine();
  if (ImGui::Button("Grow")) s.rehash(s.capacity() * 2);
  ImGui::SameLine();
  if (ImGui::Button("Shrink") && s.capacity() >= 32) s.rehash(s.capacity() / 2);
  bool record = s.recording_timeline();
  if (ImGui::Checkbox("record churn timeline", &record)) s.set_record_timeline(record);
}

void controls_panel::draw_display(frame_state& f) {
  if (font_slider_ != f.font_size && !ImGui::IsMouseDown(ImGuiMouseButton_Left))
    font_slider_ = f.font_size;
  ImGui::SliderFloat("text size", &font_slider_, 10.f, k_max_slider_font_size, "%.0f px");
  // Applied on release: resizing the text under the mouse while dragging would move the slider.
  if (ImGui::IsItemDeactivatedAfterEdit())
    f.font_size = clamp_font_size(std::round(font_slider_), nullptr);
  ImGui::SetItemTooltip("Ctrl+plus and Ctrl+minus change it too");
  int t = static_cast<int>(f.ui_theme);
  if (ImGui::Combo("theme", &t, "dark\0light (projectors, print)\0"))
    f.ui_theme = static_cast<theme>(t);
  int keys = f.radix_choice ? 1 + static_cast<int>(*f.radix_choice) : 0;
  if (ImGui::Combo("keys", &keys, "as given\0hex\0decimal\0"))
    f.radix_choice = keys == 0 ? std::nullopt : std::optional(static_cast<key_radix>(keys - 1));
  ImGui::SetItemTooltip(
      "How cells, tooltips, questions, the Code view and the lanes write keys: as the lesson or "
      "your typed keys gave them (decimal when every key was a decimal number), or always hex or "
      "decimal");
  float period_ms = static_cast<float>(f.sampling.period_s * 1000.0);
  if (ImGui::SliderFloat("sample every", &period_ms, 0.f, 1000.f,
                         period_ms < 1 ? "frame" : "%.0f ms"))
    f.sampling.period_s = period_ms / 1000.0;
  float share = static_cast<float>(f.sampling.share * 100.0);
  if (ImGui::SliderFloat("sampling share", &share, 1.f, 100.f,
                         share >= 100.f ? "every frame" : "%.0f%% of the time"))
    f.sampling.share = share / 100.0;
  ImGui::SetItemTooltip(
      "How much of the time the views may spend sampling the table while batches run. Huge tables "
      "take milliseconds to sample, and sampling competes with the workload; a table at rest is "
      "sampled as soon as it changes, and no view waits more than %.1f s after a slow sample.",
      f.sampling.max_wait_s);
  float watching_hz = static_cast<float>(f.pacing.watching_hz);
  if (ImGui::SliderFloat("frames while watching", &watching_hz, 0.f, 60.f,
                         watching_hz < 1 ? "display rate" : "%.0f a second"))
    f.pacing.watching_hz = watching_hz < 1 ? 0.0 : std::round(watching_hz);
  ImGui::SetItemTooltip(
      "How often the window draws while a table runs and you only watch (%.0f s after the last "
      "key or mouse move). Drawing takes time from the table on the same GPU; input, and a table "
      "at rest, get the display's full rate.",
      f.pacing.input_grace_s);
  if (ImGui::Button("Reset layout")) f.settings.layouts_built = 0;
  ImGui::SameLine();
  if (ImGui::Button("Quit")) f.actions->execute(command::quit);
}

}  // namespace hs::app
