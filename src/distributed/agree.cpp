// Agreement among ranks (agree.hpp). The cost is one small collective per
// check: an MPI_Allreduce (or MPI_Allgather of 8 bytes a rank) where the
// exchange that follows moves the whole array.
#include "distributed/agree.hpp"

#include <climits>
#include <vector>

namespace bfly::distributed::detail {

void check_mpi(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(status, text, &length) != MPI_SUCCESS) length = 0;
  throw Error(ErrorCode::Device, std::string("bfly::distributed: ") + call + " failed: " + std::string(text, length));
}

void agree(MPI_Comm comm, const std::string& failure, ErrorCode code) {
  int rank = 0, size = 1;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  // The lowest failing rank (size where none failed).
  const int mine = failure.empty() ? size : rank;
  int first = size;
  check_mpi(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == size) return;
  // Its message and code, to every rank.
  std::string text = rank == first ? failure : std::string();
  int header[2] = {static_cast<int>(text.size() < INT_MAX ? text.size() : 0), static_cast<int>(code)};
  check_mpi(MPI_Bcast(header, 2, MPI_INT, first, comm), "MPI_Bcast");
  text.resize(static_cast<std::size_t>(header[0]));
  check_mpi(MPI_Bcast(text.data(), header[0], MPI_CHAR, first, comm), "MPI_Bcast");
  // An agreement inside another (a group's, within the plan's) names the rank once.
  const bool named = text.rfind("rank ", 0) == 0;
  throw Error(static_cast<ErrorCode>(header[1]), named ? text : "rank " + std::to_string(first) + ": " + text);
}

void agree_on(MPI_Comm comm, std::uint64_t fingerprint, const std::string& what) {
  int size = 1;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  std::vector<std::uint64_t> all(static_cast<std::size_t>(size));
  check_mpi(MPI_Allgather(&fingerprint, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, comm), "MPI_Allgather");
  std::string differ;
  int count = 0;
  for (int r = 1; r < size; ++r)
    if (all[r] != all[0]) {
      if (++count <= 8) differ += (differ.empty() ? "" : ", ") + std::to_string(r);
    }
  if (count == 0) return;
  if (count > 8) differ += " and " + std::to_string(count - 8) + " more";
  throw Error(ErrorCode::InvalidArgument, "bfly::distributed: the ranks disagree on " + what + ": rank" +
                                              (count > 1 ? "s " : " ") + differ + " differ" + (count > 1 ? "" : "s") +
                                              " from rank 0 (every rank must pass the same)");
}

std::uint64_t fingerprint(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace bfly::distributed::detail
