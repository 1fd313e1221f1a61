#include "plan/device_limits.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "bfly/bfly.hpp"

namespace bfly::plan {

DeviceLimits cpu_limits() {
  DeviceLimits limits;
  limits.local_memory_bytes = 1 << 20;
  limits.max_group_size = 4096;
  limits.is_gpu = false;
  limits.max_single_pass_length = 16384;
  limits.min_columns = 8;
  limits.target_group_size = 256;
  return limits;
}

DeviceLimits gpu_limits(std::size_t local_memory_bytes, int max_group_size) {
  DeviceLimits limits;
  limits.local_memory_bytes = local_memory_bytes;
  limits.max_group_size = std::min(max_group_size, 1024);
  limits.is_gpu = true;
  // Largest power of two whose fp32 points fit in local memory.
  std::int64_t fit = 1;
  while (fit * 2 * 8 <= static_cast<std::int64_t>(local_memory_bytes)) fit *= 2;
  limits.max_single_pass_length = std::min<std::int64_t>(fit, 16384);
  limits.min_columns = 4;
  limits.target_group_size = 256;
  return limits;
}

DeviceLimits with_environment(DeviceLimits limits) {
  const char* text = std::getenv("BFLY_MAX_PASS_LENGTH");
  if (!text || !*text) return limits;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || value < 2)
    throw Error(ErrorCode::InvalidArgument, std::string("invalid BFLY_MAX_PASS_LENGTH '") + text + "' (expected an integer >= 2)");
  limits.max_single_pass_length = std::min<std::int64_t>(limits.max_single_pass_length, value);
  return limits;
}

}  // namespace bfly::plan
