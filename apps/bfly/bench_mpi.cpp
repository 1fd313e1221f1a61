#include "bench_mpi.hpp"

#include <climits>
#include <new>
#include <stdexcept>

#include "bfly/bfly.hpp"

namespace bfly::cli {

MpiSession::MpiSession() {
  int started = 0;
  MPI_Initialized(&started);
  if (!started) owned_ = MPI_Init(nullptr, nullptr) == MPI_SUCCESS;
}

MpiSession::~MpiSession() {
  int finished = 0;
  MPI_Finalized(&finished);
  if (owned_ && !finished) MPI_Finalize();
}

void agree(MPI_Comm comm, const std::function<void()>& step) {
  std::string message;
  int code = static_cast<int>(ErrorCode::Device);
  try {
    step();
  } catch (const Error& e) {
    message = e.what(), code = static_cast<int>(e.code());
  } catch (const std::bad_alloc&) {
    message = "out of host memory", code = static_cast<int>(ErrorCode::OutOfMemory);
  } catch (const std::exception& e) {
    message = e.what();
  }
  int rank = 0, ranks = 1, first = INT_MAX;
  MPI_Comm_rank(comm, &rank), MPI_Comm_size(comm, &ranks);
  const int failed = message.empty() ? INT_MAX : rank;
  MPI_Allreduce(&failed, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == INT_MAX) return;
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  MPI_Bcast(&code, 1, MPI_INT, first, comm);
  message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  throw Error(static_cast<ErrorCode>(code), ranks > 1 ? "rank " + std::to_string(first) + ": " + message : message);
}

std::vector<std::string> gather_lines(MPI_Comm comm, const std::string& line) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank), MPI_Comm_size(comm, &ranks);
  int length = static_cast<int>(line.size());
  std::vector<int> lengths(rank == 0 ? ranks : 0), offsets(lengths.size());
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, comm);
  for (std::size_t r = 1; r < offsets.size(); ++r) offsets[r] = offsets[r - 1] + lengths[r - 1];
  std::string all(rank == 0 ? static_cast<std::size_t>(offsets.back() + lengths.back()) : 0, '\0');
  MPI_Gatherv(line.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> lines;
  for (std::size_t r = 0; r < lengths.size(); ++r) lines.push_back(all.substr(offsets[r], lengths[r]));
  return lines;
}

std::vector<double> max_over_ranks(MPI_Comm comm, std::vector<double> values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX, comm);
  return values;
}

}  // namespace bfly::cli
