// A rank that never comes (issue 43: "never a hang, bounded by a timeout
// where MPI offers none"): on 2 ranks, rank 0 makes a plan with a 1 s
// timeout and rank 1 does not; rank 0 must throw one line saying it waited,
// after about 1 s, instead of waiting forever. Exit 0 where it did.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "bfly/distributed.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int failed = 0;
  if (size != 2) {
    if (rank == 0) std::printf("timeout test: needs 2 ranks, has %d\n", size);
    failed = 1;
  } else if (rank == 0) {
    bfly::distributed::Problem problem;
    problem.shape = {8, 8}, problem.timeout = 1;
    const auto start = std::chrono::steady_clock::now();
    std::string message;
    try {
      bfly::distributed::Plan plan(MPI_COMM_WORLD, bfly::Device::open(), problem);
    } catch (const bfly::Error& e) {
      message = e.what();
    }
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("timeout test: rank 0 gave up after %.2f s: %s\n", waited, message.c_str());
    failed = message.find("rank 0 waited 1 s for every rank to reach the plan's constructor") == std::string::npos ||
             message.find('\n') != std::string::npos || waited < 1.0 || waited > 2.5;
  } else {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    // Rank 0's arrival is an MPI_Iallreduce of one int (MPI_MIN) left
    // pending when it gave up (distributed/agree.cpp): the same call
    // completes it (a blocking MPI_Allreduce may not match it in Open MPI),
    // so both ranks finish cleanly.
    int mine = 0, least = 0;
    MPI_Request request;
    MPI_Iallreduce(&mine, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) std::printf("timeout test: %s\n", failed ? "FAILED" : "passed");
  MPI_Finalize();
  return failed;
}
