#include "floe/stream/data_stream.h"

#include <chrono>
#include <future>
#include <thread>
#include <utility>

#include "floe/io/local_file_io.h"
#include "floe/stream/checkpoint_storage.h"
#include "floe/stream/collect_sink.h"
#include "floe/stream/job_graph.h"
#include "floe/stream/metrics.h"
#include "floe/stream/runtime/job_run_internal.h"

namespace floe::stream {

DataStream::DataStream(StreamEnvironment* env, int node_id, BatchSchemaPtr schema,
                       Exchange exchange)
    : env_(env), node_id_(node_id), schema_(std::move(schema)), exchange_(std::move(exchange)) {}

int DataStream::parallelism() const { return env_->graph().node(node_id_).parallelism; }

DataStream DataStream::WithExchange(Exchange exchange) const {
  DataStream stream = *this;
  stream.exchange_ = std::move(exchange);
  stream.exchange_set_ = true;
  return stream;
}

DataStream DataStream::Forward() const { return WithExchange({.kind = Exchange::Kind::kForward}); }
DataStream DataStream::Rebalance() const {
  return WithExchange({.kind = Exchange::Kind::kRebalance});
}
DataStream DataStream::KeyBy(std::vector<std::string> key_columns) const {
  return WithExchange({.kind = Exchange::Kind::kHash, .key_columns = std::move(key_columns)});
}
DataStream DataStream::Broadcast() const {
  return WithExchange({.kind = Exchange::Kind::kBroadcast});
}
DataStream DataStream::PartitionCustom(ChannelSelectorFactory selector) const {
  return WithExchange({.kind = Exchange::Kind::kCustom, .selector = std::move(selector)});
}

Exchange DataStream::ExchangeFor(int reader_parallelism) const {
  if (exchange_set_) return exchange_;
  return {.kind = reader_parallelism == parallelism() ? Exchange::Kind::kForward
                                                      : Exchange::Kind::kRebalance};
}

DataStream DataStream::Transform(std::string name, BatchSchemaPtr output_schema,
                                 OperatorFactory factory, int parallelism) const {
  int resolved = env_->ResolveParallelism(parallelism);
  int node =
      env_->graph().AddOperator(std::move(name), output_schema, std::move(factory), resolved);
  env_->graph().Connect(node_id_, node, ExchangeFor(resolved));
  return DataStream(env_, node, std::move(output_schema), {});
}

DataStream DataStream::TransformWith(const std::vector<DataStream>& others, std::string name,
                                     BatchSchemaPtr output_schema, OperatorFactory factory,
                                     int parallelism) const {
  int resolved = env_->ResolveParallelism(parallelism);
  int node =
      env_->graph().AddOperator(std::move(name), output_schema, std::move(factory), resolved);
  env_->graph().Connect(node_id_, node, ExchangeFor(resolved));
  for (const DataStream& other : others) {
    env_->graph().Connect(other.node_id_, node, other.ExchangeFor(resolved));
  }
  return DataStream(env_, node, std::move(output_schema), {});
}

namespace {

class UnionOperator : public Operator {
 public:
  explicit UnionOperator(BatchSchemaPtr schema) : schema_(std::move(schema)) {}
  Status ProcessBatch(int, RecordBatch batch, Output& output) override {
    // The inputs' column names and nullability may differ: the rows take the union's.
    if (batch.schema()->Equals(*schema_)) return output.Emit(std::move(batch));
    std::optional<Buffer> kinds;
    if (batch.has_row_kinds()) {
      std::span<const RowKind> row_kinds = batch.row_kinds();
      kinds = Buffer::CopyOf(row_kinds.data(), std::ssize(row_kinds));
    }
    FLOE_ASSIGN_OR_RETURN(RecordBatch renamed,
                          RecordBatch::Make(schema_, batch.columns(), batch.num_rows(), kinds));
    return output.Emit(std::move(renamed));
  }

