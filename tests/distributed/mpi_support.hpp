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
// (PoCL's CPU device on a machine without a GPU).
const Device& distributed_device();

// The whole global array, fresh from rank 0's random data and broadcast,
// so every rank holds the same values.
template <class T>
std::vector<std::complex<T>> shared_random(std::int64_t count);

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

}  // namespace bfly::test
