// The modes a pass can be in and the launch forms each admits
// (plan/pass_modes.hpp): one row a mode, read by chainable(),
// staged_allowed(), block_rows_allowed(), halves_allowed() and the tuning
// table's applicability.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "plan/kernel_spec.hpp"
#include "plan/pass_modes.hpp"

namespace {

using bfly::plan::Form;
using bfly::plan::KernelSpec;
using bfly::plan::modes_admit;

const Form kForms[] = {Form::Chain, Form::Staging, Form::BlockRows, Form::Halves, Form::Tuning};

TEST(PassModes, APlainPassAdmitsEveryForm) {
  const KernelSpec plain;
  EXPECT_EQ(bfly::plan::mode_names(plain), "plain");
  for (Form form : kForms) EXPECT_TRUE(modes_admit(plain, form)) << static_cast<unsigned>(form);
}

TEST(PassModes, EachModeIsOneNamedRow) {
  std::set<std::string> names;
  for (const bfly::plan::PassMode& mode : bfly::plan::pass_modes()) {
    EXPECT_TRUE(names.insert(mode.name).second) << mode.name << " twice";
    EXPECT_FALSE(mode.active(KernelSpec{})) << mode.name << " is active on a plain pass";
  }
  EXPECT_GE(names.size(), 10u);
}

TEST(PassModes, ChirpAndRealPassesTakeNoExtraForm) {
  KernelSpec chirp;
  chirp.chirp_length = 1000;
  EXPECT_EQ(bfly::plan::mode_names(chirp), "bluestein");
  KernelSpec real;
  real.real_store = KernelSpec::RealStore::Split;
  EXPECT_EQ(bfly::plan::mode_names(real), "real");
  for (Form form : kForms) {
    EXPECT_FALSE(modes_admit(chirp, form)) << static_cast<unsigned>(form);
    EXPECT_FALSE(modes_admit(real, form)) << static_cast<unsigned>(form);
  }
  EXPECT_FALSE(chirp.chainable());
  EXPECT_FALSE(real.chainable());
  // An exchange in halves keeps every form but block rows.
  KernelSpec halves;
  halves.local_halves = true;
  EXPECT_TRUE(modes_admit(halves, Form::Chain));
  EXPECT_FALSE(modes_admit(halves, Form::BlockRows));
}

}  // namespace
