#pragma once

// Test support for IcebergSource without the runtime: fake enumerator and reader contexts, an
// output that keeps what it is given, a harness that drives one enumerator and N readers on the
// calling thread (checkpoints taken between two steps, as the runtime's valve makes them
// consistent), and a table in a hadoop catalog written with real Parquet files.

#include <gtest/gtest.h>

#include <any>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "floe/batch/value.h"
#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/spec/partition_spec.h"
#include "floe/stream/iceberg/table_loader.h"
#include "floe/stream/source.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/table.h"
#include "floe/testing/testing.h"

namespace floe::stream::test {

class CollectingOutput final : public Output {
 public:
  Status Emit(RecordBatch batch) override {
    batches.push_back(std::move(batch));
    return Ok();
  }
  Status EmitMessage(Message, int) override { return Unsupported("sources emit no messages"); }
  std::vector<RecordBatch> batches;
};

// Runs a source's enumerator and readers step by step.
class SourceHarness final : public SplitEnumeratorContext {
 public:
  SourceHarness(Source& source, int parallelism) : source_(source), parallelism_(parallelism) {}

  // Restored state: the enumerator's, and reader entries dealt round-robin (operator.h's rule).
  Status Start(std::optional<std::string> enumerator_state = std::nullopt,
               const std::vector<std::string>& reader_entries = {}) {
    FLOE_ASSIGN_OR_RETURN(enumerator_, source_.CreateEnumerator());
    subtasks_.clear();
    for (int i = 0; i < parallelism_; ++i) {
      auto sub = std::make_unique<Subtask>();
      sub->harness = this;
      sub->index = i;
      FLOE_ASSIGN_OR_RETURN(sub->reader, source_.CreateReader(i));
      subtasks_.push_back(std::move(sub));
    }
    for (int i = 0; i < parallelism_; ++i) {
      OperatorContext context;
      context.job_name = "test";
      context.operator_name = "source";
      context.subtask_index = i;
      context.parallelism = parallelism_;
      for (size_t e = static_cast<size_t>(i); e < reader_entries.size();
           e += static_cast<size_t>(parallelism_)) {
        context.restored_state.push_back(reader_entries[e]);
      }
      FLOE_RETURN_IF_ERROR(subtasks_[i]->reader->Open(context, *subtasks_[i]));
    }
    FLOE_RETURN_IF_ERROR(enumerator_->Start(*this, std::move(enumerator_state)));
    return Ok();
  }

  // One round: deliver what the enumerator sent, hand on requests, poll each live reader once.
  // Returns whether any reader emitted or received something.
  Result<bool> Step() {
    bool progress = false;
    for (auto& sub : subtasks_) {
      if (sub->ended) continue;
      if (!sub->inbox.empty()) {
        sub->reader->AddSplits(std::move(sub->inbox));
        sub->inbox.clear();
        progress = true;
      }
      if (sub->no_more) sub->reader->NotifyNoMoreSplits();
    }
    for (int subtask : std::exchange(requests_, {})) {
      FLOE_RETURN_IF_ERROR(enumerator_->HandleSplitRequest(subtask));
      progress = true;
    }
    for (auto& sub : subtasks_) {
      if (sub->ended) continue;
      const size_t before = output.batches.size();
      FLOE_ASSIGN_OR_RETURN(PollStatus status, sub->reader->PollNext(output));
      if (status == PollStatus::kEnd) sub->ended = true;
      progress |= output.batches.size() != before || status != PollStatus::kNothingNow;
    }
    return progress || !requests_.empty();
  }

  // Steps until nothing moves (streaming: until the next discovery is needed).
  Status RunUntilIdle(int max_steps = 100'000) {
    for (int i = 0; i < max_steps; ++i) {
      FLOE_ASSIGN_OR_RETURN(bool progress, Step());
      if (!progress) return Ok();
    }
    return InternalError("the source did not settle in {} steps", max_steps);
  }

  Status Tick(int64_t now_ms) { return enumerator_->Tick(now_ms); }

  bool all_ended() const {
    for (const auto& sub : subtasks_) {
      if (!sub->ended) return false;
    }
    return true;
  }

