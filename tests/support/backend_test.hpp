// A test that runs once per backend ("cuda", "opencl": the parameter) on
// that backend's device (support/reference.hpp: backend_device), and is
// skipped, saying why, where the backend has none here.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "support/reference.hpp"

namespace bfly::test {

class BackendTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string why;
    device_ = backend_device(GetParam(), &why);
    if (!device_) GTEST_SKIP() << "no " << GetParam() << " device: " << why;
    std::printf("[ device   ] %s: %s\n", device_->info().spec.c_str(), device_->info().name.c_str());
  }
  const Device& device() const { return *device_; }

 private:
  const Device* device_ = nullptr;
};

}  // namespace bfly::test
