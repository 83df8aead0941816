// Device rows in torch.profiler: a kineto activity profiler whose sessions ask the runtime
// (src/runtime/trace.rs) to bracket every kernel with timed events while they record, then
// hand kineto one kernel activity per launch, on the host clock, linked to the op that issued
// it. torch 2.12 and newer take it through PyTorch's PrivateUse1 profiler registry; older
// versions through kineto's child-profiler factory, which the registry forwards to.
#include <c10/util/ApproximateClock.h>
#include <kineto/libkineto.h>
#include <kineto/output_base.h>
#include <torch/version.h>

#if TORCH_VERSION_MINOR >= 12
#ifndef USE_KINETO
#define USE_KINETO
#endif
#include <torch/csrc/profiler/standalone/privateuse1_profiler.h>
#endif

#include <map>

#include "mojo.h"

namespace mojo {
namespace {

using libkineto::ActivityType;

class MojoProfilerSession final : public libkineto::IActivityProfilerSession {
 public:
  // A session dropped without being stopped must not leave launches bracketed.
  ~MojoProfilerSession() override { mojo_trace_stop(); }

  void start() override {
    span_start_ = c10::getTime();
    if (mojo_trace_start() != kStatusOk) errors_.emplace_back(mojo_last_error());
    status_ = libkineto::TraceStatus::RECORDING;
  }

  void stop() override {
    mojo_trace_stop();
    span_end_ = c10::getTime();
    status_ = libkineto::TraceStatus::PROCESSING;
  }

  std::vector<std::string> errors() override { return errors_; }

  void processTrace(libkineto::ActivityLogger& logger) override {
    processTrace(logger, [](int32_t) { return nullptr; }, 0, 0);
  }

  // One kernel activity per launch, linked to the profiled op whose correlation id it carries.
  void processTrace(libkineto::ActivityLogger& logger,
                    libkineto::getLinkedActivityCallback linked_activity, int64_t,
                    int64_t) override {
    buffer_->span = libkineto::TraceSpan(span_start_, span_end_, "mojo");
    Collector collector{this, &linked_activity};
    if (mojo_trace_collect(&collector, &Collector::emit) != kStatusOk) {
      errors_.emplace_back(mojo_last_error());
    }
    buffer_->gpuOpCount = static_cast<int>(buffer_->activities.size());
    for (const auto& activity : buffer_->activities) logger.handleGenericActivity(*activity);
  }

  std::unique_ptr<libkineto::DeviceInfo> getDeviceInfo() override {
    return std::make_unique<libkineto::DeviceInfo>(0, 0, "mojo", "mojo 0");
  }

  std::vector<libkineto::ResourceInfo> getResourceInfos() override {
    std::vector<libkineto::ResourceInfo> rows;
    for (const auto& [key, name] : streams_) {
      rows.emplace_back(key.first, static_cast<int64_t>(key.second),
                        static_cast<int64_t>(key.second), name);
    }
    return rows;
  }

  std::unique_ptr<libkineto::CpuTraceBuffer> getTraceBuffer() override {
    return std::move(buffer_);
  }

  void pushCorrelationId(uint64_t id) override { mojo_trace_push_correlation(id); }
  void popCorrelationId() override { mojo_trace_pop_correlation(); }

 private:
  struct Collector {
    MojoProfilerSession* session;
    libkineto::getLinkedActivityCallback* linked_activity;

    static void emit(void* context, const MojoActivity* a) {
      auto* self = static_cast<Collector*>(context);
      auto& buffer = *self->session->buffer_;
      buffer.emplace_activity(buffer.span, ActivityType::CONCURRENT_KERNEL, a->name);
      auto& activity = *buffer.activities.back();
      activity.startTime = a->start_ns;
      activity.endTime = a->end_ns;
      activity.device = static_cast<int32_t>(a->device);
      activity.resource = static_cast<int32_t>(a->stream);
      activity.id = static_cast<int32_t>(++self->session->next_id_);
      activity.linked = (*self->linked_activity)(static_cast<int32_t>(a->correlation));
      self->session->streams_.emplace(std::make_pair(a->device, a->stream),
                                      "stream " + std::to_string(a->stream));
    }
  };

  int64_t span_start_ = 0, span_end_ = 0;
  int64_t next_id_ = 0;
  std::unique_ptr<libkineto::CpuTraceBuffer> buffer_ =
      std::make_unique<libkineto::CpuTraceBuffer>();
  std::map<std::pair<int64_t, uint64_t>, std::string> streams_;
  std::vector<std::string> errors_;
};

class MojoActivityProfiler final : public libkineto::IActivityProfiler {
 public:
  const std::string& name() const override { return name_; }

  const std::set<ActivityType>& availableActivities() const override { return activities_; }

  std::unique_ptr<libkineto::IActivityProfilerSession> configure(
      const std::set<ActivityType>& requested, const libkineto::Config&) override {
    // Kineto passes its host-side types whatever the user chose; device kernels are asked for
    // only when the user profiles the device.
    if (requested.count(ActivityType::CONCURRENT_KERNEL) == 0) return nullptr;
    return std::make_unique<MojoProfilerSession>();
  }

  std::unique_ptr<libkineto::IActivityProfilerSession> configure(
      int64_t, int64_t, const std::set<ActivityType>& requested,
      const libkineto::Config& config) override {
    return configure(requested, config);
  }

 private:
  std::string name_ = "mojo";
  std::set<ActivityType> activities_ = {ActivityType::PRIVATEUSE1_RUNTIME,
                                        ActivityType::PRIVATEUSE1_DRIVER,
                                        ActivityType::CONCURRENT_KERNEL};
};

#if TORCH_VERSION_MINOR >= 12
REGISTER_PRIVATEUSE1_PROFILER(MojoActivityProfiler);
#else
const bool registered = [] {
  libkineto::api().registerProfilerFactory(
      [] { return std::make_unique<MojoActivityProfiler>(); });
  return true;
}();
#endif

}  // namespace
}  // namespace mojo
