// The slab family's operation kernels: one thread per operation, a tile of T threads serving its
// threads' operations one at a time (work queue by ballot, next by ffs, key by shfl), and FLUSH.
#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"
#include "core/slab/slab_launch.hpp"
#include "core/slab/slab_ops.cuh"

namespace hs::slab {

namespace {

constexpr int k_block = 128;

cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

__device__ dev_op device_op(batch_op op, op_kind kind, slab_mode mode) {
  if (op == batch_op::mixed)
    op = kind == op_kind::insert ? batch_op::insert
         : kind == op_kind::find ? batch_op::search
                                 : batch_op::erase;
  switch (op) {
    case batch_op::insert: return mode == slab_mode::unique ? dev_op::replace : dev_op::insert;
    case batch_op::erase: return dev_op::erase;
    case batch_op::erase_all: return dev_op::erase_all;
    case batch_op::count: return dev_op::count;
    case batch_op::search_all: return dev_op::search_all;
    default: return dev_op::search;
  }
}

/// The kind a device operation is counted as: COUNT and SEARCHALL are lookups, DELETEALL an erase.
__device__ op_kind kind_of(dev_op op) {
  switch (op) {
    case dev_op::replace:
    case dev_op::insert: return op_kind::insert;
    case dev_op::erase:
    case dev_op::erase_all: return op_kind::erase;
    default: return op_kind::find;
  }
}

// Mixed batches are held to 64 registers (8 blocks of 128 per SM): unbounded they took 72, which
// capped occupancy at 44% (ncu on the H200), and their loads wait on L2 with too few warps to
// hide it. H200, Fig. 7a at beta 0.1, G0/G1/G2: 11.21/11.53/12.20 -> 11.48/12.41/13.0 G ops/s
// (44 bytes of spills); 10 blocks (51 registers) spill 300+ bytes and G0 falls to 9.6.
template <batch_op Op>
constexpr int k_min_blocks = Op == batch_op::mixed ? 8 : 0;

/// Op is the batch's operation when known at compile time (search, insert), mixed otherwise (the
/// operation is then read per element, or from io.op).

template <int T, class Hash, batch_op Op>
__global__ void __launch_bounds__(k_block, k_min_blocks<Op>)
    batch_kernel(slab_device<Hash> d, batch_io io) {
  const slab_tile<T> t;
  alloc_state<T> alloc;
  const std::uint64_t i = blockIdx.x * std::uint64_t{k_block} + threadIdx.x;
  const auto tile_id = static_cast<std::uint32_t>(i / T);
  const batch_op bop = Op == batch_op::mixed ? io.op : Op;
  bool active = i < io.n;
  key_type k = 0;
  value_type v = 0;
  dev_op op = dev_op::search;
  std::uint64_t lo = 0, hi = 0;
  if (active) {
    k = io.keys[i];
    op = device_op(bop, bop == batch_op::mixed ? io.kinds[i] : op_kind::find, d.mode);
    const bool inserting = op == dev_op::replace || op == dev_op::insert;
    if (inserting) v = io.values[i];
    if (op == dev_op::search_all) lo = io.offsets[i], hi = io.offsets[i + 1];
    const op_status reject = refusal(k, inserting, v);
    if (reject != op_status::none) {
      active = false;
      atomicAdd(d.pool.counters + rejected_counter(kind_of(op)), 1ull);
      io.put(i, reject, k_empty);
      if (io.counts) io.counts[i] = 0;
    }
  }
  for (unsigned queue = t.ballot(active); queue; queue &= queue - 1) {
    const int src = __ffs(queue) - 1;
    const key_type sk = t.shfl(k, src);
    const value_type sv = t.shfl(v, src);
    dev_op sop;
    if constexpr (Op == batch_op::search)
      sop = dev_op::search;
    else if constexpr (Op == batch_op::insert)
      sop = d.mode == slab_mode::unique ? dev_op::replace : dev_op::insert;
    else
      sop = static_cast<dev_op>(t.shfl(static_cast<int>(op), src));
    value_range range;
    if (Op == batch_op::mixed && bop == batch_op::search_all)
      range = {io.all_values, t.shfl(lo, src), t.shfl(hi, src)};
    const op_result r = run_op(t, alloc, tile_id, d, sop, sk, sv, range);
    if (t.lane == static_cast<unsigned>(src)) {
      io.put(i, r.status, r.value);
      if (io.counts) io.counts[i] = r.count;
      if (r.status == op_status::failed_full) atomicAdd(d.pool.counters + 3, 1ull);
    }
  }
}

template <int T, class Hash>
void launch_for(const slab_ref& t, const batch_io& io, cudaStream_t s) {
  const slab_device<Hash> d{t.base, t.buckets, t.mode, Hash{}, t.pool};
  const auto grid = static_cast<unsigned>((io.n + k_block - 1) / k_block);
  if (io.op == batch_op::search)
    batch_kernel<T, Hash, batch_op::search><<<grid, k_block, 0, s>>>(d, io);
  else if (io.op == batch_op::insert)
    batch_kernel<T, Hash, batch_op::insert><<<grid, k_block, 0, s>>>(d, io);
  else
    batch_kernel<T, Hash, batch_op::mixed><<<grid, k_block, 0, s>>>(d, io);
}

// FLUSH (one warp per bucket, the paper's 32 lanes, lane l holding word l): a read cursor walks
// the list while live pairs are packed, in order, behind a write cursor that never passes it; the
// slabs after the last one written go back to SlabAlloc.
__global__ void flush_kernel(std::uint32_t* base, std::uint32_t buckets, pool_ref pool) {
  const unsigned lane = threadIdx.x & 31u;
  const std::uint64_t warps = std::uint64_t{gridDim.x} * (blockDim.x / 32);
  for (std::uint64_t b = (blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x) / 32; b < buckets;
       b += warps) {
    std::uint32_t* const head = base + b * k_slab_words;
    std::uint32_t *w = head, *prev_w = nullptr, *r = head;
    int wl = 0;  // pairs written into w
    for (;;) {
      const std::uint32_t word = *reinterpret_cast<volatile std::uint32_t*>(r + lane);
      const std::uint32_t next = __shfl_sync(0xffffffffu, word, k_next_word);
      const std::uint32_t value = __shfl_down_sync(0xffffffffu, word, 1);
      const bool live = (lane & 1u) == 0 && lane < 2 * k_slab_pairs && is_live_key(word);
      const unsigned m = __ballot_sync(0xffffffffu, live);
      const int c = __popc(m);
      if (c > 0 && wl == k_slab_pairs) {  // w is full: continue in its successor (not past r)
        prev_w = w;
        w = pool_slab(pool, w[k_next_word]);
        wl = 0;
      }
      std::uint32_t* const spill =
          wl + c > k_slab_pairs ? pool_slab(pool, w[k_next_word]) : nullptr;
      __syncwarp();
      if (live) {
        const int pos = wl + __popc(m & ((1u << lane) - 1u));
        std::uint32_t* dst = pos < k_slab_pairs ? w + 2 * pos : spill + 2 * (pos - k_slab_pairs);
        dst[0] = word;
        dst[1] = value;
      }
      __syncwarp();
      if (spill) {
        prev_w = w;
        w = spill;
        wl = wl + c - k_slab_pairs;
      } else {
        wl += c;
      }
      if (next == k_null_address) break;
      r = pool_slab(pool, next);
    }
    std::uint32_t* last = w;  // the last slab that keeps pairs (the base slab always stays)
    int keep = wl;
    if (wl == 0 && w != head) {
      last = prev_w;
      keep = k_slab_pairs;
    }
    if (lane < 2 * k_slab_pairs && lane >= 2u * keep) last[lane] = k_empty;
    __syncwarp();
    if (lane == 0) {
      for (std::uint32_t a = last[k_next_word]; a != k_null_address;) {
        const std::uint32_t after = pool_slab(pool, a)[k_next_word];
        deallocate(pool, a);
        a = after;
      }
      last[k_next_word] = k_null_address;
    }
    __syncwarp();
  }
}

// SlabAlloc alone: one allocation per thread, served one at a time by the thread's tile.
template <int T>
__global__ void __launch_bounds__(k_block)
    alloc_kernel(pool_ref pool, std::uint32_t* out, std::uint64_t n) {
  const slab_tile<T> t;
  alloc_state<T> alloc;
  const std::uint64_t i = blockIdx.x * std::uint64_t{k_block} + threadIdx.x;
  for (unsigned queue = t.ballot(i < n); queue; queue &= queue - 1) {
    const int src = __ffs(queue) - 1;
    const std::uint32_t a = allocate(t, alloc, pool, static_cast<std::uint32_t>(i / T));
    if (t.lane == static_cast<unsigned>(src)) out[i] = a;
  }
}

__global__ void free_kernel(pool_ref pool, const std::uint32_t* addresses, std::uint64_t n) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{k_block} + threadIdx.x;
  if (i < n && addresses[i] != k_null_address) deallocate(pool, addresses[i]);
}

}  // namespace

