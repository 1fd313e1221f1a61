// What the distributed tests share: the device, the whole array on every
// rank, a box's part of it, and errors reduced over the ranks.
#pragma once

#include <mpi.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "bfly/distributed.hpp"
#include "support/reference.hpp"

namespace bfly::test {

int mpi_rank();
int mpi_size();

// The device every rank plans on: BFLY_TEST_DEVICE, else bfly's default
// (PoCL's CPU device on a machine without a GPU), one GPU a rank where the
// host has several (distributed::rank_device).
const Device& distributed_device();

// The options the distributed tests plan with: the generic tier (kernels
// that take the length as an argument, compiled once per rank), unless the
// run's BFLY_LIMITS names a tier. Their subject is the distribution (boxes,
// exchanges, stages, norms); the specialised kernels of every length have
// the accuracy suites, and each rank compiling them for each box was most
// of these tests' cold time (67 s against 24 s for np 1..4 on 2 cores,
// 2026-11-26, docs/DISTRIBUTED.md). DistributedSpecialised runs a few cases on them.
PlanOptions distributed_options();

// The whole global array, fresh from rank 0's random data and broadcast,
// so every rank holds the same values.
template <class T>
std::vector<std::complex<T>> shared_random(std::int64_t count);
// The same for real data (R2C inputs).
template <class T>
std::vector<T> shared_random_real(std::int64_t count);

// The part of a row-major global array of `shape` that `box` covers,
// row-major over the box (by index arithmetic, independent of the
// library's pack loops).
template <class T>
std::vector<T> box_part(const std::vector<T>& global, const std::vector<std::int64_t>& shape,
                        const distributed::Box& box);

// Relative L2 and max errors of every rank's output box against the whole
// reference (row-major over the global shape) times `scale`, summed over
// all ranks: the same numbers on every rank.
template <class T>
Errors global_errors(const std::vector<std::complex<T>>& result, const distributed::Box& box,
                     const std::vector<std::int64_t>& shape, const Expected& reference, double scale);
// Real results (C2R) against the reference's real parts.
template <class T>
Errors global_errors(const std::vector<T>& result, const distributed::Box& box, const std::vector<std::int64_t>& shape,
                     const Expected& reference, double scale);

// One distributed transform of fresh data on every rank (T: float or
// double, the problem's precision), each rank's output box (poisoned with
// NaN first) against FFTW over the whole array: the errors reduced over the
// ranks. C2R inputs are made Hermitian first (support/reference.hpp).
//
// `how`: through the host-memory execute, the device-buffer one, the
// device-buffer one in place (one buffer as input and output, of the
// larger side's bytes), or profile() (which executes once with waits
// between the phases).
enum class Execution { Host, DeviceBuffers, InPlace, Profiled };
template <class T>
Errors run_against_fftw(const distributed::Problem& problem, const PlanOptions& options,
                        Execution how = Execution::Host);

// A C2C fp64 round trip: `there` (forward, norm backward) then `back`
// (its inverse on the same boxes) on fresh data, `repeats` times (plan
// once, execute many); each rank's input box against what came back, the
// errors reduced over the ranks.
Errors round_trip_errors(const distributed::Plan& there, const distributed::Plan& back, int repeats = 2);

// The whole array's bfly::Problem (kind, shape, precision, direction, norm).
Problem whole_problem(const distributed::Problem& problem);

}  // namespace bfly::test
