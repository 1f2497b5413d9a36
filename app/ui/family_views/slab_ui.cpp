// The slab family's drawing: its list and SlabAlloc windows (a picked bucket's list, a traced step
// replayed on it), the key positions, its table controls and FLUSH. Its counts are its hooks'.
#include <bit>

#include <imgui.h>

#include "app/session/session.hpp"
#include "app/teach/code_view.hpp"
#include "app/ui/family_views/family_ui.hpp"
#include "app/ui/family_views/slab_code.hpp"
#include "app/ui/family_views/slab_lanes.hpp"
#include "app/ui/family_views/teach_entries.hpp"
#include "core/common/format.hpp"
#include "core/slab/slab_family.hpp"
#include "core/slab/slab_layout.hpp"
#include "visualizers/views/histogram_view.hpp"
#include "visualizers/views/slab_figures.hpp"
#include "visualizers/views/slab_view.hpp"

namespace hs::app {

namespace {

class slab_views final : public family_views {
 public:
  void plan_sample(const session& s, std::uint64_t capacity, sample_request& req) override {
    view_.follow_step(s.last_step(), s.config().table.slab.mode);  // a new step picks its bucket
    follow_code();  // and the code and lanes: figures are made without drawing the windows
    follow_lanes(s.config().table);
    const std::uint64_t buckets = capacity / slab::k_slab_pairs;
    req.slab.chain_lengths = true;
    req.strip = bucket_strip_query{0, buckets, view_.strip_width(buckets)};
    if (view_.bucket() >= buckets) view_.set_bucket(0);
    req.slab.chain_bucket = view_.bucket();
    req.slab.allocator = true;
  }
  void sampled(const sample_result& r) override { view_.follow_longest(r.inspected, r.stats); }
  vis::slab_view& view() { return view_; }
  const vis::slab_view& view() const { return view_; }
  // The code that decided the operation the list view's step shows (its arrows choose it).
  void draw_code(view_context& ctx) {
    follow_code();
    code_.draw(ctx.height);
  }
  const code_view& code() const { return code_; }
  // The tile's lanes on the operation the list view's step shows.
  void draw_lanes(view_context& ctx) {
    follow_lanes(ctx.sess.config().table);
    lanes_.draw(ctx.height);
  }
  const vis::tile_lanes_view& lanes() const { return lanes_; }

 private:
  void radix_changed() override {  // the code and the lanes write keys: made again
    lanes_shown_.forget();
    code_.forget_followed();
  }
  void follow_code() {
    const step_trace* t = view_.step();
    if (!t) return;
    const std::size_t op = view_.step_op();
    code_.follow(t->serial, op, [&]() -> std::optional<code_walkthrough> {
      const slab::op_trace* p = view_.path_at(op);
      if (!p || op >= t->ops.size()) return std::nullopt;
      return slab_walkthrough(t->ops[op], *p, radix());
    });
  }
  void follow_lanes(const table_config& cfg) {
    const step_trace* t = view_.step();
    const std::size_t op = view_.step_op();
    if (!t || op >= t->ops.size()) {
      lanes_.clear(
          "No traced step yet: Step to see the lanes of the tile that serves one slab-hash "
          "operation (the Slab lists view's arrows choose it).");
      return;
    }
    if (!lanes_shown_.show(t->serial, op)) return;
    const slab::op_trace* p = view_.path_at(op);
    const slab_chain* list = view_.list_seen_at(op);
    const int tile = cfg.slab.tile ? cfg.slab.tile : slab::k_default_tile;
    if (p && list)
      lanes_.set(tile_title(t->ops[op], tile, radix()),
                 slab_lane_rounds(t->ops[op], *list, *p, tile, cfg.slab.mode, radix()),
                 tile_legend());
    else
      lanes_.clear("This operation read nothing (a reserved key is refused first).");
  }

  vis::slab_view view_;
  code_view code_{&slab_english};
  vis::tile_lanes_view lanes_;
  step_follower lanes_shown_;
};

vis::slab_view& view_of(family_views& v) { return static_cast<slab_views&>(v).view(); }
const vis::slab_view& view_of(const family_views& v) {
  return static_cast<const slab_views&>(v).view();
}

constexpr view_entry k_views[] = {
    {"Slab lists", "chains",
     [](family_views& v, view_context& ctx) {
       view_of(v).draw_chains(ctx.sample.inspected, ctx.sample.stats, ctx.sess.config().table.hash,
                              ctx.height);
     },
     [](const family_views&, const session&, const sample_result& r) {
       return vis::chain_lengths_csv(r.inspected.slab.chains);
     },
     [](const family_views&, const session& s,
        const sample_result& r) -> std::optional<fig::figure> {
       std::vector<key_type>
           stepped;  // a traced step's keys: framed where they sit in the list shown
       if (const auto step = s.last_step())
         for (const stepped_op& op : step->ops) stepped.push_back(op.key);
       return vis::slab_lists_figure(r.inspected.slab.chain, r.inspected.slab.chains, stepped);
     },
     [](const family_views& v) { return drawn_view::of(view_of(v)); }},
    code_entry<slab_views>(),
    lanes_entry<slab_views>(),
    {"SlabAlloc", "allocator",
     [](family_views& v, view_context& ctx) {
       view_of(v).draw_allocator(ctx.sample.inspected.slab.allocator, ctx.sample.stats, ctx.height);
     },
     [](const family_views&, const session&, const sample_result& r) {
       return vis::allocator_csv(r.inspected.slab.allocator);
     },
     [](const family_views&, const session&, const sample_result& r) -> std::optional<fig::figure> {
       return vis::slab_allocator_figure(r.inspected.slab.allocator);
     }},
    {"Key positions",
     {},
     [](family_views&, view_context& ctx) {
       ImGui::TextUnformatted("x: the slab of its list a live key sits in (0 = the base slab)");
       ctx.histogram.draw(ctx.sample.inspected.histogram, ctx.height);
     }},
};

void draw_controls(table_config& c, session&, const table_stats&) {
  c.slab.buckets = 0;
  ImGui::TextDisabled("%s buckets, %s of base slabs (lists grow from a pool)",
                      format_count((c.capacity + 14) / 15).c_str(),
                      format_bytes((c.capacity + 14) / 15 * 128).c_str());
  int mode = static_cast<int>(c.slab.mode);
  if (ImGui::Combo("keys", &mode, "unique (REPLACE)\0multi (duplicates)\0"))
    c.slab.mode = static_cast<slab_mode>(mode);
  int t =
      c.slab.tile == 0 ? 0 : std::countr_zero(static_cast<unsigned>(c.slab.tile));  // 2^t threads
  if (ImGui::Combo("threads/slab", &t, "auto\0002\0004\0008\00016\00032 (paper)\0"))
    c.slab.tile = t == 0 ? 0 : 1 << t;
}

void draw_maintenance(session& s) {
  if (ImGui::Button("FLUSH (compact the lists)")) s.flush();
}

}  // namespace

const family_ui& slab_ui() {
  static const family_ui u = [] {
    family_ui f;
    f.id = family::slab;
    f.views = k_views;
    f.make_views = [] { return std::unique_ptr<family_views>(new slab_views); };
    f.histogram_window = "Key positions";
    f.draw_table_controls = draw_controls;
    f.draw_maintenance = draw_maintenance;
    return f;
  }();
  return u;
}

}  // namespace hs::app
