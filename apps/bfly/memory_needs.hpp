// What each command will allocate, computed from its inputs' sizes (file
// headers, shapes, lengths) for the one memory check it makes before
// allocating by them (io/memory_budget.hpp): its moments, each what the
// host and the device hold at once. The fft family's are in
// numpy_transform.cpp, beside the stages they follow.
//
// Each follows the code it sizes (noted at each); where the library picks a
// size at run time (polymul's digit width, bigmul's limb), the estimate
// takes the first attempt's, a floor: such a command is refused only where
// it cannot fit.
#pragma once

#include <bfly/convolve.hpp>
#include <bfly/filter.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "io/memory_budget.hpp"
#include "io/npy.hpp"
#include "options.hpp"

namespace bfly::cli {

// Checks `needs` against the host and the device `device` opens (once:
// DeviceOptions keeps it); throws Error(OutOfMemory) in one line.
void check_memory(const DeviceOptions& device, const io::MemoryNeeds& needs);
// Against the host alone, for a command that opens no device.
void check_host_memory(const io::MemoryNeeds& needs);

// Device memory: the whole at the peak, and the largest one buffer.
struct DeviceBytes {
  std::uint64_t total = 0, largest = 0;
};

// A plan executed by execute_host (runtime/plan_impl.cpp): its input and
// output buffers (one in place) and its workspace (the planner's, with the
// device's limits).
DeviceBytes plan_bytes(const Device& device, const Problem& problem);

// A Convolver (ops/convolver.cpp) through set_kernel and execute_host.
DeviceBytes convolver_bytes(const Device& device, const Convolution& convolution);

// bfly convolve of `signal` and `kernel` (as read) by `convolution` (valid).
io::MemoryNeeds convolve_needs(const Device& device, const Convolution& convolution, const io::NpyArray& signal,
                               const io::NpyArray& kernel);

// bfly filter of the image at `input` (.npy or PNG: sized from its header,
// before it is read), with the --kernel at `kernel` (empty: none), or the
// log spectrum.
io::MemoryNeeds filter_needs(const Device& device, const std::string& input, const std::string& kernel,
                             const FrequencyFilter& filter, bool spectrum);

// bfly polymul of `a` and `b` (read).
io::MemoryNeeds polymul_needs(const Device& device, const std::vector<std::int64_t>& a,
                              const std::vector<std::int64_t>& b);

// bfly bigmul of the texts `x` and `y` (read).
io::MemoryNeeds bigmul_needs(const Device& device, const std::string& x, const std::string& y);

}  // namespace bfly::cli
