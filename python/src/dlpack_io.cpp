#include "dlpack_io.hpp"

#include <nanobind/stl/string.h>

#include <cstring>
#include <stdexcept>

#include "dlpack.hpp"

namespace nb = nanobind;

namespace bfly::python {
namespace {

// numpy's names for the DLPack types bfly meets.
std::string dtype_name(const dlpack::DataType& t) {
  if (t.lanes != 1) return "lanes" + std::to_string(t.lanes);
  switch (t.code) {
    case dlpack::kBool:
      return "bool";
    case dlpack::kInt:
      return "int" + std::to_string(t.bits);
    case dlpack::kUInt:
      return "uint" + std::to_string(t.bits);
    case dlpack::kFloat:
      return "float" + std::to_string(t.bits);
    case dlpack::kBfloat:
      return "bfloat" + std::to_string(t.bits);
    case dlpack::kComplex:
      return "complex" + std::to_string(t.bits);
    default:
      return "dlpack-code" + std::to_string(t.code);
  }
}

dlpack::DataType dtype_of(const std::string& name) {
  if (name == "complex64") return {dlpack::kComplex, 64, 1};
  if (name == "complex128") return {dlpack::kComplex, 128, 1};
  if (name == "float32") return {dlpack::kFloat, 32, 1};
  if (name == "float64") return {dlpack::kFloat, 64, 1};
  throw Error(ErrorCode::InvalidArgument, "cannot export dtype " + name + " through DLPack");
}

nb::tuple describe(const dlpack::Tensor& t, bool read_only) {
  nb::list shape, strides;
  for (int k = 0; k < t.ndim; ++k) shape.append(t.shape[k]);
  nb::object stride_tuple = nb::none();
  if (t.strides != nullptr) {
    for (int k = 0; k < t.ndim; ++k) strides.append(t.strides[k]);
    stride_tuple = nb::tuple(strides);
  }
  const std::uintptr_t pointer = reinterpret_cast<std::uintptr_t>(t.data) + t.byte_offset;
  return nb::make_tuple(pointer, nb::tuple(shape), stride_tuple, dtype_name(t.dtype), t.device.device_type,
                        t.device.device_id, read_only);
}

// What an exported capsule owns: the buffer, and the shape and strides the
// tensor points into.
struct Export {
  dlpack::ManagedTensor managed{};
  std::shared_ptr<Buffer> owner;
  std::vector<std::int64_t> shape, strides;
};

void delete_export(dlpack::ManagedTensor* self) { delete static_cast<Export*>(self->manager_ctx); }

// The capsule's destructor: frees the tensor unless a consumer took it
// (renamed it "used_dltensor", and so owns the deleter call).
void capsule_destructor(PyObject* capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto* managed = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
    if (managed && managed->deleter) managed->deleter(managed);
  }
}

}  // namespace

nb::tuple dlpack_info(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  if (PyCapsule_IsValid(c, "dltensor_versioned")) {
    auto* m = static_cast<dlpack::ManagedTensorVersioned*>(PyCapsule_GetPointer(c, "dltensor_versioned"));
    return describe(m->dl_tensor, (m->flags & 1u) != 0);
  }
  if (PyCapsule_IsValid(c, "dltensor")) {
    auto* m = static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
    return describe(m->dl_tensor, false);
  }
  throw nb::type_error("expected an unconsumed DLPack capsule (\"dltensor\" or \"dltensor_versioned\")");
}

nb::object export_dlpack(std::shared_ptr<Buffer> owner, std::uintptr_t pointer, int device_id,
                         std::vector<std::int64_t> shape, std::vector<std::int64_t> strides, const std::string& dtype) {
  auto* e = new Export;
  e->owner = std::move(owner);
  e->shape = std::move(shape);
  e->strides = std::move(strides);
  dlpack::Tensor& t = e->managed.dl_tensor;
  t.data = reinterpret_cast<void*>(pointer);
  t.device = {dlpack::kCUDA, device_id};
  t.ndim = static_cast<std::int32_t>(e->shape.size());
  try {
    t.dtype = dtype_of(dtype);
  } catch (...) {
    delete e;
    throw;
  }
  t.shape = e->shape.data();
  t.strides = e->strides.empty() ? nullptr : e->strides.data();
  t.byte_offset = 0;
  e->managed.manager_ctx = e;
  e->managed.deleter = delete_export;
  PyObject* capsule = PyCapsule_New(&e->managed, "dltensor", capsule_destructor);
  if (!capsule) {
    delete e;
    throw nb::python_error();
  }
  return nb::steal(capsule);
}

}  // namespace bfly::python
