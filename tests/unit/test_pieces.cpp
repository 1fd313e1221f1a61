// The load and store pieces (pieces/piece.hpp): each one named once, absent
// from a plain pass, and, where active, the owner of its words in the
// kernel's name, its parameters and its stores.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "codegen/kernel_params.hpp"
#include "pieces/piece.hpp"

namespace {

using bfly::plan::KernelSpec;

TEST(Pieces, EachPieceIsNamedOnceAndAbsentFromAPlainPass) {
  std::set<std::string> names;
  const KernelSpec plain;
  for (const bfly::pieces::Piece* piece : bfly::pieces::all()) {
    EXPECT_TRUE(names.insert(piece->name()).second) << piece->name() << " twice";
    EXPECT_FALSE(piece->active(plain)) << piece->name();
  }
  EXPECT_TRUE(bfly::pieces::of(plain).empty());
  EXPECT_FALSE(plain.pieces_own_store());
}

// Rader past one kernel's forward FFT's last pass: the kernel store is a
// piece, and everything about it comes from the piece's file.
TEST(Pieces, RadersKernelStoreNamesItsWordsParametersAndStores) {
  KernelSpec store;
  store.rader_prime = 10007;
  store.rader_kernel_store = true;
  // Rader's own (its tables and words) and the pass's loads and stores.
  const auto own = bfly::pieces::of(store);
  ASSERT_EQ(own.size(), 2u);
  EXPECT_STREQ(own[0]->name(), "rader");
  EXPECT_STREQ(own[1]->name(), "rader-pass");
  EXPECT_TRUE(bfly::pieces::has_tables(store));
  EXPECT_NE(store.name().find("_raderpass"), std::string::npos) << store.name();
  EXPECT_TRUE(store.pieces_own_store());
  EXPECT_NE(store.geometry().find("kernel-store"), std::string::npos) << store.geometry();
  std::vector<std::string> names;
  for (const bfly::codegen::Param& p : bfly::codegen::pass_params(store)) names.push_back(p.name);
  const std::vector<std::string> want{"in",        "out",        "twiddles", "pass_twiddles", "transforms",
                                      "in_sign",   "out_re",     "out_im",   "tables",        "rader_in",
                                      "rader_out", "rader_sign", "rader_re", "rader_im"};
  EXPECT_EQ(names, want);
  // The gather pass reads the axis's point 0 and takes no parameter of its own.
  KernelSpec gather;
  gather.rader_prime = 10007;
  gather.rader_gather = true;
  ASSERT_EQ(bfly::pieces::of(gather).size(), 2u);
  EXPECT_TRUE(bfly::pieces::of(gather)[1]->reads_axis_origin(gather));
  EXPECT_FALSE(gather.pieces_own_store());
  EXPECT_EQ(bfly::codegen::pass_params(gather).size(), 9u);
}

// Bluestein's passes: the chirp piece owns N and the open dim's strides as
// parameters, and the stores where it multiplies by the kernel or the chirp.
TEST(Pieces, BluesteinsChirpOwnsItsRunTimeLengthAndStores) {
  KernelSpec load;
  load.chirp_length = 1009;
  load.chirp_load = true;
  ASSERT_EQ(bfly::pieces::of(load).size(), 1u);
  EXPECT_STREQ(bfly::pieces::of(load)[0]->name(), "chirp");
  EXPECT_TRUE(bfly::pieces::open_dim(load));
  EXPECT_FALSE(load.pieces_own_store());
  const auto params = bfly::codegen::pass_params(load);
  ASSERT_EQ(params.size(), 12u);
  EXPECT_STREQ(params[8].name, "tables");
  EXPECT_STREQ(params[9].name, "chirp_n");
  EXPECT_STREQ(params[11].name, "open_out");
  KernelSpec store = load;
  store.chirp_load = false;
  store.chirp_store = KernelSpec::ChirpStore::Kernel;
  EXPECT_TRUE(store.pieces_own_store());
  EXPECT_NE(store.geometry().find("chirp kernel-store"), std::string::npos) << store.geometry();
}

// A real axis's loads and stores: the piece says which side holds reals
// (the parameters' types), names the kernel's kind and needs the exchange
// for its split.
TEST(Pieces, TheRealPieceOwnsTheRealSides) {
  KernelSpec r2c;
  r2c.real_load = KernelSpec::RealLoad::Pairs;
  r2c.real_store = KernelSpec::RealStore::Split;
  r2c.real_length = 1024;
  ASSERT_EQ(bfly::pieces::of(r2c).size(), 1u);
  EXPECT_STREQ(bfly::pieces::of(r2c)[0]->name(), "real");
  EXPECT_TRUE(bfly::pieces::reads_reals(r2c));
  EXPECT_FALSE(bfly::pieces::writes_reals(r2c));
  EXPECT_TRUE(bfly::pieces::need_exchange(r2c));
  EXPECT_TRUE(r2c.pieces_own_store());
  EXPECT_NE(r2c.name().find("_packed"), std::string::npos) << r2c.name();
  EXPECT_NE(r2c.geometry().find("real 1024 load pairs store split"), std::string::npos) << r2c.geometry();
}

}  // namespace
