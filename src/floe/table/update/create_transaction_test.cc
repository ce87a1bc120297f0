// Create-table-as-transaction (Transaction::ForCreate) end to end, through the catalogs that
// take create commits: the table's schema, spec, properties and its first append land in one
// commit, and loading the table afresh and scanning it gives back the rows written.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/batch/value.h"
#include "floe/catalog/catalog.h"
#include "floe/catalog/new_table.h"
#include "floe/io/location.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/table.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/transaction.h"
#include "floe/table/write/fanout_writer.h"
#include "floe/table/write/location_provider.h"
#include "floe/table/write/metrics_config.h"
#include "floe/table/write/output_file_factory.h"
#include "floe/table/write/write_properties.h"
#include "floe/testing/testing.h"
#include "floe/util/clock.h"

namespace floe::table {
namespace {

struct Backend {
  std::string name;
  // The catalog's properties, given the temp folder.
  StringMap (*properties)(const std::string& dir);
};

class CreateTransactionTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    auto catalog = catalog::CreateCatalog("c", GetParam().properties(dir_.path().string()));
    ASSERT_TRUE(catalog) << catalog.error().ToString();
    catalog_ = *catalog;
    FLOE_ASSERT_OK(catalog_->CreateNamespace(ident_.ns, {}));
  }

  // The metadata of the new table, as create-table would make it: ids assigned, partitioned by
  // identity(category), with a property.
  TableMetadataPtr Initial() {
    using namespace types;
    catalog::CreateTableRequest request;
    request.schema = std::make_shared<Schema>(
        std::vector<NestedField>{Required(1, "id", Long()), Optional(2, "category", String())});
    request.spec = std::make_shared<PartitionSpec>(
        0, std::vector<PartitionField>{{.source_ids = {2},
                                        .field_id = PartitionSpec::kFirstFieldId,
                                        .name = "category",
                                        .transform = Transform::Identity()}});
    request.properties = {{"format-version", "2"}, {"owner", "ctas"}};
    auto metadata = catalog::NewTableMetadata(
        request, io::JoinLocation(dir_.path().string() + "/wh", "db/t"), NowMs());
    EXPECT_TRUE(metadata) << metadata.error().ToString();
    return *metadata;
  }

  // Writes rows (id, category) into the table's data folder, partitioned as metadata says.
  std::vector<manifest::DataFile> Write(const TableMetadata& metadata,
                                        const std::vector<std::pair<int64_t, std::string>>& rows) {
    SchemaPtr schema = metadata.current_schema();
    auto fields = ToBatchFields(*schema);
    EXPECT_TRUE(fields);
    auto batch_schema = std::make_shared<const BatchSchema>(*fields);
    // The writers take the properties as a plain map.
    const std::map<std::string, std::string> properties(metadata.properties().begin(),
                                                        metadata.properties().end());
    WriteProperties write = *WriteProperties::Parse(properties);
    OutputFileFactory files(LocationProvider(metadata.location(), properties),
                            OutputFileFactoryOptions{});
    WriterContext context;
    context.io = catalog_->file_io().get();
    context.data_files = &files;
    context.properties = &write;
    context.schema = schema;
    context.batch_schema = batch_schema;
    auto metrics = MetricsConfig::Make(properties, *schema);
    EXPECT_TRUE(metrics.has_value()) << metrics.error().ToString();
    if (metrics) context.metrics = *std::move(metrics);
    context.spec = metadata.default_spec();
    std::vector<Value> ids, categories;
    for (const auto& [id, category] : rows) {
      ids.emplace_back(id);
      categories.emplace_back(category);
    }
    auto batch = RecordBatch::Make(batch_schema, {*MakeArray(DataType::Int64(), ids),
                                                  *MakeArray(DataType::String(), categories)});
    EXPECT_TRUE(batch);
    auto writer = FanoutWriter::Make(context);
    EXPECT_TRUE(writer);
    FLOE_EXPECT_OK((*writer)->Write(*batch));
    auto result = (*writer)->Close();
    EXPECT_TRUE(result);
    return result->data_files;
  }

