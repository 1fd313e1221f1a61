// MPI for the CLI's distributed bench (bench_distributed.cpp): starting
// and finishing MPI, and the collectives that keep ranks together when
// only some of them fail, so that a failure is never a hang.
#pragma once

#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

namespace bfly::cli {

// MPI for the run where nobody started it (a singleton too: Open MPI and
// MPICH start one rank without mpirun), finalised however the run ends.
// Whatever holds plans or devices must be gone first: declare it after.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool owned_ = false;
};

// A step that may fail on some ranks only (a device, an allocation, a
// copy, a file), then agreement: where any rank failed, every rank throws
// the lowest failing rank's error (bfly::Error, its code kept; "rank R: "
// before it where there are several ranks), so that no rank waits in a
// collective the others have left. Doubles as a barrier.
void agree(MPI_Comm comm, const std::function<void()>& step);

// Every rank's line, in rank order, on rank 0 (empty elsewhere).
std::vector<std::string> gather_lines(MPI_Comm comm, const std::string& line);

// Element by element, the largest over the ranks (on every rank).
std::vector<double> max_over_ranks(MPI_Comm comm, std::vector<double> values);

}  // namespace bfly::cli
