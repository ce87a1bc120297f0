#pragma once

// Test helpers for the IcebergSink: a table in a hadoop catalog under a temp folder, batches of
// (id, data, category) rows with row kinds, the sink's writer and committer driven through
// OperatorHarness, and the table read back through the table layer's scan and task reader.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/stream/iceberg/sink_committer.h"
#include "floe/stream/iceberg/sink_writer.h"
#include "floe/stream/iceberg/table_loader.h"
#include "floe/stream/operator_test_harness.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/table.h"
#include "floe/testing/peers.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::stream::test {

struct Row {
  int64_t id = 0;
  std::string data;
  std::string category;
  RowKind kind = RowKind::kInsert;
  friend bool operator==(const Row& a, const Row& b) {
    return a.id == b.id && a.data == b.data && a.category == b.category;
  }
  friend bool operator<(const Row& a, const Row& b) {
    return std::tie(a.id, a.data, a.category) < std::tie(b.id, b.data, b.category);
  }
  friend std::ostream& operator<<(std::ostream& os, const Row& r) {
    return os << "{" << r.id << "," << r.data << "," << r.category << "}";
  }
};

// id long (1, the identifier field), data string (2), category string (3).
inline BatchSchemaPtr RowSchema() {
  return std::make_shared<const BatchSchema>(std::vector<Field>{
      Field{"id", DataType::Int64(), false, 1}, Field{"data", DataType::String(), true, 2},
      Field{"category", DataType::String(), true, 3}});
}

inline RecordBatch Batch(const std::vector<Row>& rows) {
  std::vector<Value> ids, data, categories;
  std::string kinds;
  bool changes = false;
  for (const Row& row : rows) {
    ids.emplace_back(row.id);
    data.emplace_back(row.data);
    categories.emplace_back(row.category);
    kinds.push_back(static_cast<char>(row.kind));
    changes |= row.kind != RowKind::kInsert;
  }
  std::optional<Buffer> row_kinds;
  if (changes) row_kinds = Buffer::CopyOf(kinds);
  return RecordBatch::Make(RowSchema(),
                           {MakeArray(DataType::Int64(), ids).value(),
                            MakeArray(DataType::String(), data).value(),
                            MakeArray(DataType::String(), categories).value()},
                           static_cast<int64_t>(rows.size()), std::move(row_kinds))
      .value();
}

class SinkFixture : public ::testing::Test {
 public:
  const catalog::TableIdentifier kIdent{{{"db"}}, "t"};

  std::string warehouse() const { return (dir_.path() / "warehouse").string(); }
  std::string location() const { return warehouse() + "/db/t"; }
  TableLoader Loader() const {
    return TableLoader::FromCatalog(
        "lake", {{"catalog-type", "hadoop"}, {"warehouse", warehouse()}}, kIdent);
  }

  // partition: "" (unpartitioned), "category" (identity) or "id" (bucket 4 of id).
  // identifier: id is the schema's identifier field.
  void CreateTable(std::string partition = "", int format_version = 2, StringMap properties = {},
                   bool identifier = true) {
    auto catalog = Loader().LoadCatalog().value();
    ASSERT_TRUE(catalog->CreateNamespace(kIdent.ns, {}).has_value());
    catalog::CreateTableRequest request;
    using namespace floe::types;
    request.schema = std::make_shared<Schema>(
        std::vector<NestedField>{Required(1, "id", Long()), Optional(2, "data", String()),
                                 Optional(3, "category", String())},
        0, identifier ? std::vector<int32_t>{1} : std::vector<int32_t>{});
    if (partition == "category") {
      request.spec = std::make_shared<PartitionSpec>(
          0, std::vector<PartitionField>{{{3}, 1000, "category", Transform::Identity()}});
    } else if (partition == "id") {
      request.spec = std::make_shared<PartitionSpec>(
          0, std::vector<PartitionField>{{{1}, 1000, "id_bucket", Transform::Bucket(4)}});
    }
    properties["format-version"] = std::to_string(format_version);
    request.properties = std::move(properties);
    auto created = catalog->CreateTable(kIdent, request);
    ASSERT_TRUE(created.has_value()) << created.error().ToString();
  }

  SinkSpec Spec(std::map<std::string, std::string> options = {},
                std::vector<std::string> equality = {}) const {
    return SinkSpec{.loader = Loader(),
                    .options = std::move(options),
                    .equality_columns = std::move(equality),
                    .sink_id = "test-sink"};
  }

  static OperatorContext Context(std::string name, int subtask, int parallelism,
                                 std::vector<std::string> state = {},
                                 std::optional<int64_t> restored = std::nullopt) {
    OperatorContext context;
    context.job_name = "job";
    context.operator_name = std::move(name);
    context.subtask_index = subtask;
    context.parallelism = parallelism;
    context.restored_checkpoint_id = restored;
    context.restored_state = std::move(state);
    return context;
  }

