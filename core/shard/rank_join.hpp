// How a process joins a sharded table as one of its ranks (one process a GPU, the path that spans
// hosts): which rank it is, which GPU it drives, and how rank 0's NCCL unique id reaches the
// others: a file every rank can read, or a TCP port rank 0 serves. The rank comes from HashScope's
// own variables (HS_RANK, HS_RANKS), or from mpirun's or Slurm's when those are set; without MPI
// linked in, the id still travels by file or port. Every wait is bounded and says what it waited
// for.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hs {

struct rank_join {
  std::uint32_t rank = 0, ranks = 1;
  int device = 0;  ///< the GPU this rank drives, among those its process sees
  std::string id_file;
  std::string id_address;  ///< "host:port" (rank 0 listens on the port, the others connect)
  double wait_s = 120;     ///< the longest a rank waits for the id, a peer or an exchange step
  std::string source;      ///< where rank and ranks came from: "HS_RANK", "Open MPI", ...
};

/// @brief HS_JOIN_WAIT_S (seconds), else 120: how long a rank waits for the others, in joining and
/// in every exchange step.
double wait_from_environment();

/// @brief Reads the join from the environment: HS_RANK and HS_RANKS, else Open MPI's
/// (OMPI_COMM_WORLD_*), MPICH's (PMI_RANK, PMI_SIZE) or Slurm's (SLURM_PROCID, SLURM_NTASKS);
/// HS_NCCL_ID_FILE or HS_NCCL_ID_ADDRESS; HS_DEVICE (else the local rank, modulo `gpus`);
/// HS_JOIN_WAIT_S. nullopt when no rank variable is set. Throws hs::user_error naming the variable
/// that is malformed, or when neither way to hand over the id is set.
std::optional<rank_join> rank_join_from_environment(int gpus);

/// @brief The join of a program's n-th communicator: an id file is never read twice, so each
/// communicator's has its own name ("<file>-<n>"); a port serves one communicator after another.
rank_join nth_join(rank_join j, unsigned n);

/// @brief Hands rank 0's id to the other ranks. Rank 0 calls publish() (a file written whole by a
/// rename, or a port served in the background until every rank took the id or the wait ran out);
/// the others call take(), which waits at most join.wait_s and then says what it waited for.
class id_handover {
 public:
  explicit id_handover(rank_join join);
  ~id_handover();
  id_handover(const id_handover&) = delete;
  id_handover& operator=(const id_handover&) = delete;
  void publish(std::span<const char> id);
  std::vector<char> take(std::size_t bytes);
  /// @brief Rank 0: waits (bounded) until the port served every rank; throws if it did not.
  void finish();

 private:
  struct server;
  rank_join join_;
  std::unique_ptr<server> server_;
};

}  // namespace hs
