// Tensor creation, views, storage resizing, copies between host and device, fills and .item().
#include <ATen/Dispatch_v2.h>
#include <ATen/EmptyTensor.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TensorFactories.h>
#include <torch/library.h>

#include "mojo.h"

namespace mojo {
namespace {

constexpr auto kMojo = c10::DeviceType::PrivateUse1;
const c10::DispatchKeySet kKeys(c10::DispatchKey::PrivateUse1);

at::Tensor empty(c10::IntArrayRef size, std::optional<at::ScalarType> dtype,
                 std::optional<at::Layout> layout, std::optional<at::Device> device,
                 std::optional<bool> pin_memory, std::optional<at::MemoryFormat> memory_format) {
  c10::DeviceGuard guard(device.value_or(c10::Device(kMojo)));
  return at::detail::empty_generic(size, device_allocator(), kKeys,
                                   c10::dtype_or_default(dtype), memory_format);
}

at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride,
                         std::optional<at::ScalarType> dtype, std::optional<at::Layout> layout,
                         std::optional<at::Device> device, std::optional<bool> pin_memory) {
  c10::DeviceGuard guard(device.value_or(c10::Device(kMojo)));
  return at::detail::empty_strided_generic(size, stride, device_allocator(), kKeys,
                                           c10::dtype_or_default(dtype));
}

MojoTensor bytes_view(uint64_t address, const int64_t* count, const int64_t* one, int device) {
  return MojoTensor{address, count, one, 1, static_cast<int32_t>(at::kByte), device};
}

}  // namespace

// Grows or shrinks a storage's device memory, keeping its leading bytes.
void resize_bytes(const c10::Storage& storage, size_t nbytes) {
  auto* impl = storage.unsafeGetStorageImpl();
  TORCH_CHECK(impl->resizable(), "Trying to resize storage that is not resizable");
  c10::DeviceGuard guard(storage.device());
  at::DataPtr fresh = device_allocator()->allocate(nbytes);
  int64_t keep = static_cast<int64_t>(std::min(impl->nbytes(), nbytes)), one = 1;
  if (keep > 0) {
    int device = storage.device().index();
    auto dst = bytes_view(reinterpret_cast<uint64_t>(fresh.get()), &keep, &one, device);
    auto src = bytes_view(reinterpret_cast<uint64_t>(impl->data()), &keep, &one, device);
    check(mojo_copy(&dst, &src));
  }
  impl->set_data_ptr_noswap(std::move(fresh));
  impl->set_nbytes(nbytes);
}

