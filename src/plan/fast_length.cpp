// bfly::next_fast_length (bfly/bfly.hpp): the 7-smooth lengths, the ones
// the planner runs by codelets alone, found without a scan (a 7-smooth
// number near 10^12 can be millions past the target).
#include <limits>
#include <string>

#include "bfly/bfly.hpp"

namespace bfly {

std::int64_t next_fast_length(std::int64_t target, bool real) {
  constexpr std::int64_t kMax = std::int64_t{1} << 58;  // (no product below overflows)
  if (target < 0 || target > kMax)
    throw Error(ErrorCode::InvalidArgument,
                "invalid target length " + std::to_string(target) + " (expected 0 to 2^58)");
  if (target <= 1) return target;
  // Each 3^b 5^c 7^d below twice the target, times the least power of two
  // (at least 2 where `real`) that reaches it: the least of those.
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t p7 = 1; p7 < 2 * target; p7 *= 7)
    for (std::int64_t p5 = p7; p5 < 2 * target; p5 *= 5)
      for (std::int64_t p3 = p5; p3 < 2 * target; p3 *= 3) {
        std::int64_t m = real ? 2 * p3 : p3;
        while (m < target) m *= 2;
        if (m < best) best = m;
      }
  return best;
}

}  // namespace bfly
