// Recording a stage as it runs: steps spread over the frames, frames piped to ffmpeg.
#include "app/ui/render_animation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "app/platform/png.hpp"
#include "core/common/atomic_file.hpp"
#include "core/common/error.hpp"
#include "core/common/format.hpp"

namespace hs::app {

namespace fs = std::filesystem;

namespace {

std::string ffmpeg_program() {
  const char* env = std::getenv("HASHSCOPE_FFMPEG");  // tests point it elsewhere
  return env && *env ? env : "ffmpeg";
}

bool program_exists(const std::string& p) {
  return std::system(("command -v '" + p + "' >/dev/null 2>&1").c_str()) == 0;
}

// One stage step's progress across the frames.
struct step_progress {
  bool started = false, done = false;
  double start_load = 0;
  std::uint64_t batches_done = 0;
};

// Whether a step spreads over frames (fills, drains, runs) or happens at once (the others).
bool gradual(const scenario_step& st) {
  return st.kind == scenario_step::fill || st.kind == scenario_step::drain ||
         st.kind == scenario_step::run;
}

// Advances the stage to fraction t (0..1): each gradual step takes an equal share of the frames,
// the others happen when the steps before them are done.
void advance(session& s, const std::vector<scenario_step>& stage, std::vector<step_progress>& prog,
             double t) {
  double shares = 0;
  for (const scenario_step& st : stage) shares += gradual(st) ? 1 : 0;
  double before = 0;  // shares of the steps before j
  for (std::size_t j = 0; j < stage.size(); ++j) {
    const double at = t * std::max(shares, 1.0) - before;
    double f = gradual(stage[j]) ? std::clamp(at, 0.0, 1.0) : (at >= 0 ? 1.0 : 0.0);
    before += gradual(stage[j]) ? 1 : 0;
    if (f <= 0 && gradual(stage[j])) break;
    if (f <= 0) break;
    const scenario_step& st = stage[j];
    step_progress& p = prog[j];
    if (p.done) continue;
    if (!p.started) {
      p.started = true;
      p.start_load = double(s.status().live) / double(std::max<std::uint64_t>(s.capacity(), 1));
    }
    switch (st.kind) {
      case scenario_step::fill:
      case scenario_step::drain: s.fill_to(p.start_load + (st.load - p.start_load) * f); break;
      case scenario_step::run: {
        const auto want = static_cast<std::uint64_t>(std::llround(double(st.batches) * f));
        if (want > p.batches_done)
          s.queue({script_step{script_step::run, 0, want - p.batches_done}});
        p.batches_done = std::max(p.batches_done, want);
        break;
      }
      default:  // clear, rehash, flush, step, say: at once
        s.queue({*as_script_step(st)});
        f = 1.0;
        break;
    }
    s.wait_idle();
    if (s.status().error)
      throw gpu_error(strprintf("line %d: %s", st.line, s.status().note.c_str()));
    if (f >= 1.0) p.done = true;
  }
}

}  // namespace

animation_result record_animation(app_frame& frame, headless_platform& gl,
                                  const std::vector<scenario_step>& stage, const animation_spec& a,
                                  const std::string& base, int width, int height,
                                  const std::string& title) {
  animation_result r;
  r.frames = a.frames();
  const std::string ffmpeg = ffmpeg_program();
  FILE* pipe = nullptr;
  const std::string tmp = temp_path_for(base + ".mp4");  // committed whole once ffmpeg is done
  if (program_exists(ffmpeg)) {
    // Raw RGBA frames in, H.264 out (yuv420p: what players and slide software take).
    const std::string cmd = strprintf(
        "'%s' -loglevel error -y -f rawvideo -pix_fmt rgba -s %dx%d -r %d -i - -c:v libx264 "
        "-pix_fmt yuv420p -f mp4 '%s'",
        ffmpeg.c_str(), width & ~1, height & ~1, a.fps, tmp.c_str());
    pipe = popen(cmd.c_str(), "w");
  }
  if (!pipe)
    r.error = "ffmpeg (" + ffmpeg +
              ") is not installed (apt-get install ffmpeg): the frames are kept as PNGs";
  session& s = frame.sess();
  std::vector<step_progress> prog(stage.size());
  const int w = width & ~1, h = height & ~1;  // H.264 wants even sizes
  for (int k = 1; k <= r.frames; ++k) {
    advance(s, stage, prog, double(k) / r.frames);
    frame.sample_now();
    const auto px = gl.render(w, h, [&] { frame.draw_figure(a.view, float(w), float(h), title); });
    if (pipe) {
      if (std::fwrite(px.data(), 1, px.size(), pipe) != px.size()) {
        pclose(pipe);
        pipe = nullptr;
        std::error_code ec;
        fs::remove(tmp, ec);  // a video cut short is no video
        r.error = "ffmpeg stopped taking frames: the frames are kept as PNGs from here";
      }
    }
    if (!pipe) {
      const std::string png = strprintf("%s-%04d.png", base.c_str(), k);
      write_png(png, w, h, px);
      if (r.file.empty()) r.file = png;
    }
  }
  advance(s, stage, prog, 1.0);  // whatever rounding left
  if (pipe) {
    if (pclose(pipe) != 0) {
      r.error = "ffmpeg failed to write " + base + ".mp4";
      std::error_code ec;
      fs::remove(tmp, ec);
      return r;
    }
    commit_file(tmp, base + ".mp4");  // flushed to disk, renamed into place, the folder flushed
    r.file = base + ".mp4";
    r.video = true;
  }
  return r;
}

}  // namespace hs::app
