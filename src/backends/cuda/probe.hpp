// Whether a CUDA driver is present, without linking it (dlopen), so one
// binary runs on machines with and without CUDA.
#pragma once

#include <string>

namespace bfly::detail::cuda {

// Empty when libcuda loads; otherwise the reason it does not.
std::string driver_absent_reason();

}  // namespace bfly::detail::cuda
