// Writes the ids 1..N into a new Iceberg table and reads back those above N / 2, with floe's
// library API only: a hadoop catalog, the table writer stack and a commit, then a scan from
// Table::NewScan read by a TaskReader. Prints "rows=<count> id_sum=<sum>".
//
//   count_rows <warehouse folder> <N>

#include <charconv>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/catalog/hadoop/hadoop_catalog.h"
#include "floe/expr/expression.h"
#include "floe/spec/schema.h"
#include "floe/table/scan/table_scan.h"
#include "floe/table/scan/task_reader.h"
#include "floe/table/table.h"
#include "floe/table/update/fast_append.h"
#include "floe/table/write/fanout_writer.h"
#include "floe/table/write/table_write_setup.h"

namespace {

using namespace floe;

Result<std::shared_ptr<table::Table>> CreateTable(const std::string& warehouse) {
  FLOE_ASSIGN_OR_RETURN(auto catalog,
                        catalog::HadoopCatalog::Make("local", {{"warehouse", warehouse}}));
  catalog::TableIdentifier ident{catalog::Namespace{{"db"}}, "events"};
  FLOE_RETURN_IF_ERROR(catalog->CreateNamespace(ident.ns, {}));
  catalog::CreateTableRequest request;
  request.schema = std::make_shared<Schema>(std::vector<NestedField>{
      types::Required(1, "id", types::Long()), types::Optional(2, "data", types::String())});
  FLOE_RETURN_IF_ERROR(catalog->CreateTable(ident, request));
  return table::Table::Load(catalog, ident);
}

Status Append(table::Table& table, int64_t n) {
  TableMetadataPtr metadata = table.metadata();
  FLOE_ASSIGN_OR_RETURN(auto setup, table::TableWriteSetup::Make(*metadata, table.io().get()));
  FLOE_ASSIGN_OR_RETURN(auto writer,
                        table::FanoutWriter::Make(setup->Context(metadata->default_spec())));
  Int64Builder ids;
  StringBuilder data(DataType::String());
  for (int64_t id = 1; id <= n; ++id) {
    ids.Append(id);
    data.Append("row " + std::to_string(id));
  }
  FLOE_ASSIGN_OR_RETURN(Array id_column, ids.Finish());
  FLOE_ASSIGN_OR_RETURN(Array data_column, data.Finish());
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch,
                        RecordBatch::Make(setup->batch_schema(), {id_column, data_column}));
  FLOE_RETURN_IF_ERROR(writer->Write(batch));
  FLOE_ASSIGN_OR_RETURN(table::WriteResult written, writer->Close());
  auto append = table.NewFastAppend();
  for (manifest::DataFile& file : written.data_files) append->AppendFile(std::move(file));
  return append->Commit();
}

Status Run(const std::string& warehouse, int64_t n) {
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<table::Table> table, CreateTable(warehouse));
  FLOE_RETURN_IF_ERROR(Append(*table, n));

  table::TableScan scan = table->NewScan();
  scan.Filter(expr::GreaterThan("id", Literal::Long(n / 2))).Select({"id"});
  FLOE_ASSIGN_OR_RETURN(std::vector<table::CombinedScanTask> tasks, scan.PlanTasks());
  FLOE_ASSIGN_OR_RETURN(SchemaPtr schema, scan.schema());
  FLOE_ASSIGN_OR_RETURN(SchemaPtr projected, scan.ProjectedSchema());
  table::TaskReader reader(table->io(), schema, projected);
  int64_t rows = 0, id_sum = 0;
  for (const table::CombinedScanTask& group : tasks) {
    FLOE_RETURN_IF_ERROR(reader.Read(group, [&](RecordBatch batch) -> Status {
      const Array& ids = batch.column(0);
      for (int64_t i = 0; i < batch.num_rows(); ++i) id_sum += ids.Value<int64_t>(i);
      rows += batch.num_rows();
      return {};
    }));
  }
  std::cout << "rows=" << rows << " id_sum=" << id_sum << "\n";
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  int64_t n = 0;
  if (argc != 3 ||
      std::from_chars(argv[2], argv[2] + std::char_traits<char>::length(argv[2]), n).ec !=
          std::errc() ||
      n < 1) {
    std::cerr << "usage: count_rows <warehouse folder> <rows, at least 1>\n";
    return 2;
  }
  if (Status status = Run(argv[1], n); !status) {
    std::cerr << "count_rows: " << status.error().ToString() << "\n";
    return 1;
  }
  return 0;
}
