// The test binaries plan with the specialised kernels unless told
// otherwise: the library's default tier (auto) answers a new size with
// the generic tier's kernels while the specialised ones compile on a
// thread, so a test's first execution would check whichever came first
// (and a plan's passes and description would depend on the timing). The
// generic and tiered paths have tests of their own that ask for them
// (PlanOptions::tier), and the whole suite runs under either with
// BFLY_LIMITS=generic=1 or generic=2, which this leaves alone.
//
// Plans made without options read BFLY_LIMITS, given generic=0 here before
// main; options made by test_options() name the tier themselves (a test's
// own PlanOptions::limits replaces BFLY_LIMITS).
#include <cstdlib>
#include <string>

#include "support/test_options.hpp"

namespace bfly::test {
namespace {

bool tier_given = false;  // the run's BFLY_LIMITS names a tier

struct SpecialisedDefault {
  SpecialisedDefault() {
    const char* given = std::getenv("BFLY_LIMITS");
    std::string limits = given ? given : "";
    tier_given = limits.find("generic") != std::string::npos;
    if (tier_given) return;
    limits += limits.empty() ? "generic=0" : ",generic=0";
    setenv("BFLY_LIMITS", limits.c_str(), 1);
  }
} const specialised_default;

}  // namespace

PlanOptions test_options() {
  PlanOptions options;
  if (!tier_given) options.tier = Tier::Specialised;
  return options;
}

}  // namespace bfly::test