  // The table's rows as "id:category", sorted, read through a fresh load.
  std::vector<std::string> Scan() {
    catalog_->Invalidate(ident_);
    auto table = Table::Load(catalog_, ident_);
    EXPECT_TRUE(table) << table.error().ToString();
    if (!table) return {};
    TableMetadataPtr metadata = (*table)->metadata();
    TableScan scan(metadata, (*table)->io());
    auto tasks = scan.PlanTasks();
    EXPECT_TRUE(tasks) << tasks.error().ToString();
    TaskReader reader((*table)->io(), metadata->current_schema(), metadata->current_schema());
    std::vector<std::string> rows;
    for (const auto& group : *tasks) {
      FLOE_EXPECT_OK(reader.Read(group, [&](RecordBatch batch) -> Status {
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          rows.push_back(std::to_string(batch.column(0).Value<int64_t>(i)) + ":" +
                         std::string(batch.column(1).GetView(i)));
        }
        return Ok();
      }));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  floe::testing::TempDir dir_;
  std::shared_ptr<catalog::Catalog> catalog_;
  catalog::TableIdentifier ident_{catalog::Namespace{{"db"}}, "t"};
};

TEST_P(CreateTransactionTest, SchemaSpecPropertiesAndFirstAppendInOneCommit) {
  TableMetadataPtr initial = Initial();
  Table table(catalog_, catalog::LoadedTable{.ident = ident_});
  auto txn = Transaction::ForCreate(table, initial);
  FastAppend& append = txn->Add(table.NewFastAppend());
  for (const manifest::DataFile& file : Write(*initial, {{1, "a"}, {2, "b"}, {3, "a"}})) {
    append.AppendFile(file);
  }
  ASSERT_FALSE(catalog_->TableExists(ident_).value());
  FLOE_ASSERT_OK(txn->Commit());
  EXPECT_EQ(txn->attempts(), 1);

  FLOE_ASSERT_OK_AND_ASSIGN(catalog::LoadedTable loaded, catalog_->LoadTable(ident_));
  const TableMetadata& m = *loaded.metadata;
  EXPECT_EQ(loaded.metadata_location, table.metadata_location());
  EXPECT_TRUE(m.metadata_log().empty());  // one metadata file: the create and the append
  EXPECT_EQ(m.table_uuid(), initial->table_uuid());
  EXPECT_EQ(m.format_version(), 2);
  EXPECT_TRUE(m.current_schema()->SameSchema(*initial->current_schema()));
  EXPECT_EQ(m.default_spec()->fields().size(), 1u);
  EXPECT_EQ(m.default_spec_id(), 0);
  EXPECT_EQ(m.property("owner"), "ctas");
  ASSERT_EQ(m.snapshots().size(), 1u);
  EXPECT_EQ(m.current_snapshot()->sequence_number, 1);
  EXPECT_EQ(m.current_snapshot()->summary.at("total-records"), "3");
  EXPECT_EQ(m.current_snapshot()->summary.at("total-data-files"), "2");
  EXPECT_EQ(Scan(), (std::vector<std::string>{"1:a", "2:b", "3:a"}));

  // The same create again: the table exists, so nothing changes.
  Table again(catalog_, catalog::LoadedTable{.ident = ident_});
  auto second = Transaction::ForCreate(again, Initial());
  second->Add(again.NewFastAppend()).AppendFile(Write(*initial, {{9, "z"}}).front());
  Status status = second->Commit();
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind(), ErrorKind::kAlreadyExists) << status.error().ToString();
  EXPECT_EQ(catalog_->LoadTable(ident_)->metadata_location, loaded.metadata_location);
  EXPECT_EQ(Scan(), (std::vector<std::string>{"1:a", "2:b", "3:a"}));
}

INSTANTIATE_TEST_SUITE_P(
    Catalogs, CreateTransactionTest,
    ::testing::Values(
        Backend{"Hadoop",
                [](const std::string& dir) {
                  return StringMap{{"catalog-type", "hadoop"}, {"warehouse", dir + "/wh"}};
                }},
        Backend{"Sqlite",
                [](const std::string& dir) {
                  return StringMap{{"catalog-type", "sql"},
                                   {"uri", "jdbc:sqlite:" + dir + "/c.db"},
                                   {"warehouse", dir + "/wh"}};
                }},
        Backend{"CachedSqlite",
                [](const std::string& dir) {
                  return StringMap{{"catalog-type", "sql"},
                                   {"uri", "jdbc:sqlite:" + dir + "/c.db"},
                                   {"warehouse", dir + "/wh"},
                                   {"cache-enabled", "true"}};
                }}),
    [](const ::testing::TestParamInfo<Backend>& info) { return info.param.name; });

}  // namespace
}  // namespace floe::table