 private:
  BatchSchemaPtr schema_;
};

}  // namespace

Result<DataStream> DataStream::Union(const std::vector<DataStream>& others, std::string name,
                                     int parallelism) const {
  for (const DataStream& other : others) {
    if (other.env_ != env_)
      return InvalidArgument("union '{}': a stream of another environment", name);
    const BatchSchema& a = *schema_;
    const BatchSchema& b = *other.schema_;
    bool same = a.num_fields() == b.num_fields();
    for (int i = 0; same && i < a.num_fields(); ++i) {
      same = a.field(i).type->Equals(*b.field(i).type);
    }
    if (!same) {
      return InvalidArgument("union '{}': the inputs' column types differ: ({}) and ({})", name,
                             a.ToString(), b.ToString());
    }
  }
  // Nullability is the union's: a column is nullable when it is in any input.
  std::vector<Field> fields = schema_->fields();
  for (const DataStream& other : others) {
    for (size_t i = 0; i < fields.size(); ++i) {
      fields[i].nullable = fields[i].nullable || other.schema_->field(static_cast<int>(i)).nullable;
    }
  }
  auto schema = std::make_shared<const BatchSchema>(std::move(fields));
  OperatorFactory factory = [schema](int) -> Result<std::unique_ptr<Operator>> {
    return std::make_unique<UnionOperator>(schema);
  };
  return TransformWith(others, std::move(name), schema, std::move(factory), parallelism);
}

void DataStream::SinkTo(std::string name, OperatorFactory factory, int parallelism) const {
  int resolved = env_->ResolveParallelism(parallelism);
  int node = env_->graph().AddOperator(std::move(name), nullptr, std::move(factory), resolved);
  env_->graph().Connect(node_id_, node, ExchangeFor(resolved));
}

StreamEnvironment::StreamEnvironment(ExecutionConfig config)
    : config_(std::move(config)), graph_(std::make_unique<JobGraph>()) {}

StreamEnvironment::~StreamEnvironment() = default;

int StreamEnvironment::ResolveParallelism(int parallelism) const {
  return parallelism == 0 ? config_.parallelism : parallelism;
}

DataStream StreamEnvironment::FromSource(std::shared_ptr<Source> source, std::string name,
                                         int parallelism) {
  BatchSchemaPtr schema = source ? source->schema() : nullptr;
  int node = graph_->AddSource(std::move(name), std::move(source), ResolveParallelism(parallelism));
  return DataStream(this, node, std::move(schema), {});
}

std::shared_ptr<CollectedBatches> StreamEnvironment::Collect(const DataStream& stream,
                                                             std::string name) {
  auto collected = std::make_shared<CollectedBatches>();
  stream.SinkTo(std::move(name), CollectSinkFactory(collected), 1);
  return collected;
}

void StreamEnvironment::Cancel() {
  cancel_requested_ = true;
  std::lock_guard lock(run_mutex_);
  if (run_) run_->Cancel();
}

// The coordinator sees the flag at its next tick.
void StreamEnvironment::Drain() { drain_requested_ = true; }

Result<std::string> StreamEnvironment::TriggerSavepoint(std::string folder) {
  std::future<Result<std::string>> taken;
  {
    // The run may end once the lock is released; the future does not depend on it.
    std::lock_guard lock(run_mutex_);
    if (!run_) return InvalidArgument("no job is running: no savepoint");
    FLOE_ASSIGN_OR_RETURN(taken, run_->RequestSavepoint(std::move(folder)));
  }
  return taken.get();
}

Result<JobResult> StreamEnvironment::Execute(std::string job_name) {
  if (job_name.empty()) return InvalidArgument("the job needs a name");
  FLOE_RETURN_IF_ERROR(graph_->Validate(config_));
  // A Cancel or Drain holds for the Execute it came before or during, not for later ones.
  struct ClearCancel {
    std::atomic<bool>& flag;
    ~ClearCancel() { flag = false; }
  } clear_cancel{cancel_requested_}, clear_drain{drain_requested_};

  io::LocalFileIO io;
  std::unique_ptr<CheckpointStorage> storage;
  std::optional<CompletedCheckpoint> restore;
  // Batch jobs start over: with bounded inputs and no checkpoints, there is nothing to resume.
  if (!config_.checkpoint_dir.empty() && config_.mode == RuntimeMode::kStreaming) {
    FLOE_ASSIGN_OR_RETURN(storage, CheckpointStorage::Open(io, config_.checkpoint_dir, job_name,
                                                           config_.checkpoints_retained));
    if (config_.restore_from) {
      FLOE_ASSIGN_OR_RETURN(restore, storage->Load(*config_.restore_from));
    } else {
      FLOE_ASSIGN_OR_RETURN(restore, storage->LoadLatest());
    }
  }

  metrics_.Clear();
  JobResult result;
  result.job_name = job_name;
  while (true) {
    runtime::JobRun run({.graph = graph_.get(),
                         .config = &config_,
                         .job_name = job_name,
                         .storage = storage.get(),
                         .restore = restore ? &*restore : nullptr,
                         .metrics = &metrics_,
                         .cancel_requested = &cancel_requested_,
                         .drain_requested = &drain_requested_});
    {
      std::lock_guard lock(run_mutex_);
      run_ = &run;
    }
    // A Cancel() that came before run_ was set is seen through cancel_requested_.
    Status status = run.Run();
    {
      std::lock_guard lock(run_mutex_);
      run_ = nullptr;
    }
    result.checkpoints_completed += run.checkpoints_completed();
    if (run.last_completed()) restore = run.last_completed();
    if (status) break;
    if (cancel_requested_) return Cancelled("job '{}' was cancelled", job_name);
    if (result.restarts >= config_.restart.max_attempts) {
      Error error = std::move(status).error();
      error.AddContext(
          fmt::format("job '{}' failed after {} restart(s)", job_name, result.restarts));
      return std::unexpected(std::move(error));
    }
    auto resume_at =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(config_.restart.delay_ms);
    while (std::chrono::steady_clock::now() < resume_at) {
      if (cancel_requested_) return Cancelled("job '{}' was cancelled", job_name);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ++result.restarts;
  }
  result.metrics = metrics_.Snapshot();
  return result;
}

}  // namespace floe::stream