  struct Checkpoint {
    std::string enumerator;
    std::vector<std::string> readers;  // every subtask's entries
  };
  // The enumerator first, then the readers, with nothing delivered in between.
  Result<Checkpoint> TakeCheckpoint(int64_t id) {
    Checkpoint cp;
    FLOE_ASSIGN_OR_RETURN(cp.enumerator, enumerator_->SnapshotState(id));
    // Splits the enumerator assigned are not in its state: deliver them first, so that the
    // readers' state holds them (the runtime's valve does the same).
    for (auto& sub : subtasks_) {
      if (!sub->inbox.empty()) {
        sub->reader->AddSplits(std::move(sub->inbox));
        sub->inbox.clear();
      }
    }
    for (auto& sub : subtasks_) {
      FLOE_ASSIGN_OR_RETURN(auto entries, sub->reader->SnapshotState(id));
      for (auto& e : entries) cp.readers.push_back(std::move(e));
    }
    return cp;
  }

  SplitEnumerator& enumerator() { return *enumerator_; }

  // SplitEnumeratorContext
  int parallelism() const override { return parallelism_; }
  std::vector<int> WaitingReaders() const override { return {}; }
  void AssignSplits(int subtask, std::vector<std::any> splits) override {
    for (auto& s : splits) subtasks_[subtask]->inbox.push_back(std::move(s));
  }
  void SignalNoMoreSplits(int subtask) override { subtasks_[subtask]->no_more = true; }

  CollectingOutput output;

 private:
  struct Subtask final : SourceReaderContext {
    void RequestSplit() override { harness->requests_.push_back(index); }
    SourceHarness* harness = nullptr;
    int index = 0;
    std::unique_ptr<SourceReader> reader;
    std::vector<std::any> inbox;
    bool no_more = false;
    bool ended = false;
  };

  Source& source_;
  int parallelism_;
  std::unique_ptr<SplitEnumerator> enumerator_;
  std::vector<std::unique_ptr<Subtask>> subtasks_;
  std::vector<int> requests_;
};

// (row kind symbol, id) of every row, as "+I 5", sorted: a multiset to compare.
inline std::multiset<std::string> KindsAndIds(const std::vector<RecordBatch>& batches,
                                              std::string_view id_column = "id") {
  std::multiset<std::string> out;
  for (const RecordBatch& batch : batches) {
    int index = batch.schema()->FindFieldIndex(id_column);
    EXPECT_GE(index, 0);
    if (index < 0) continue;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      Value v = GetValue(batch.column(index), r);
      out.insert(std::string(RowKindSymbol(batch.row_kind(r))) + " " +
                 std::to_string(v.get<int64_t>()));
    }
  }
  return out;
}

// KindsAndIds of every row a scan plans, read through the table layer's own reader.
inline std::multiset<std::string> ScannedKindsAndIds(table::TableScan& scan,
                                                     const std::shared_ptr<io::FileIO>& io) {
  auto tasks = scan.PlanTasks();
  EXPECT_TRUE(tasks) << tasks.error().ToString();
  if (!tasks) return {};
  table::TaskReader reader(io, *scan.schema(), *scan.ProjectedSchema());
  std::vector<RecordBatch> batches;
  for (const auto& group : *tasks) {
    auto status = reader.Read(group, [&](RecordBatch b) {
      batches.push_back(std::move(b));
      return Ok();
    });
    EXPECT_TRUE(status) << status.error().ToString();
  }
  return KindsAndIds(batches);
}

// A table db.events (1 id long required, 2 data string, 3 category string), partitioned by
// identity(category), in a hadoop catalog under a temp folder; data files are real Parquet.
struct EventsTable {
  floe::testing::TempDir dir;
  TableLoader loader = TableLoader::FromCatalog(
      "lake", {{"catalog-type", "hadoop"}, {"warehouse", (dir.path() / "warehouse").string()}},
      catalog::TableIdentifier{{{"db"}}, "events"});
  std::shared_ptr<table::Table> table;
  BatchSchemaPtr batch_schema = std::make_shared<const BatchSchema>(
      std::vector<Field>{{"id", DataType::Int64(), false, 1},
                         {"data", DataType::String(), true, 2},
                         {"category", DataType::String(), true, 3}});
  int files = 0;