  // `parallelism` opened writer subtasks.
  std::vector<std::unique_ptr<testing::OperatorHarness>> Writers(const SinkSpec& spec,
                                                                 int parallelism) {
    std::vector<std::unique_ptr<testing::OperatorHarness>> out;
    for (int i = 0; i < parallelism; ++i) {
      out.push_back(std::make_unique<testing::OperatorHarness>(
          std::make_unique<IcebergSinkWriter>(spec), Context("writer", i, parallelism)));
      auto opened = out.back()->Open();
      EXPECT_TRUE(opened.has_value()) << opened.error().ToString();
    }
    return out;
  }

  std::unique_ptr<testing::OperatorHarness> Committer(const SinkSpec& spec,
                                                      std::vector<std::string> state = {},
                                                      std::optional<int64_t> restored = {}) {
    auto committer = std::make_unique<testing::OperatorHarness>(
        std::make_unique<IcebergSinkCommitter>(spec),
        Context("committer", 0, 1, std::move(state), restored));
    auto opened = committer->Open();
    EXPECT_TRUE(opened.has_value()) << opened.error().ToString();
    return committer;
  }

  // Barrier `id` through the writers, their files to the committer, and the committer's state.
  static std::vector<std::string> Checkpoint(
      std::vector<std::unique_ptr<testing::OperatorHarness>>& writers,
      testing::OperatorHarness& committer, int64_t id) {
    for (auto& writer : writers) {
      auto state = writer->SnapshotState(id);
      EXPECT_TRUE(state.has_value()) << state.error().ToString();
      for (Message& m : writer->output().TakeMessages()) {
        auto processed = committer.ProcessMessage(std::move(m));
        EXPECT_TRUE(processed.has_value()) << processed.error().ToString();
      }
    }
    auto state = committer.SnapshotState(id);
    EXPECT_TRUE(state.has_value()) << state.error().ToString();
    return state ? *state : std::vector<std::string>{};
  }

  std::shared_ptr<table::Table> Table() const { return Loader().Load().value(); }

  // Every live row of the branch's head, sorted.
  std::vector<Row> ReadTable(const std::string& branch = "main") const {
    auto table = Table();
    table::TableScan scan(table->metadata(), table->io());
    if (branch != "main") scan.UseRef(branch);
    auto tasks = scan.PlanTasks();
    EXPECT_TRUE(tasks.has_value()) << tasks.error().ToString();
    std::vector<Row> rows;
    if (!tasks) return rows;
    table::TaskReader reader(table->io(), scan.schema().value(), scan.ProjectedSchema().value());
    for (const auto& group : *tasks) {
      auto read = reader.Read(group, [&](RecordBatch batch) -> Status {
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          RowView row(batch, i);
          Value data = row.Get("data");
          Value category = row.Get("category");
          rows.push_back(Row{row.Get("id").get<int64_t>(),
                             data.is_null() ? "" : data.get<std::string>(),
                             category.is_null() ? "" : category.get<std::string>()});
        }
        return {};
      });
      EXPECT_TRUE(read.has_value()) << read.error().ToString();
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  // The snapshots of the branch, oldest first.
  std::vector<SnapshotPtr> Snapshots(const std::string& branch = "main") const {
    auto metadata = Table()->metadata();
    std::vector<SnapshotPtr> out;
    const SnapshotRef* ref = metadata->FindRef(branch);
    if (ref == nullptr) return out;
    for (SnapshotPtr s = metadata->SnapshotById(ref->snapshot_id); s != nullptr;
         s = s->parent_snapshot_id ? metadata->SnapshotById(*s->parent_snapshot_id) : nullptr) {
      out.push_back(s);
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

  floe::testing::TempDir dir_;
};

inline std::vector<Row> Sorted(std::vector<Row> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The rows of the table at `location` as ClickHouse reads them (icebergLocal: the hadoop layout,
// with the deletes applied by ClickHouse), sorted.
inline Result<std::vector<Row>> ReadByClickHouse(const std::string& location) {
  FLOE_ASSIGN_OR_RETURN(
      std::string out,
      floe::testing::RunPeer(
          "ch", {"SELECT id, data, category FROM icebergLocal('" + location + "') ORDER BY id",
                 "JSONEachRow"}));
  FLOE_ASSIGN_OR_RETURN(std::vector<Json> lines, floe::testing::ParseJsonLines(out));
  std::vector<Row> rows;
  for (const Json& json : lines) {
    const Json* id = json.Find("id");
    if (id == nullptr) return InternalError("ClickHouse row without id: {}", json.Dump());
    FLOE_ASSIGN_OR_RETURN(std::string data, json.GetString("data"));
    FLOE_ASSIGN_OR_RETURN(std::string category, json.GetString("category"));
    rows.push_back(Row{id->is_string() ? std::stoll(id->as_string()) : id->as_int(),
                       std::move(data), std::move(category)});
  }
  return Sorted(rows);
}

}  // namespace floe::stream::test
