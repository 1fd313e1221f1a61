// The DLPack ABI (github.com/dmlc/dlpack, v0.8 and the versioned v1.x
// structs): the handful of types a capsule carries. Declared here rather than
// taken from nanobind, whose ndarray does not pass the consumer's stream to
// __dlpack__; bfly asks for the capsule itself and reads it with these.
#pragma once

#include <cstdint>

namespace bfly::python::dlpack {

enum DeviceType : std::int32_t { kCPU = 1, kCUDA = 2, kCUDAHost = 3, kCUDAManaged = 13 };
enum TypeCode : std::uint8_t { kInt = 0, kUInt = 1, kFloat = 2, kBfloat = 4, kComplex = 5, kBool = 6 };

struct Device {
  std::int32_t device_type;
  std::int32_t device_id;
};

struct DataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct Tensor {
  void* data;
  Device device;
  std::int32_t ndim;
  DataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null means C-contiguous
  std::uint64_t byte_offset;
};

// The unversioned capsule "dltensor".
struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor* self);
};

// The versioned capsule "dltensor_versioned" (DLPack 1.0).
struct PackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};
struct ManagedTensorVersioned {
  PackVersion version;
  void* manager_ctx;
  void (*deleter)(ManagedTensorVersioned* self);
  std::uint64_t flags;  // bit 0: read only; bit 1: is a copy
  Tensor dl_tensor;
};

}  // namespace bfly::python::dlpack
