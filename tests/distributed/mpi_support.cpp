#include "distributed/mpi_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <gtest/gtest.h>

#include "support/test_options.hpp"

namespace bfly::test {

int mpi_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int mpi_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

PlanOptions distributed_options() {
  PlanOptions options = test_options();
  if (options.tier == Tier::Specialised) options.tier = Tier::Generic;
  return options;
}

const Device& distributed_device() {
  static const Device device = [] {
    // One GPU a rank where the host has several (NCCL then), unless pinned.
    const char* pinned = std::getenv("BFLY_TEST_DEVICE");
    return distributed::rank_device(MPI_COMM_WORLD, pinned ? pinned : "");
  }();
  return device;
}

template <class T>
std::vector<std::complex<T>> shared_random(std::int64_t count) {
  std::vector<std::complex<T>> data(static_cast<std::size_t>(count));
  if (mpi_rank() == 0) {
    if constexpr (sizeof(T) == sizeof(float))
      data = random_data(data.size());
    else
      data = random_data_f64(data.size());
  }
  MPI_Bcast(data.data(), static_cast<int>(count),
            sizeof(T) == sizeof(float) ? MPI_C_FLOAT_COMPLEX : MPI_C_DOUBLE_COMPLEX, 0, MPI_COMM_WORLD);
  return data;
}

template <class T>
std::vector<T> shared_random_real(std::int64_t count) {
  std::vector<T> data(static_cast<std::size_t>(count));
  if (mpi_rank() == 0) {
    if constexpr (sizeof(T) == sizeof(float))
      data = random_real_data(data.size());
    else
      data = random_real_data_f64(data.size());
  }
  MPI_Bcast(data.data(), static_cast<int>(count), sizeof(T) == sizeof(float) ? MPI_FLOAT : MPI_DOUBLE, 0,
            MPI_COMM_WORLD);
  return data;
}

namespace {

// The global row-major index of every element of `box`, in the box's order.
std::vector<std::int64_t> box_indices(const std::vector<std::int64_t>& shape, const distributed::Box& box) {
  std::vector<std::int64_t> indices;
  if (box.empty()) return indices;
  std::vector<std::int64_t> at(box.lower);
  const std::size_t rank = shape.size();
  while (true) {
    std::int64_t index = 0;
    for (std::size_t k = 0; k < rank; ++k) index = index * shape[k] + at[k];
    indices.push_back(index);
    std::size_t k = rank;
    while (k > 0 && ++at[k - 1] == box.upper[k - 1]) at[k - 1] = box.lower[k - 1], --k;
    if (k == 0) return indices;
  }
}

}  // namespace

template <class T>
std::vector<T> box_part(const std::vector<T>& global, const std::vector<std::int64_t>& shape,
                        const distributed::Box& box) {
  std::vector<T> part;
  for (std::int64_t i : box_indices(shape, box)) part.push_back(global[static_cast<std::size_t>(i)]);
  return part;
}

template <class T>
Errors global_errors(const std::vector<std::complex<T>>& result, const distributed::Box& box,
                     const std::vector<std::int64_t>& shape, const Expected& reference, double scale) {
  // sums: |y - ref|^2, |ref|^2, non-finite count; maxima: |y - ref|, |ref|
  double sums[3] = {0, 0, 0}, maxima[2] = {0, 0};
  const std::vector<std::int64_t> indices = box_indices(shape, box);
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const std::complex<double> y(result[i].real(), result[i].imag());
    const std::complex<double> r = reference.values[static_cast<std::size_t>(indices[i])] * scale;
    if (!std::isfinite(y.real()) || !std::isfinite(y.imag())) sums[2] += 1;
    sums[0] += std::norm(y - r), sums[1] += std::norm(r);
    maxima[0] = std::max(maxima[0], std::abs(y - r)), maxima[1] = std::max(maxima[1], std::abs(r));
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, maxima, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  Errors errors;
  errors.relative_l2 = std::sqrt(sums[0] / sums[1]);
  errors.relative_max = maxima[0] / maxima[1];
  errors.finite = sums[2] == 0;
  return errors;
}

template <class T>
Errors global_errors(const std::vector<T>& result, const distributed::Box& box, const std::vector<std::int64_t>& shape,
                     const Expected& reference, double scale) {
  return global_errors(std::vector<std::complex<T>>(result.begin(), result.end()), box, shape, reference, scale);
}

Problem whole_problem(const distributed::Problem& problem) {
  Problem whole;
  whole.kind = problem.kind, whole.shape = problem.shape, whole.precision = problem.precision;
  whole.direction = problem.direction, whole.norm = problem.norm;
  return whole;
}

template <class T>
Errors run_against_fftw(const distributed::Problem& problem, const PlanOptions& options, Execution how) {
  distributed::Plan plan(MPI_COMM_WORLD, distributed_device(), problem, options);
  // The plan's execute as `how` says, from `in` to `out` (poisoned: the
  // device output starts as the poisoned host array).
  auto execute = [&](const auto& in, auto& out) {
    if (how == Execution::Host) return plan.execute(in.data(), out.data());
    const std::size_t in_bytes = in.size() * sizeof(in[0]), out_bytes = out.size() * sizeof(out[0]);
    if (how == Execution::InPlace) {
      Buffer one(distributed_device(), std::max<std::size_t>({in_bytes, out_bytes, 1}));
      if (in_bytes) one.write(in.data(), in_bytes);
      plan.execute(one, one);
      distributed_device().synchronize();
      if (out_bytes) one.read(out.data(), out_bytes);
      return;
    }
    Buffer device_in(distributed_device(), std::max<std::size_t>(in_bytes, 1));
    Buffer device_out(distributed_device(), std::max<std::size_t>(out_bytes, 1));
    if (in_bytes) device_in.write(in.data(), in_bytes);
    if (out_bytes) device_out.write(out.data(), out_bytes);
    if (how == Execution::Profiled) {
      const distributed::Phases phases = plan.profile(device_in, device_out);
      const std::size_t stages = plan.problem().decomposition == distributed::Decomposition::Slabs ||
                                         plan.problem().decomposition == distributed::Decomposition::SlabsTransposedIn
                                     ? 2
                                     : 3;
      EXPECT_EQ(phases.stage_ms.size(), stages);
      EXPECT_EQ(phases.exchange_ms.size(), phases.bound_ms.size());
      EXPECT_LE(phases.exchange_ms.size(), stages - 1);
      for (const auto* times : {&phases.stage_ms, &phases.exchange_ms, &phases.bound_ms})
        for (double t : *times) EXPECT_GE(t, 0.0);
    } else {
      plan.execute(device_in, device_out);
    }
    distributed_device().synchronize();
    if (out_bytes) device_out.read(out.data(), out_bytes);
  };
  const Problem whole = whole_problem(problem);
  std::int64_t in_elements = 1;
  for (std::int64_t n : whole.input_shape()) in_elements *= n;
  if (problem.kind == Kind::R2C) {
    const std::vector<T> global = shared_random_real<T>(in_elements);
    const Expected expected = fftw_reference(whole, global);
    const std::vector<T> in = box_part(global, whole.input_shape(), plan.input_box());
    std::vector<std::complex<T>> out(static_cast<std::size_t>(plan.output_box().elements()));
    poison(out);
    execute(in, out);
    return global_errors(out, plan.output_box(), whole.output_shape(), expected, whole.scale());
  }
  std::vector<std::complex<T>> global = shared_random<T>(in_elements);
  if (problem.kind == Kind::C2R) make_hermitian(whole, global);  // the same on every rank
  const Expected expected = fftw_reference(whole, global);
  const std::vector<std::complex<T>> in = box_part(global, whole.input_shape(), plan.input_box());
  if (problem.kind == Kind::C2R) {
    std::vector<T> out(static_cast<std::size_t>(plan.output_box().elements()));
    poison(out);
    execute(in, out);
    return global_errors(out, plan.output_box(), whole.output_shape(), expected, whole.scale());
  }
  std::vector<std::complex<T>> out(static_cast<std::size_t>(plan.output_box().elements()));
  poison(out);
  execute(in, out);
  return global_errors(out, plan.output_box(), whole.output_shape(), expected, whole.scale());
}

template std::vector<float> shared_random_real(std::int64_t);
template std::vector<double> shared_random_real(std::int64_t);
template std::vector<float> box_part(const std::vector<float>&, const std::vector<std::int64_t>&,
                                     const distributed::Box&);
template std::vector<double> box_part(const std::vector<double>&, const std::vector<std::int64_t>&,
                                      const distributed::Box&);
template Errors global_errors(const std::vector<float>&, const distributed::Box&, const std::vector<std::int64_t>&,
                              const Expected&, double);
template Errors global_errors(const std::vector<double>&, const distributed::Box&, const std::vector<std::int64_t>&,
                              const Expected&, double);
Errors round_trip_errors(const distributed::Plan& there, const distributed::Plan& back, int repeats) {
  const std::vector<std::int64_t>& shape = there.problem().shape;
  std::int64_t count = 1;
  for (std::int64_t n : shape) count *= n;
  const std::vector<std::complex<double>> global = shared_random<double>(count);
  const std::vector<std::complex<double>> in = box_part(global, shape, there.input_box());
  std::vector<std::complex<double>> middle(static_cast<std::size_t>(there.output_box().elements()));
  std::vector<std::complex<double>> out(in.size());
  poison(out);
  for (int repeat = 0; repeat < repeats; ++repeat) {
    there.execute(in.data(), middle.data());
    back.execute(middle.data(), out.data());
  }
  Expected identity;
  identity.values = global;
  return global_errors(out, there.input_box(), shape, identity, 1.0);
}

template Errors run_against_fftw<float>(const distributed::Problem&, const PlanOptions&, Execution);
template Errors run_against_fftw<double>(const distributed::Problem&, const PlanOptions&, Execution);
template std::vector<std::complex<float>> shared_random(std::int64_t);
template std::vector<std::complex<double>> shared_random(std::int64_t);
template std::vector<std::complex<float>> box_part(const std::vector<std::complex<float>>&,
                                                   const std::vector<std::int64_t>&, const distributed::Box&);
template std::vector<std::complex<double>> box_part(const std::vector<std::complex<double>>&,
                                                    const std::vector<std::int64_t>&, const distributed::Box&);
template Errors global_errors(const std::vector<std::complex<float>>&, const distributed::Box&,
                              const std::vector<std::int64_t>&, const Expected&, double);
template Errors global_errors(const std::vector<std::complex<double>>&, const distributed::Box&,
                              const std::vector<std::int64_t>&, const Expected&, double);

}  // namespace bfly::test