  Status Create() {
    FLOE_ASSIGN_OR_RETURN(auto catalog, loader.LoadCatalog());
    FLOE_RETURN_IF_ERROR(catalog->CreateNamespace({{"db"}}, {}));
    catalog::CreateTableRequest request;
    request.schema = std::make_shared<Schema>(std::vector<NestedField>{
        types::Required(1, "id", types::Long()), types::Optional(2, "data", types::String()),
        types::Optional(3, "category", types::String())});
    request.spec = std::make_shared<PartitionSpec>(
        0, std::vector<PartitionField>{PartitionField{.source_ids = {3},
                                                      .field_id = 1000,
                                                      .name = "category",
                                                      .transform = Transform::Identity()}});
    request.properties = {{"format-version", "2"}};
    FLOE_RETURN_IF_ERROR(
        catalog->CreateTable(catalog::TableIdentifier{{{"db"}}, "events"}, request));
    FLOE_ASSIGN_OR_RETURN(table, loader.Load());
    return Ok();
  }

  std::string NewPath(std::string_view kind) {
    return (dir.path() / "warehouse/db/events/data" /
            (std::string(kind) + "-" + std::to_string(files++) + ".parquet"))
        .string();
  }

  // A Parquet data file of rows with ids [from, to], data "v<id>", all in `category`.
  Result<manifest::DataFile> DataFile(int64_t from, int64_t to, std::string category) {
    std::vector<Value> ids, data, cats;
    for (int64_t id = from; id <= to; ++id) {
      ids.emplace_back(id);
      data.emplace_back("v" + std::to_string(id));
      cats.emplace_back(category);
    }
    FLOE_ASSIGN_OR_RETURN(Array a, MakeArray(DataType::Int64(), ids));
    FLOE_ASSIGN_OR_RETURN(Array b, MakeArray(DataType::String(), data));
    FLOE_ASSIGN_OR_RETURN(Array c, MakeArray(DataType::String(), cats));
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(batch_schema, {a, b, c}));
    FLOE_ASSIGN_OR_RETURN(manifest::DataFile file, Write(NewPath("data"), batch));
    file.partition = {Literal::String(category)};
    return file;
  }

  // A position delete file removing rows `positions` of data_file.
  Result<manifest::DataFile> PositionDeletes(const manifest::DataFile& data_file,
                                             std::vector<int64_t> positions) {
    auto schema = std::make_shared<const BatchSchema>(
        std::vector<Field>{{"file_path", DataType::String(), false, 2147483546},
                           {"pos", DataType::Int64(), false, 2147483545}});
    std::vector<Value> paths, pos;
    for (int64_t p : positions) {
      paths.emplace_back(data_file.file_path);
      pos.emplace_back(p);
    }
    FLOE_ASSIGN_OR_RETURN(Array a, MakeArray(DataType::String(), paths));
    FLOE_ASSIGN_OR_RETURN(Array b, MakeArray(DataType::Int64(), pos));
    FLOE_ASSIGN_OR_RETURN(RecordBatch batch, RecordBatch::Make(schema, {a, b}));
    FLOE_ASSIGN_OR_RETURN(manifest::DataFile file, Write(NewPath("pos-deletes"), batch));
    file.content = manifest::FileContent::kPositionDeletes;
    file.partition = data_file.partition;
    file.referenced_data_file = data_file.file_path;
    return file;
  }

  Result<manifest::DataFile> Write(const std::string& path, const RecordBatch& batch) {
    FLOE_ASSIGN_OR_RETURN(auto out, table->io()->NewOutputFile(path));
    FLOE_ASSIGN_OR_RETURN(auto file, out->Create());
    FLOE_ASSIGN_OR_RETURN(auto writer,
                          parquet::ParquetWriter::Make(std::move(file), batch.schema(), {}));
    FLOE_RETURN_IF_ERROR(writer->Write(batch));
    FLOE_ASSIGN_OR_RETURN(auto result, writer->Close());
    manifest::DataFile f;
    f.file_path = path;
    f.file_format = "parquet";
    f.record_count = result.row_count;
    f.file_size_in_bytes = result.file_size;
    f.split_offsets = result.split_offsets;
    return f;
  }
};

}  // namespace floe::stream::test
