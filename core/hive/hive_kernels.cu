// The hive family's operation kernels: one thread per operation, a tile of T threads serving its
// threads' operations one at a time (work queue by ballot, next by ffs, key by shfl), for every
// bucket size S and tile the table may use.
#include <cuda_runtime.h>

#include "core/common/cuda_check.hpp"
#include "core/hive/hive_launch.hpp"
#include "core/hive/hive_ops.cuh"

namespace hs::hive {

namespace {

constexpr int k_block = 128;

cudaStream_t cuda(stream_view s) { return static_cast<cudaStream_t>(s.handle); }

// The sum of v over the warp (every lane gets it).
__device__ inline std::uint32_t warp_sum(std::uint32_t v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xffffffffu, v);
#else
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
#endif
}

__device__ void add_tallies(const hive_ref& r, const tallies& tl) {
  // Summed over the warp, then one atomic per warp and non-zero tally into the copy of its warp
  // (hive_launch.hpp says why): every warp adding to the counters' one line cost a session's
  // mixed batches 21% (H100: 3.30 G ops/s plain, 2.60 instrumented). The common tallies, steps 1
  // and 2, go as one sum of 16-bit fields (a thread counts at most 65 of each); the rest only
  // when a lane has any: summing all seven every time cost 14% at load 0.7 (H100, ncu: 7M of the
  // kernel's 50M instructions).
  unsigned long long* copy =
      r.tallies +
      ((blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) % k_tally_shards) * k_tally_stride;
  const bool lead = (threadIdx.x & 31u) == 0;
  const std::uint32_t first_two = warp_sum(tl.step(0) | tl.step(1) << 16);
  if (lead && (first_two & 0xffffu)) atomicAdd(copy + 0, first_two & 0xffffull);
  if (lead && (first_two >> 16))
    atomicAdd(copy + 1, static_cast<unsigned long long>(first_two >> 16));
  const std::uint32_t rare = (tl.steps >> 16) | tl.moves_locks | tl.restarts;
  if (!__any_sync(0xffffffffu, rare != 0)) return;  // the same on every lane
  const std::uint32_t v[k_tally_count - 2] = {tl.step(2), tl.step(3), tl.moves(), tl.locks(),
                                              tl.restarts};
#pragma unroll
  for (int i = 0; i < k_tally_count - 2; ++i) {
    const std::uint32_t sum = warp_sum(v[i]);
    if (lead && sum) atomicAdd(copy + 2 + i, static_cast<unsigned long long>(sum));
  }
}

// A thread per copy and tally: empties its word and adds what it held to the counter.
__global__ void fold_tallies_kernel(hive_ref r) {
  const unsigned copy = blockIdx.x, i = threadIdx.x;
  if (i >= k_tally_count) return;
  const unsigned long long v = atomicExch(r.tallies + copy * k_tally_stride + i, 0ull);
  if (v) atomicAdd(r.counters + tally_counter(static_cast<int>(i)), v);
}

// The operation thread i serves.
struct op_in {
  bool active = false;  ///< an operation to run (not past the batch, not refused)
  key_type k = 0;
  value_type v = 0;
  op_kind kind = op_kind::find;
  dev_candidates c{};
};

// Reads operation i; a reserved key or value is refused here.
template <batch_op Op>
__device__ op_in read_op(const hive_ref& r, const batch_io& io, std::uint64_t i) {
  op_in o;
  o.kind = Op == batch_op::insert  ? op_kind::insert
           : Op == batch_op::erase ? op_kind::erase
                                   : op_kind::find;
  o.active = i < io.n;
  if (!o.active) return o;
  o.k = io.keys[i];
  if constexpr (Op == batch_op::mixed) o.kind = io.kinds[i];
  if (o.kind == op_kind::insert) o.v = io.values[i];
  const op_status reject = refusal(o.k, o.kind == op_kind::insert, o.v);
  if (reject != op_status::none) {
    o.active = false;
    atomicAdd(r.counters + rejected_counter(o.kind), 1ull);
    io.put(i, reject, k_empty);
    return o;
  }
  o.c = dev_candidates_of(r, o.k);
  return o;
}

// Stashed words that existed when the batch started are found; ones stashed by this batch may be
// missed by its concurrent operations (no order among them is promised). Lane 0 of each tile
// reads the count, so every lane of a tile takes the same branches round its ballots.
template <int T>
__device__ word_type stash_live_of(const warp_tile<T>& t, const hive_ref& r) {
  word_type live = 0;
  if (t.lane == 0) live = load_word(reinterpret_cast<const word_type*>(r.stash_live));
  return live;
}

// Claims in the passes: two distinct candidates and the stash empty (else the general path, whose
// step 1 also reads the stash).
__device__ inline bool claims_allowed(const hive_ref& r, const op_in& o, bool stash_used) {
  return r.hashes.count == 2 && !stash_used && o.c.b[0] != o.c.b[1];
}

// Pass 1, every kind: the first candidate (look_in_first, decide_first). True when it decided the
// operation (its outcome written). The stash count's load goes out with the pass's own.
template <int S, int T>
__device__ bool first_pass(const warp_tile<T>& t, const hive_ref& r, const batch_io& io,
                           std::uint64_t i, const op_in& o, bool& stash_used, tallies& tl) {
  const word_type live = stash_live_of(t, r);
  meta_word q = 0;
  if (o.active) q = load_meta(r, o.c.b[0]);  // beside the tile's bucket loads
  const first_look f = look_in_first<S, T>(t, r, o.active, o.k, o.c.b[0], mask_of(q));
  stash_used = t.shfl(live != 0, 0);
  if (!o.active) return false;
  const op_result res =
      decide_first<S>(r, o.kind, o.k, o.v, o.c.b[0], q, f, claims_allowed(r, o, stash_used));
  if (res.status == op_status::none) return false;
  io.put(i, res.status, res.value);
  if (o.kind == op_kind::insert) tl.count_step(res.step);
  return true;
}

// Inserts, deletes and mixed batches with up to 4 words per lane are held to 64 registers a thread
// (with that bound the compiler keeps their common path free of spills); everything else is left
// to the compiler's own choice (0: no bound; bounding lookups measured slower on the H200).
template <int S, int T, batch_op Op>
constexpr int k_min_blocks =
    (Op == batch_op::insert || Op == batch_op::mixed || Op == batch_op::erase) && S / T <= 4 ? 8
                                                                                             : 0;

// Every pass of a batch: the first candidate for every kind, both candidates for the inserts that
// leaves, then the general path.
template <int S, int T, batch_op Op>
__global__ void __launch_bounds__(k_block, (k_min_blocks<S, T, Op>))
    batch_kernel(hive_ref r, batch_io io) {
  const warp_tile<T> t;
  const std::uint64_t i = blockIdx.x * std::uint64_t{k_block} + threadIdx.x;
  const op_in o = read_op<Op>(r, io, i);
  const key_type k = o.k;
  const value_type v = o.v;
  const op_kind kind = o.kind;
  const dev_candidates& c = o.c;
  tallies tl;
  bool stash_used = false;
  bool pending = !first_pass<S, T>(t, r, io, i, o, stash_used, tl) && o.active;
  const bool claim_ok = claims_allowed(r, o, stash_used);
  if constexpr (Op == batch_op::insert || Op == batch_op::mixed) {
    // Pass 2, inserts the first pass left (their first candidate short of room, or keys of it gone
    // elsewhere): both candidates read at once, every tile of the warp in step (the whole warp is
    // here). Whatever it leaves (the key present, a claim in flight, both candidates full, a lost
    // claim, the stash in use) goes through the general path below.
    for (int src = 0; src < T; ++src) {
      const key_type sk = t.shfl_all(k, src);
      const value_type sv = t.shfl_all(v, src);
      const std::uint32_t c0 = t.shfl_all(c.b[0], src), c1 = t.shfl_all(c.b[1], src);
      const bool eligible = t.shfl_all(pending && kind == op_kind::insert && claim_ok, src);
      if (!__any_sync(0xffffffffu, eligible)) continue;  // the same on every lane of the warp
      if (insert_common<S, T>(t, r, eligible, sk, pack(sk, sv), c0, c1)) {
        if (t.lane == 0) tl.count_step(insert_step::claim);
        if (t.lane == static_cast<unsigned>(src)) {
          pending = false;
          io.put(i, op_status::inserted, k_empty);
        }
      }
    }
  }
  // The general path, one kind after another so that a warp's tiles run the same code together.
  constexpr op_kind k_order[3] = {op_kind::find, op_kind::erase, op_kind::insert};
#pragma unroll
  for (int ko = 0; ko < 3; ++ko) {
    const op_kind now = k_order[ko];
    if constexpr (Op != batch_op::mixed)
      if (now != kind) continue;  // a batch of one kind: the others never come
    for (unsigned queue = t.ballot(pending && kind == now); queue; queue &= queue - 1) {
      const int src = __ffs(queue) - 1;
      const key_type sk = t.shfl(k, src);
      dev_candidates sc;
#pragma unroll
      for (int j = 0; j < k_max_hashes; ++j) sc.b[j] = t.shfl(c.b[j], src);
      op_result res;
      if (now == op_kind::find) {
        res = find_op<S, T>(t, r, sk, sc, stash_used);
      } else if (now == op_kind::erase) {
        res = erase_op<S, T>(t, r, sk, sc, stash_used);
      } else {
        res = insert_op<S, T>(t, r, sk, t.shfl(v, src), sc, stash_used, tl);
        if (t.lane == 0 && res.status != op_status::failed_full) tl.count_step(res.step);
      }
      if (t.lane == static_cast<unsigned>(src)) io.put(i, res.status, res.value);
    }
  }
  if (r.instrument) add_tallies(r, tl);
}

// Lookups no write can overlap (batch_io::quiet) run a kernel of their own, lean because nothing
// moves: no lock-word snapshots, plain loads, two candidates held per thread (a third computed
// only when the first two miss), and the lane that finds the key writes its result itself. ncu on
// the H200 (2^25 slots, load 0.9, all hits) had found the general kernel running these lookups
// bound by instructions (SM 86% busy, 48% more instructions than a bare lookup kernel) while L2
// had room (79%). Held to 32 registers (a few bytes spilled): at 40, occupancy falls to 75% and
// lookups after a fill to 0.9 on 2^25 slots ran at 22.3 G/s instead of 25.4.
// A move marker (the key with the empty value) cannot be met here; one would be read past, as a
// lookup that is not quiet does.
template <int S, int T>
__global__ void __launch_bounds__(k_block, 16) quiet_find_kernel(hive_ref r, batch_io io) {
  const warp_tile<T> t;
  const std::uint64_t i = blockIdx.x * std::uint64_t{k_block} + threadIdx.x;
  bool pending = i < io.n;
  key_type k = 0;
  std::uint32_t c0 = 0, c1 = 0;  // a third candidate, where there is one, is computed on demand
  if (pending) {
    k = io.keys[i];
    if (is_reserved_key(k)) {
      pending = false;
      atomicAdd(r.counters + c_rejected_find, 1ull);
      io.put(i, op_status::rejected_key, k_empty);
    } else {
      c0 = static_cast<std::uint32_t>(r.geo.address(hash_with(fn_at(r.hashes, 0), k)));
      c1 = static_cast<std::uint32_t>(r.geo.address(hash_with(fn_at(r.hashes, 1), k)));
    }
  }
  bool stash_used = false;
  if (t.lane == 0) stash_used = load_word(reinterpret_cast<const word_type*>(r.stash_live)) != 0;
  stash_used = t.shfl(stash_used, 0);
  for (unsigned queue = t.ballot(pending); queue; queue &= queue - 1) {
    const int src = __ffs(queue) - 1;
    const key_type sk = t.shfl(k, src);
    const std::uint64_t at = i - t.lane + src;  // a tile's lanes serve consecutive operations
    // Whether bucket b holds sk; its holder writes the result. The same on every lane.
    const auto holds = [&](std::uint32_t b) {
      const auto v = load_bucket_settled<S, T>(t, r.words + std::uint64_t{b} * S);
      value_type value = k_empty;  // also a move marker's value: read past, as said above
#pragma unroll
      for (int j = 0; j < S / T; ++j)
        if (key_of(v.w[j]) == sk) value = value_of(v.w[j]);
      const unsigned holders = t.ballot(value != k_empty);
      if (holders && t.lane == static_cast<unsigned>(__ffs(holders) - 1))
        io.put(at, op_status::found, value);
      return holders != 0;
    };
    const std::uint32_t b0 = t.shfl(c0, src);
    if (holds(b0)) continue;
    const std::uint32_t b1 = t.shfl(c1, src);
    if (b1 != b0 && holds(b1)) continue;
    if (r.hashes.count > 2) {
      const auto b2 = static_cast<std::uint32_t>(r.geo.address(hash_with(fn_at(r.hashes, 2), sk)));
      if (b2 != b1 && holds(b2)) continue;
    }
    dev_candidates sc{};
    sc.b[0] = b0;
    op_result res{op_status::missing, k_empty};
    if (stash_may_hold(t, r, sc, stash_used)) {
      const long long s_at = stash_find(t, r, sk);
      if (s_at >= 0) {
        const word_type w = load_word(r.stash + s_at);
        if (key_of(w) == sk) res = {op_status::found, value_of(w)};
      }
    }
    if (t.lane == static_cast<unsigned>(src)) io.put(at, res.status, res.value);
  }
}

template <int S, int T>
void launch_for(const hive_ref& r, const batch_io& io, cudaStream_t s) {
  const auto grid = static_cast<unsigned>((io.n + k_block - 1) / k_block);
  switch (io.op) {
    case batch_op::find:
      if (io.quiet)
        quiet_find_kernel<S, T><<<grid, k_block, 0, s>>>(r, io);
      else
        batch_kernel<S, T, batch_op::find><<<grid, k_block, 0, s>>>(r, io);
      break;
    case batch_op::insert:
      batch_kernel<S, T, batch_op::insert><<<grid, k_block, 0, s>>>(r, io);
      break;
    case batch_op::erase:
      batch_kernel<S, T, batch_op::erase><<<grid, k_block, 0, s>>>(r, io);
      break;
    case batch_op::mixed:
      batch_kernel<S, T, batch_op::mixed><<<grid, k_block, 0, s>>>(r, io);
      break;
  }
}

template <int S>
void launch_slots(const hive_ref& r, const batch_io& io, cudaStream_t s) {
  if (r.tile == 2)
    launch_for<S, 2>(r, io, s);
  else if (r.tile == 4)
    launch_for<S, 4>(r, io, s);
  else if (r.tile == 8)
    launch_for<S, 8>(r, io, s);
  else if constexpr (S >= 16) {
    if (r.tile == 16)
      launch_for<S, 16>(r, io, s);
    else if constexpr (S == 32)
      launch_for<S, 32>(r, io, s);
  }
}

}  // namespace

void launch_fold_tallies(const hive_ref& r, stream_view s) {
  fold_tallies_kernel<<<k_tally_shards, 32, 0, cuda(s)>>>(r);
  HS_CUDA_CHECK(cudaGetLastError());
}

void launch_batch(const hive_ref& r, const batch_io& io, stream_view s) {
  if (io.n == 0) return;
  if (r.slots == 8)
    launch_slots<8>(r, io, cuda(s));
  else if (r.slots == 16)
    launch_slots<16>(r, io, cuda(s));
  else
    launch_slots<32>(r, io, cuda(s));
  HS_CUDA_CHECK(cudaGetLastError());
}

}  // namespace hs::hive