namespace {

// Sets sizes (and strides, or contiguous ones) and grows the storage to fit.
void resize_impl(at::TensorImpl* self, c10::IntArrayRef size, at::OptionalIntArrayRef stride) {
  if (stride) {
    self->set_sizes_and_strides(size, *stride);
  } else {
    self->set_sizes_contiguous(size);
  }
  size_t needed = at::detail::computeStorageNbytes(self->sizes(), self->strides(),
                                                    self->dtype().itemsize(), self->storage_offset());
  if (needed > self->storage().nbytes()) resize_bytes(self->storage(), needed);
}

const at::Tensor& resize_(const at::Tensor& self, c10::IntArrayRef size,
                          std::optional<at::MemoryFormat> memory_format) {
  auto* impl = self.unsafeGetTensorImpl();
  resize_impl(impl, size, std::nullopt);
  if (memory_format && *memory_format != at::MemoryFormat::Preserve) {
    impl->empty_tensor_restride(*memory_format);
  }
  return self;
}

at::Tensor& set_storage(at::Tensor& self, c10::Storage source, int64_t offset, c10::IntArrayRef size,
                        c10::IntArrayRef stride) {
  at::native::checkSetStorage(self, source, offset, size, stride);
  self.unsafeGetTensorImpl()->set_storage_offset(offset);
  at::OptionalIntArrayRef strides =
      stride.data() != nullptr ? at::OptionalIntArrayRef(stride) : std::nullopt;
  resize_impl(self.unsafeGetTensorImpl(), size, strides);
  return self;
}

at::Tensor& set_source_storage(at::Tensor& self, c10::Storage source) {
  int64_t items = static_cast<int64_t>(source.nbytes() / self.dtype().itemsize());
  return set_storage(self, source, 0, {items}, {});
}

at::Tensor& set_source_tensor(at::Tensor& self, const at::Tensor& source) {
  if (self.is_same(source)) return self;
  return set_storage(self, source.storage(), source.storage_offset(), source.sizes(), source.strides());
}

at::Tensor& set_empty(at::Tensor& self) {
  c10::Storage storage(c10::Storage::use_byte_size_t(), 0, device_allocator(), true);
  return set_storage(self, storage, 0, {0}, {});
}

[[noreturn]] void unsupported_copy(const at::Tensor& src, const at::Tensor& dst) {
  TORCH_CHECK_NOT_IMPLEMENTED(false, "Copying from ", src.device(), " to ", dst.device(),
                              " is not supported by the mojo backend; go through the CPU.");
}

// Host to device: upload the source's bytes, then convert and scatter on the device.
// `non_blocking` from pinned memory returns before the copy ends (ordered on the stream).
void upload(const at::Tensor& src, const at::Tensor& dst, bool non_blocking) {
  at::Tensor host = src.contiguous();
  bool direct = dst.is_contiguous() && dst.scalar_type() == src.scalar_type() &&
                dst.sizes() == src.sizes();
  at::Tensor staged = direct ? dst : at::empty(src.sizes(), src.options().device(dst.device()));
  auto write = non_blocking ? &mojo_write_async : &mojo_write;
  check(write(reinterpret_cast<uint64_t>(staged.data_ptr()), host.const_data_ptr(), host.nbytes()));
  if (!direct) {
    auto d = describe(dst), s = describe(staged);
    check(mojo_copy(&d, &s));
  }
}

// Device to host: convert and gather on the device, download, then place on the host.
// `non_blocking` into pinned memory returns before the copy ends; synchronise before reading.
void download(const at::Tensor& src, const at::Tensor& dst, bool non_blocking) {
  at::Tensor staged = src;
  if (!src.is_contiguous() || src.scalar_type() != dst.scalar_type()) {
    staged = at::empty(src.sizes(), src.options().dtype(dst.scalar_type()));
    auto d = describe(staged), s = describe(src);
    check(mojo_copy(&d, &s));
  }
  bool direct = dst.is_contiguous() && dst.sizes() == src.sizes();
  at::Tensor host = direct ? dst : at::empty(src.sizes(), dst.options());
  auto read = non_blocking && direct ? &mojo_read_async : &mojo_read;
  check(read(reinterpret_cast<uint64_t>(staged.const_data_ptr()), host.mutable_data_ptr(),
             host.nbytes()));
  if (!direct) dst.copy_(host);
}

at::Tensor copy_from(const at::Tensor& src, const at::Tensor& dst, bool non_blocking) {
  if (dst.numel() == 0) return dst;
  bool src_mojo = src.device().type() == kMojo, dst_mojo = dst.device().type() == kMojo;
  if (src_mojo && dst_mojo) {
    if (src.device() == dst.device()) {
      c10::DeviceGuard guard(dst.device());
      auto d = describe(dst), s = describe(src);
      check(mojo_copy(&d, &s));
    } else {
      dst.copy_(src.cpu());
    }
  } else if (dst_mojo && src.is_cpu()) {
    c10::DeviceGuard guard(dst.device());
    upload(src, dst, non_blocking);
  } else if (src_mojo && dst.is_cpu()) {
    c10::DeviceGuard guard(src.device());
    download(src, dst, non_blocking);
  } else {
    unsupported_copy(src, dst);
  }
  return dst;
}

at::Tensor& fill_scalar(at::Tensor& self, const at::Scalar& value) {
  c10::DeviceGuard guard(self.device());
  auto t = describe(self);
  auto v = describe(value);
  check(mojo_fill(&t, &v));
  return self;
}

at::Tensor& zero(at::Tensor& self) { return fill_scalar(self, 0); }

template <typename T>
T read_one(const at::Tensor& self) {
  T value;
  check(mojo_read(reinterpret_cast<uint64_t>(self.const_data_ptr()), &value, sizeof(T)));
  return value;
}

at::Scalar local_scalar_dense(const at::Tensor& self) {
  TORCH_CHECK(self.numel() > 0, "a Tensor with 0 elements cannot be converted to Scalar");
  c10::DeviceGuard guard(self.device());
  return AT_DISPATCH_V2(self.scalar_type(), "_local_scalar_dense", AT_WRAP([&] {
    return at::Scalar(read_one<scalar_t>(self));
  }), AT_EXPAND(AT_ALL_TYPES_AND_COMPLEX), at::kBool, at::kHalf, at::kBFloat16, AT_EXPAND(AT_BAREBONES_UNSIGNED_TYPES),
      AT_EXPAND(AT_FLOAT8_TYPES));
}

// The block stays valid for `stream`'s work: the allocator keeps it from reuse until then.
void record_stream(at::Tensor& self, c10::Stream stream) {
  static_cast<c10::DeviceAllocator*>(device_allocator())
      ->recordStream(self.storage().data_ptr(), stream);
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("record_stream", TORCH_FN(record_stream));
  m.impl("empty.memory_format", TORCH_FN(empty));
  m.impl("empty_strided", TORCH_FN(empty_strided));
  m.impl("as_strided", TORCH_FN(at::native::as_strided_tensorimpl));
  m.impl("view", TORCH_FN(at::native::view));
  m.impl("_reshape_alias", TORCH_FN(at::native::_reshape_alias));
  m.impl("unfold", TORCH_FN(at::native::unfold));
  m.impl("resize_", TORCH_FN(resize_));
  m.impl("set_.source_Storage", TORCH_FN(set_source_storage));
  m.impl("set_.source_Storage_storage_offset", TORCH_FN(set_storage));
  m.impl("set_.source_Tensor", TORCH_FN(set_source_tensor));
  m.impl("set_", TORCH_FN(set_empty));
  m.impl("_copy_from", TORCH_FN(copy_from));
  m.impl("fill_.Scalar", TORCH_FN(fill_scalar));
  m.impl("zero_", TORCH_FN(zero));
  m.impl("_local_scalar_dense", TORCH_FN(local_scalar_dense));
}

}  // namespace
}  // namespace mojo
