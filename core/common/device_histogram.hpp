// A probe_histogram being accumulated on the device (counts, then total, sum, max), shared by the
// families' inspection kernels, and its conversion on the host.
#pragma once
#include <algorithm>

#include "core/common/probe_histogram.hpp"

namespace hs {

struct device_histogram {
  unsigned long long counts[k_probe_bins];
  unsigned long long total, sum;
  unsigned int max, pad;
};

inline probe_histogram to_probe_histogram(const device_histogram& d) {
  probe_histogram h;
  h.counts.assign(d.counts, d.counts + k_probe_bins);
  h.total = d.total;
  h.sum = d.sum;
  h.max = d.max;
  return h;
}

}  // namespace hs
