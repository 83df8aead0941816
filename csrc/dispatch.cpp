// One boxed kernel serves every op the Rust core implements: it describes the stack's arguments,
// runs the Rust op by number and pushes what the op returns. Ops are registered by name from
// the Rust op table, so adding an op needs no C++.
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/native/Resize.h>
#include <torch/library.h>

#include <cstring>

#include "mojo.h"

namespace mojo {
namespace {

constexpr auto kMojo = c10::DeviceType::PrivateUse1;

// What one call keeps alive while Rust reads its arguments. The list vectors are reserved
// for one list per argument at the first list, so the pointers handed to Rust stay valid.
struct CallState {
  explicit CallState(size_t nargs) : nargs(nargs) {}
  template <typename T>
  T& next(std::vector<T>& lists) {
    if (lists.capacity() == 0) lists.reserve(nargs);
    return lists.emplace_back();
  }
  size_t nargs;
  torch::jit::Stack* stack = nullptr;
  size_t first = 0;
  std::vector<at::Tensor> created;
  std::vector<std::vector<int64_t>> int_lists;
  std::vector<std::vector<double>> double_lists;
  std::vector<std::vector<at::Tensor>> tensor_lists;
  std::vector<std::vector<MojoTensor>> described_lists;
};

int64_t to_int(const c10::IValue& v) {
  return v.isSymInt() ? v.toSymInt().expect_int() : v.toInt();
}

MojoValue describe_value(CallState& state, const c10::IValue& v) {
  MojoValue out{};
  if (v.isNone() || (v.isTensor() && !v.toTensor().defined())) {
    out.kind = kValueNone;
  } else if (v.isTensor()) {
    const at::Tensor& t = v.toTensor();
    out.kind = kValueTensor;
    out.tensor = describe(t);
    out.wrapped = t.unsafeGetTensorImpl()->is_wrapped_number() ? 1 : 0;
  } else if (v.isBool()) {
    out.kind = kValueBool, out.i = v.toBool() ? 1 : 0;
  } else if (v.isInt() || v.isSymInt()) {
    out.kind = kValueInt, out.i = to_int(v);
  } else if (v.isDouble()) {
    out.kind = kValueDouble, out.d = v.toDouble();
  } else if (v.isComplexDouble()) {
    out.kind = kValueComplex;
    out.d = v.toComplexDouble().real(), out.i = c10::bit_cast<int64_t>(v.toComplexDouble().imag());
  } else if (v.isString()) {
    out.kind = kValueString, out.string = v.toStringRef().c_str();
  } else if (v.isIntList()) {
    auto& ints = state.next(state.int_lists) = v.toIntVector();
    out.kind = kValueIntList, out.ints = ints.data();
    out.len = static_cast<int64_t>(ints.size());
  } else if (v.isList()) {
    auto list = v.toListRef();
    bool numbers = !list.empty() && (list[0].isInt() || list[0].isSymInt() || list[0].isBool());
    bool has_double = false;
    for (const auto& e : list) has_double = has_double || e.isDouble();
    if (has_double) {
      // float[] and Scalar[] holding a float: every entry as a double.
      auto& doubles = state.next(state.double_lists);
      for (const auto& e : list) doubles.push_back(e.isDouble() ? e.toDouble() : static_cast<double>(to_int(e)));
      out.kind = kValueDoubleList, out.doubles = doubles.data();
      out.len = static_cast<int64_t>(doubles.size());
    } else if (numbers) {
      // int[], SymInt[] and bool[] (as 0 and 1).
      auto& ints = state.next(state.int_lists);
      for (const auto& e : list) ints.push_back(e.isBool() ? int64_t{e.toBool()} : to_int(e));
      out.kind = kValueIntList, out.ints = ints.data();
      out.len = static_cast<int64_t>(ints.size());
    } else {
      auto& keep = state.next(state.tensor_lists);
      auto& described = state.next(state.described_lists);
      for (const auto& e : list) {
        if (e.isTensor() && e.toTensor().defined()) {
          keep.push_back(e.toTensor());
          described.push_back(describe(keep.back()));
        } else {
          described.push_back(MojoTensor{0, nullptr, nullptr, -1, 0, 0});  // None (ndim -1)
        }
      }
      out.kind = kValueTensorList, out.tensors = described.data();
      out.len = static_cast<int64_t>(described.size());
    }
  } else {
    out.kind = kValueOther;
  }
  return out;
}

int resize_argument(void* ctx, int64_t index, const int64_t* sizes, int64_t ndim, MojoTensor* out) {
  return guarded(1, [&] {
    auto& state = *static_cast<CallState*>(ctx);
    at::Tensor& t = (*state.stack)[state.first + index].toTensor();
    at::native::resize_output(t, c10::IntArrayRef(sizes, ndim));
    *out = describe(t);
    return 0;
  });
}

int create_tensor(void* ctx, const int64_t* sizes, int64_t ndim, int32_t dtype, int32_t device,
                  const int64_t* order, MojoTensor* out) {
  return guarded(-1, [&] {
    auto& state = *static_cast<CallState*>(ctx);
    auto options = at::TensorOptions()
                       .dtype(static_cast<at::ScalarType>(dtype))
                       .device(c10::Device(kMojo, static_cast<c10::DeviceIndex>(device)));
    if (order == nullptr) {
      state.created.push_back(at::empty(c10::IntArrayRef(sizes, ndim), options));
    } else {
      std::vector<int64_t> physical(ndim), logical(ndim);
      for (int64_t i = 0; i < ndim; ++i) {
        physical[i] = sizes[order[i]];
        logical[order[i]] = i;
      }
      state.created.push_back(at::empty(physical, options).permute(logical));
    }
    *out = describe(state.created.back());
    return static_cast<int>(state.created.size()) - 1;
  });
}

int philox_argument(void* ctx, int64_t index, int32_t device, uint64_t increment, uint64_t* seed,
                    uint64_t* offset) {
  return guarded(-1, [&] {
    auto& state = *static_cast<CallState*>(ctx);
    const c10::IValue& v = (*state.stack)[state.first + index];
    std::optional<at::Generator> generator;
    if (v.isGenerator()) generator = v.toGenerator();
    std::tie(*seed, *offset) = philox_inputs(generator, static_cast<c10::DeviceIndex>(device), increment);
    return 0;
  });
}

// A kernel functor bound to one entry of the Rust op table.
class RustOp final : public c10::OperatorKernel {
 public:
  explicit RustOp(int32_t id) : id_(id) {}

