#pragma once

// For tests of actions and metadata tables: a partitioned v2 table with real Parquet files and a
// varied history, built through the table layer's writers and commits:
//   1. append    ids 1..6   (categories a, b)
//   2. append    ids 7..12  (a, b)
//   3. overwrite the category-a file of step 1 replaced by ids 1, 3, 5 with data "over"
//   4. row delta a position delete (row 0 of step 2's category-b file, id 8) and an equality
//               delete of id 10 (category b)
//   5. spec change: bucket(4, id) added (spec 1), then an append of ids 13..16 (a, b)
//   6. branch "audit" at the current snapshot, tag "v1" at step 1
// Rows: id long (required), data string ("row<id>"), category string ("a" odd ids, "b" even).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/catalog/catalog.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/table/table.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/update/manage_snapshots.h"
#include "floe/table/update/overwrite_files.h"
#include "floe/table/update/row_delta.h"
#include "floe/table/update/update_spec.h"
#include "floe/table/write/data_file_writer.h"
#include "floe/table/write/equality_delete_writer.h"
#include "floe/table/write/fanout_writer.h"
#include "floe/table/write/position_delete_writer.h"
#include "floe/table/write/table_write_setup.h"

namespace floe::table::test {

struct HistoryRow {
  int64_t id;
  std::string data;
  std::string category;
};

inline std::vector<HistoryRow> RowsOf(int64_t first, int64_t last) {
  std::vector<HistoryRow> out;
  for (int64_t id = first; id <= last; ++id) {
    out.push_back({id, "row" + std::to_string(id), id % 2 == 1 ? "a" : "b"});
  }
  return out;
}

// The rows as a batch of the table's current schema.
inline Result<RecordBatch> HistoryBatch(const BatchSchemaPtr& schema,
                                        const std::vector<HistoryRow>& rows) {
  std::vector<Value> ids, data, categories;
  for (const HistoryRow& row : rows) {
    ids.emplace_back(row.id);
    data.emplace_back(row.data);
    categories.emplace_back(row.category);
  }
  FLOE_ASSIGN_OR_RETURN(Array a, MakeArray(DataType::Int64(), ids));
  FLOE_ASSIGN_OR_RETURN(Array b, MakeArray(DataType::String(), data));
  FLOE_ASSIGN_OR_RETURN(Array c, MakeArray(DataType::String(), categories));
  return RecordBatch::Make(schema, {a, b, c});
}

// Writes rows with the table's default spec and settings.
inline Result<std::vector<manifest::DataFile>> WriteHistoryRows(
    Table& table, const std::vector<HistoryRow>& rows) {
  TableMetadataPtr metadata = table.metadata();
  FLOE_ASSIGN_OR_RETURN(auto setup, TableWriteSetup::Make(*metadata, table.io().get()));
  FLOE_ASSIGN_OR_RETURN(auto writer, FanoutWriter::Make(setup->Context(metadata->default_spec())));
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch, HistoryBatch(setup->batch_schema(), rows));
  FLOE_RETURN_IF_ERROR(writer->Write(batch));
  FLOE_ASSIGN_OR_RETURN(WriteResult result, writer->Close());
  return result.data_files;
}

inline Status AppendHistoryRows(Table& table, const std::vector<HistoryRow>& rows) {
  FLOE_ASSIGN_OR_RETURN(auto files, WriteHistoryRows(table, rows));
  auto append = table.NewFastAppend();
  for (auto& file : files) append->AppendFile(std::move(file));
  return append->Commit();
}

struct HistoryTable {
  std::shared_ptr<Table> table;
  std::vector<int64_t> snapshots;  // after each commit of steps 1..5, in order
};

inline SchemaPtr HistorySchema() {
  return std::make_shared<Schema>(std::vector<NestedField>{
      types::Required(1, "id", types::Long()), types::Optional(2, "data", types::String()),
      types::Optional(3, "category", types::String())});
}

inline Result<std::shared_ptr<Table>> CreateHistoryTable(
    const std::shared_ptr<catalog::Catalog>& catalog, const catalog::TableIdentifier& ident,
    StringMap properties = {}) {
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, catalog->NamespaceExists(ident.ns));
  if (!ns_exists) FLOE_RETURN_IF_ERROR(catalog->CreateNamespace(ident.ns, {}));
  catalog::CreateTableRequest request;
  request.schema = HistorySchema();
  request.spec = std::make_shared<PartitionSpec>(
      0, std::vector<PartitionField>{PartitionField{.source_ids = {3},
                                                    .field_id = 1000,
                                                    .name = "category",
                                                    .transform = Transform::Identity()}});
  properties.try_emplace("format-version", "2");
  request.properties = std::move(properties);
  FLOE_RETURN_IF_ERROR(catalog->CreateTable(ident, request));
  return Table::Load(catalog, ident);
}

