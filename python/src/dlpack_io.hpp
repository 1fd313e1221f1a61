// Reading DLPack capsules that frameworks hand over, and making capsules of
// bfly-allocated device memory for frameworks to take.
#pragma once

#include <nanobind/nanobind.h>

#include <bfly/bfly.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bfly::python {

// Peeks into a "dltensor" or "dltensor_versioned" capsule without consuming
// it: (pointer with byte offset applied, shape, strides in elements or None,
// numpy dtype string such as "complex64", device type, device id, read-only).
nanobind::tuple dlpack_info(nanobind::handle capsule);

// A "dltensor" capsule of `pointer` with the given shape, strides (elements)
// and numpy dtype name, on CUDA device `device_id`; the capsule keeps
// `owner` alive until its consumer calls the deleter.
nanobind::object export_dlpack(std::shared_ptr<Buffer> owner, std::uintptr_t pointer, int device_id,
                               std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                               const std::string& dtype);

}  // namespace bfly::python
