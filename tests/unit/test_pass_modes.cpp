// The modes a pass can be in and the launch forms each admits
// (plan/pass_modes.hpp, and each piece's admits()): one row a mode, read by chainable(),
// staged_allowed(), block_rows_allowed(), halves_allowed() and the tuning
// table's applicability.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "plan/kernel_spec.hpp"
#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"

namespace {

using bfly::plan::Form;
using bfly::plan::KernelSpec;
using bfly::plan::modes_admit;

const Form kForms[] = {Form::Chain,  Form::Staging,       Form::BlockRows,   Form::Halves,
                       Form::Tuning, Form::CallbackStore, Form::CallbackLoad};
const Form kLaunchForms[] = {Form::Chain, Form::Staging, Form::BlockRows, Form::Halves, Form::Tuning};

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
  // ... and each piece, one name each, none shared with a row.
  for (const bfly::pieces::Piece* piece : bfly::pieces::all())
    EXPECT_TRUE(names.insert(piece->name()).second) << piece->name() << " twice";
  EXPECT_GE(names.size(), 12u);
}

TEST(PassModes, ChirpAndRealPassesTakeNoExtraForm) {
  KernelSpec chirp;
  chirp.chirp_length = 1000;
  EXPECT_EQ(bfly::plan::mode_names(chirp), "chirp");
  KernelSpec real;
  real.real_store = KernelSpec::RealStore::Split;
  EXPECT_EQ(bfly::plan::mode_names(real), "real");
  for (Form form : kLaunchForms) {
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

// The product's fusion as the two hand-written lists had it before they
// became the table's CallbackStore and CallbackLoad columns: every
// combination of the modes they read gives the same answer, but for the
// real loads, which take the callbacks since issue 42 (each reads through
// PassWriter::loaded at its element's offset).
TEST(PassModes, TheProductFusesWhereTheListsSaidItDid) {
  using RL = KernelSpec::RealLoad;
  using RS = KernelSpec::RealStore;
  const RL loads[] = {RL::None, RL::Real, RL::Hermitian, RL::Pairs, RL::Mirror};
  const RS stores[] = {RS::None, RS::Half, RS::Real, RS::Split, RS::Pairs, RS::SplitPaired};
  int checked = 0;
  for (unsigned bits = 0; bits < (1u << 11); ++bits)
    for (RL load : loads)
      for (RS store : stores) {
        KernelSpec s;
        s.identity = bits & 1;
        s.cluster = bits & 2 ? 2 : 1;
        s.plane_columns = bits & 4 ? 8 : 0;
        s.chirp_length = bits & 8 ? 100 : 0;
        s.rader_prime = bits & 16 ? 101 : 0;
        s.convolve = bits & 32;
        s.wide = bits & 64;
        s.staged = bits & 128 ? 1 : 0;
        s.block_rows = bits & 256;
        s.chirp_load = bits & 512;
        s.local_halves = bits & 1024;
        s.rader_gather = s.rader_prime > 0 && (bits & 512);
        s.real_load = load;
        s.real_store = store;
        const bool store_was =
            !s.identity && !s.clustered() && !s.plane() && !s.bluestein() && !s.rader() && !s.convolve && !s.wide &&
            (store == RS::None || store == RS::Half || store == RS::Split || store == RS::SplitPaired);
        const bool load_was = !s.identity && !s.clustered() && !s.plane() && !s.bluestein() && !s.rader() &&
                              !s.convolve && !s.staged && !s.block_rows && !s.rader_gather &&
                              // (a chirp load is Bluestein's: the lists' !chirp_load is its row's)
                              !(s.chirp_load && s.bluestein());
        ASSERT_EQ(s.can_fuse_store_ops(), store_was) << bits << " " << bfly::plan::mode_names(s);
        ASSERT_EQ(s.can_fuse_load_ops(), load_was) << bits << " " << bfly::plan::mode_names(s);
        ++checked;
      }
  EXPECT_EQ(checked, 2048 * 30);
}

}  // namespace
