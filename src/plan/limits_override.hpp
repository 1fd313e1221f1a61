// The one override of the planner's limits, for measuring alternatives and
// for tests that force a plan's shape: "key=value,key=value", integers, from
// PlanOptions::limits, else $BFLY_LIMITS (the CLI and the Python package
// read the same variable through the library). Each key sets one
// DeviceLimits field (or a few that go together); every plan made under it
// shows it in its kernels' names, since those encode what the limits chose.
// Keys are applied in the table's order whatever the text's, so a text has
// one meaning. A bad key or value is refused naming it.
//
//   BFLY_LIMITS="max_pass_length=16" bfly plan --shape 1000    # several passes
//   BFLY_LIMITS="columns=8,strided_occ=2" bfly bench --suite 2d
#pragma once

#include <string>

#include "bfly/bfly.hpp"
#include "plan/device_limits.hpp"

namespace bfly::plan {

// `limits` with `text`'s keys applied (empty text: unchanged). Local memory
// and clusters can only be lowered: the device's are the most it has.
// Throws Error(InvalidArgument) naming an unknown key, a repeated one or a
// bad value.
DeviceLimits with_override(DeviceLimits limits, const std::string& text);

// The override a plan is made under: `options.limits`, else $BFLY_LIMITS,
// else none.
std::string override_text(const PlanOptions& options);

// One line a key: its name, the field it sets and its values (for the
// documentation and the error naming an unknown key).
std::string override_keys();

}  // namespace bfly::plan