inline Result<HistoryTable> MakeHistoryTable(const std::shared_ptr<catalog::Catalog>& catalog,
                                             const catalog::TableIdentifier& ident,
                                             StringMap properties = {}) {
  HistoryTable out;
  FLOE_ASSIGN_OR_RETURN(out.table, CreateHistoryTable(catalog, ident, std::move(properties)));
  Table& table = *out.table;
  auto current = [&] { out.snapshots.push_back(*table.metadata()->current_snapshot_id()); };

  FLOE_ASSIGN_OR_RETURN(auto first, WriteHistoryRows(table, RowsOf(1, 6)));
  {
    auto append = table.NewFastAppend();
    for (const auto& file : first) append->AppendFile(file);
    FLOE_RETURN_IF_ERROR(append->Commit());
    current();
  }
  FLOE_ASSIGN_OR_RETURN(auto second, WriteHistoryRows(table, RowsOf(7, 12)));
  {
    auto append = table.NewFastAppend();
    for (const auto& file : second) append->AppendFile(file);
    FLOE_RETURN_IF_ERROR(append->Commit());
    current();
  }
  auto in_category = [](const std::vector<manifest::DataFile>& files, const std::string& c) {
    for (const auto& file : files) {
      if (file.partition.at(0).bytes_value() == c) return file;
    }
    return files.front();
  };
  {
    FLOE_ASSIGN_OR_RETURN(
        auto replacement,
        WriteHistoryRows(table, {{1, "over", "a"}, {3, "over", "a"}, {5, "over", "a"}}));
    auto overwrite = table.NewOverwrite();
    overwrite->DeleteFile(in_category(first, "a"));
    for (auto& file : replacement) overwrite->AddFile(std::move(file));
    FLOE_RETURN_IF_ERROR(overwrite->Commit());
    current();
  }
  {
    TableMetadataPtr metadata = table.metadata();
    FLOE_ASSIGN_OR_RETURN(auto setup, TableWriteSetup::Make(*metadata, table.io().get()));
    WriterContext context = setup->Context(metadata->default_spec());
    const manifest::DataFile target = in_category(second, "b");
    PositionDeleteWriter positions(context.DeleteOptions(target.partition, nullptr, nullptr));
    positions.Delete(target.file_path, 0);
    FLOE_ASSIGN_OR_RETURN(auto position_files, positions.Close());
    auto key_schema = metadata->current_schema()->Project({1});
    auto key_batch =
        std::make_shared<const BatchSchema>(std::vector<Field>{setup->batch_schema()->field(0)});
    FLOE_ASSIGN_OR_RETURN(
        auto equality,
        EqualityDeleteWriter::Make(context.DeleteOptions(target.partition, key_schema, key_batch),
                                   {1}, std::nullopt));
    FLOE_ASSIGN_OR_RETURN(Array key, MakeArray(DataType::Int64(), std::vector<Value>{int64_t{10}}));
    FLOE_ASSIGN_OR_RETURN(RecordBatch keys, RecordBatch::Make(key_batch, {key}));
    FLOE_RETURN_IF_ERROR(equality->Write(keys));
    FLOE_ASSIGN_OR_RETURN(auto equality_files, equality->Close());
    auto delta = table.NewRowDelta();
    for (auto& file : position_files) delta->AddDeletes(std::move(file));
    for (auto& file : equality_files) delta->AddDeletes(std::move(file));
    FLOE_RETURN_IF_ERROR(delta->Commit());
    current();
  }
  FLOE_RETURN_IF_ERROR(table.NewUpdateSpec()->AddField("id", Transform::Bucket(4)).Commit());
  FLOE_RETURN_IF_ERROR(AppendHistoryRows(table, RowsOf(13, 16)));
  current();
  FLOE_RETURN_IF_ERROR(table.NewManageSnapshots()
                           ->CreateBranch("audit")
                           .CreateTag("v1", out.snapshots.front())
                           .Commit());
  return out;
}

}  // namespace floe::table::test
