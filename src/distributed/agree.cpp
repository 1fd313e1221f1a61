// Agreement among ranks (agree.hpp). The cost is one small collective per
// check: an MPI_Allreduce (or MPI_Allgather of 8 bytes a rank) where the
// exchange that follows moves the whole array.
#include "distributed/agree.hpp"

#include <chrono>
#include <climits>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

namespace bfly::distributed::detail {

void check_mpi(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(status, text, &length) != MPI_SUCCESS) length = 0;
  throw Error(ErrorCode::Device, std::string("bfly::distributed: ") + call + " failed: " + std::string(text, length));
}

namespace {

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

// A collective abandoned at its timeout: MPI may still complete it (where
// the missing rank comes after all) and then writes `values`, so they live
// on, with the request, until a later agreement sees it done.
struct Abandoned {
  MPI_Request request = MPI_REQUEST_NULL;
  std::unique_ptr<int[]> values;
};
std::mutex abandoned_mutex;
std::vector<Abandoned> abandoned;

void forget_completed() {
  std::lock_guard<std::mutex> lock(abandoned_mutex);
  for (auto it = abandoned.begin(); it != abandoned.end();) {
    int done = 0;
    MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
    it = done ? abandoned.erase(it) : it + 1;
  }
}

// The minimum of `mine` over the ranks, waiting at most `timeout_s` (0:
// forever) for them: an MPI_Iallreduce polled with MPI_Test, which also
// drives MPI's progress; after the first millisecond it naps between tests
// so a long wait does not hold a core.
int minimum_within(MPI_Comm comm, int mine, double timeout_s, const std::string& what) {
  forget_completed();
  auto values = std::make_unique<int[]>(2);  // [mine, result]: on the heap, see Abandoned
  values[0] = mine;
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Iallreduce(&values[0], &values[1], 1, MPI_INT, MPI_MIN, comm, &request), "MPI_Iallreduce");
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    int done = 0;
    check_mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return values[1];
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (timeout_s > 0 && waited > timeout_s) {
      int rank = 0;
      MPI_Comm_rank(comm, &rank);
      {
        // MPI forbids freeing a collective's request: keep it pending.
        std::lock_guard<std::mutex> lock(abandoned_mutex);
        abandoned.push_back({request, std::move(values)});
      }
      throw Error(ErrorCode::InvalidArgument,
                  "bfly::distributed: rank " + std::to_string(rank) + " waited " + seconds_text(timeout_s) +
                      " s for every rank to reach " + what +
                      " (a rank that never called it, or called another collective first; Problem::timeout)");
    }
    if (waited > 1e-3) std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

}  // namespace

void arrive(MPI_Comm comm, double timeout_s, const std::string& what) { minimum_within(comm, 0, timeout_s, what); }

void agree(MPI_Comm comm, const std::string& failure, ErrorCode code, double timeout_s) {
  int rank = 0, size = 1;
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  // The lowest failing rank (size where none failed).
  const int mine = failure.empty() ? size : rank;
  const int first = minimum_within(comm, mine, timeout_s, "the same step of a plan");
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
