// The session's samples: the table's state read on the sampling stream for the views, tagged
// with the version and operations it shows.
#include "app/session/session.hpp"

#include "app/session/gpu_fault_notice.hpp"
#include "core/common/error.hpp"

namespace hs::app {

void session::sample(const sample_request& req, sample_result& out) { sample(req, out, pixels_); }

void session::sample(const sample_request& req, sample_result& out,
                     buffer<occupancy_pixel>& pixels) {
  if (lost()) throw gpu_fault(gpu_lost_note());
  const stream_view s = sample_stream_.view();
  sample_result r;              // the caller's result changes only if the sample is good
  r.version = version_.load();  // before reading: the sample shows this version or a newer one
  {
    std::lock_guard lock(mutex_);
    r.operations = st_.operations;
  }
  inspect_request ir = req;
  if (req.occupancy) {
    occupancy_query q = *req.occupancy;
    const std::uint64_t n = std::uint64_t{q.width} * q.height;
    if (pixels.size() < n || pixels.space() != table_->space())
      pixels = buffer<occupancy_pixel>(table_->space(), n);
    q.out = pixels.data();
    ir.occupancy = q;
  }
  table_->inspect(ir, r.inspected, s);
  if (sharded_view* v = as_sharded(*table_)) {
    shard_sample sh;
    sh.link = v->exchange_name();
    sh.simulated = table_->config().backend == backend::cpu;
    sh.owner = v->map().rule;
    sh.devices = v->shard_stats(s);
    sh.virtual_shards = v->map().shares();
    sh.exchange = v->last_exchange();
    sh.histograms = r.inspected.per_device;
    r.stats = add_up(sh.devices);
    r.shards = std::move(sh);
  } else {
    r.stats = table_->stats(s);
  }
  r.pixels = req.occupancy ? pixels.data() : nullptr;
  r.space = table_->space();
  r.taken_at = steady_seconds();
  {
    std::lock_guard lock(mutex_);
    r.operations_after = st_.operations;
  }
  // Finished after the fault: it may have read a table a faulting batch left half changed.
  if (lost()) throw gpu_fault(gpu_lost_note());
  out = std::move(r);
}

}  // namespace hs::app