void launch_allocate(const slab_ref& t, std::uint32_t* out, std::uint64_t n, stream_view s) {
  if (n == 0) return;
  const auto grid = static_cast<unsigned>((n + k_block - 1) / k_block);
  if (t.tile == 2)
    alloc_kernel<2><<<grid, k_block, 0, cuda(s)>>>(t.pool, out, n);
  else if (t.tile == 4)
    alloc_kernel<4><<<grid, k_block, 0, cuda(s)>>>(t.pool, out, n);
  else if (t.tile == 8)
    alloc_kernel<8><<<grid, k_block, 0, cuda(s)>>>(t.pool, out, n);
  else if (t.tile == 16)
    alloc_kernel<16><<<grid, k_block, 0, cuda(s)>>>(t.pool, out, n);
  else
    alloc_kernel<32><<<grid, k_block, 0, cuda(s)>>>(t.pool, out, n);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_deallocate(const slab_ref& t, const std::uint32_t* addresses, std::uint64_t n,
                       stream_view s) {
  if (n == 0) return;
  free_kernel<<<static_cast<unsigned>((n + k_block - 1) / k_block), k_block, 0, cuda(s)>>>(
      t.pool, addresses, n);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_batch(const slab_ref& t, const batch_io& io, stream_view s) {
  if (io.n == 0) return;
  dispatch_hash(t.hash, [&](auto h) {
    using H = decltype(h);
    if (t.tile == 2)
      launch_for<2, H>(t, io, cuda(s));
    else if (t.tile == 4)
      launch_for<4, H>(t, io, cuda(s));
    else if (t.tile == 8)
      launch_for<8, H>(t, io, cuda(s));
    else if (t.tile == 16)
      launch_for<16, H>(t, io, cuda(s));
    else
      launch_for<32, H>(t, io, cuda(s));
  });
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_flush(const slab_ref& t, stream_view s) {
  const std::uint64_t warps_needed = t.buckets;
  const auto grid =
      static_cast<unsigned>(std::min<std::uint64_t>((warps_needed * 32 + 255) / 256, 65535));
  flush_kernel<<<grid, 256, 0, cuda(s)>>>(t.base, t.buckets, t.pool);
  HS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hs::slab
