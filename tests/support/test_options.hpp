// The tier the test binaries plan with (support/specialised_default.cpp).
#pragma once

#include "bfly/bfly.hpp"

namespace bfly::test {

// PlanOptions with the specialised kernels (Tier::Specialised), unless the
// run's BFLY_LIMITS names a generic tier (the whole suite under it).
PlanOptions test_options();

}  // namespace bfly::test