  void operator()(const c10::OperatorHandle& op, c10::DispatchKeySet, torch::jit::Stack* stack) {
    const size_t nargs = op.schema().arguments().size();
    CallState state(nargs);
    state.stack = stack;
    state.first = stack->size() - nargs;
    std::vector<MojoValue> args;
    args.reserve(nargs);
    std::optional<c10::Device> device;
    for (size_t i = 0; i < nargs; ++i) {
      c10::IValue& v = (*stack)[state.first + i];
      // Kernels read stored values: an input with the conjugate/negative bit is resolved first.
      if (v.isTensor() && v.toTensor().defined() && (v.toTensor().is_conj() || v.toTensor().is_neg())) {
        const auto& alias = op.schema().arguments()[i].alias_info();
        TORCH_CHECK_NOT_IMPLEMENTED(!alias || !alias->isWrite(), "mojo: ", op.schema().name(),
                                    " cannot write into a tensor with the conjugate or negative bit set");
        v = v.toTensor().resolve_conj().resolve_neg();
      }
      if (!device && v.isTensor() && v.toTensor().defined() && v.toTensor().device().type() == kMojo) {
        device = v.toTensor().device();
      }
      args.push_back(describe_value(state, v));
    }
    c10::OptionalDeviceGuard guard(device);
    int32_t results[kMaxResults];
    int64_t count = 0;
    check(mojo_run_op(id_, args.data(), static_cast<int64_t>(nargs), &state, &resize_argument,
                      &create_tensor, &philox_argument, results, &count));
    std::vector<c10::IValue> returned;
    const auto& returns = op.schema().returns();
    if (returns.size() == 1 && returns[0].type()->kind() == c10::TypeKind::ListType) {
      // A Tensor[] result: every tensor the op created, in order.
      c10::List<at::Tensor> list;
      for (const auto& t : state.created) list.push_back(t);
      torch::jit::drop(*stack, nargs);
      stack->emplace_back(std::move(list));
      return;
    }
    for (int64_t r = 0; r < count; ++r) {
      int32_t ref = results[r];
      const auto kind = static_cast<size_t>(r) < returns.size() ? returns[r].type()->kind() : c10::TypeKind::TensorType;
      if (kind == c10::TypeKind::IntType || kind == c10::TypeKind::SymIntType) {
        returned.emplace_back(static_cast<int64_t>(ref));
      } else if (ref == kUndefinedResult) {
        returned.emplace_back(at::Tensor());
      } else if (ref >= 0) {
        // Moved when no later result names it (a copy takes the GIL to reference its PyObject).
        auto& arg = (*stack)[state.first + ref];
        returned.push_back(std::find(results + r + 1, results + count, ref) != results + count ? arg : std::move(arg));
      } else {
        returned.emplace_back(state.created[static_cast<size_t>(-ref - 1)]);
      }
    }
    torch::jit::drop(*stack, nargs);
    for (auto& v : returned) stack->push_back(std::move(v));
  }

 private:
  int32_t id_;
};

// Registers the table's ops: those named "mojo::..." in the mojo library, the rest in aten.
void register_ops(torch::Library& m, bool own) {
  for (int32_t id = 0; id < mojo_op_count(); ++id) {
    const char* name = mojo_op_name(id);
    if ((std::strncmp(name, "mojo::", 6) == 0) != own) continue;
    m.impl(own ? name + 6 : name, torch::CppFunction::makeFromBoxedFunctor(std::make_unique<RustOp>(id)));
  }
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) { register_ops(m, false); }

// The ops mojo defines itself; their schemas stand beside their Rust code (src/ffi/dispatch.rs).
TORCH_LIBRARY(mojo, m) {
  for (int32_t i = 0; const char* schema = mojo_own_schema(i); ++i) m.def(schema);
}

TORCH_LIBRARY_IMPL(mojo, PrivateUse1, m) { register_ops(m, true); }

}  // namespace
}  // namespace mojo
