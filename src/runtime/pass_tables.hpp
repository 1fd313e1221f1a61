// A pass kernel's device tables: its stages' twiddles (w_L, or a
// two-level table), the twiddles between passes (or a plane's rows' w_C),
// and its piece's host table (pieces::host_table), each made once a device
// (DeviceImpl::memo) and, where long, kept in the disk cache
// (runtime/table_cache.hpp). Every one is rounded once from the
// long-double oracle into the working precision.
#pragma once

#include <memory>

#include "backends/device_impl.hpp"
#include "plan/kernel_spec.hpp"

namespace bfly::detail {

struct PassTables {
  // (A kernel that reads no table of a kind gets another in its place.)
  std::shared_ptr<BufferImpl> twiddles, pass_twiddles, tables;
};

PassTables pass_tables(DeviceImpl& device, const plan::KernelSpec& spec);

}  // namespace bfly::detail
