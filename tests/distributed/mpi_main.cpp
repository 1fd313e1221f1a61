// main() of the tests that run under mpirun: MPI around GoogleTest, and
// only rank 0 prints. Every check in these tests compares values reduced
// over all ranks (or the same error on every rank), so every rank passes or
// fails each test together and rank 0's report speaks for all; a rank that
// fails alone still makes mpirun's exit status non-zero.
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  const int status = RUN_ALL_TESTS();
  MPI_Finalize();
  return status;
}
