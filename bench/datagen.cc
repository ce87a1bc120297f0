// How fast the datagen source generates rows: one reader polling batches of the events shape (id
// long sequence, ts timestamp, user string(8), kind int, amount double) into an output that drops
// them. Rows per second of one subtask, unthrottled (rows-per-second 0).

#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "floe/stream/connectors/datagen_source.h"

namespace floe::stream {
namespace {

class DroppingOutput : public Output {
 public:
  Status Emit(RecordBatch batch) override {
    rows += batch.num_rows();
    return Ok();
  }
  Status EmitMessage(Message, int) override { return Ok(); }
  int64_t rows = 0;
};

class NoRequests : public SourceReaderContext {
 public:
  void RequestSplit() override {}
};

void BM_DatagenEvents(benchmark::State& state) {
  auto schema = std::make_shared<BatchSchema>(std::vector<Field>{
      {"id", DataType::Int64()},
      {"ts", DataType::Timestamp(TimeUnit::kMicro, false)},
      {"user", DataType::String()},
      {"kind", DataType::Int32()},
      {"amount", DataType::Float64()},
  });
  std::map<std::string, std::string> options{{"rows-per-second", "0"},
                                             {"batch-size", std::to_string(state.range(0))},
                                             {"fields.id.kind", "sequence"},
                                             {"fields.id.start", "0"},
                                             {"fields.id.end", "4611686018427387904"},
                                             {"fields.user.length", "8"},
                                             {"fields.kind.min", "0"},
                                             {"fields.kind.max", "9"},
                                             {"fields.amount.min", "0"},
                                             {"fields.amount.max", "1000"}};
  auto source = DatagenSource::Make(schema, options);
  if (!source) {
    state.SkipWithError(source.error().ToString().c_str());
    return;
  }
  auto reader = (*source)->CreateReader(0);
  NoRequests requests;
  OperatorContext context;
  if (!reader || !(*reader)->Open(context, requests)) {
    state.SkipWithError("cannot open the reader");
    return;
  }
  DroppingOutput output;
  for (auto _ : state) {
    auto polled = (*reader)->PollNext(output);
    if (!polled) {
      state.SkipWithError(polled.error().ToString().c_str());
      return;
    }
  }
  state.SetItemsProcessed(output.rows);
}
BENCHMARK(BM_DatagenEvents)->Arg(4096)->Arg(65536);

}  // namespace
}  // namespace floe::stream
