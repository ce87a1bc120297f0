#include "floe/cli/append_command.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>

#include "floe/catalog/catalog.h"
#include "floe/cli/command_line_io.h"
#include "floe/cli/commands.h"
#include "floe/cli/table_ref.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/table.h"
#include "floe/table/update/merge_append.h"
#include "floe/table/write/fanout_writer.h"
#include "floe/table/write/location_provider.h"
#include "floe/table/write/metrics_config.h"
#include "floe/table/write/output_file_factory.h"
#include "floe/table/write/write_properties.h"
#include "floe/util/strings.h"
#include "floe/util/uuid.h"

namespace floe::cli {
namespace {

// Splits at the commas outside parentheses: "days(ts), bucket(16, id)" -> two terms.
std::vector<std::string> SplitTerms(std::string_view text) {
  std::vector<std::string> terms;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || (text[i] == ',' && depth == 0)) {
      std::string term(TrimWhitespace(text.substr(start, i - start)));
      if (!term.empty()) terms.push_back(std::move(term));
      start = i + 1;
    } else if (text[i] == '(') {
      ++depth;
    } else if (text[i] == ')') {
      --depth;
    }
  }
  return terms;
}

Result<int32_t> PositiveInt(std::string_view text, std::string_view term) {
  int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0) {
    return InvalidArgument("partition term '{}' wants a positive number, got '{}'", term, text);
  }
  return value;
}

// One Flink-style partition term: `col`, `years(col)` .. `hours(col)`, `bucket(N, col)`,
// `truncate(W, col)` (singular forms too).
Result<PartitionField> ParseTerm(const std::string& term, const Schema& schema, int32_t field_id) {
  std::string column = term;
  Transform transform = Transform::Identity();
  std::string suffix;
  size_t open = term.find('(');
  if (open != std::string::npos) {
    if (term.back() != ')') return InvalidArgument("partition term '{}' lacks its ')'", term);
    const std::string name = AsciiLower(TrimWhitespace(std::string_view(term).substr(0, open)));
    std::vector<std::string> args =
        SplitTerms(std::string_view(term).substr(open + 1, term.size() - open - 2));
    column = args.empty() ? "" : args.back();
    const size_t arity = (name == "bucket" || name == "truncate") ? 2 : 1;
    if (args.size() != arity) {
      return InvalidArgument("partition term '{}' wants {} argument(s)", term, arity);
    }
    if (name == "bucket") {
      FLOE_ASSIGN_OR_RETURN(int32_t n, PositiveInt(args[0], term));
      transform = Transform::Bucket(n);
      suffix = "_bucket";
    } else if (name == "truncate") {
      FLOE_ASSIGN_OR_RETURN(int32_t w, PositiveInt(args[0], term));
      transform = Transform::Truncate(w);
      suffix = "_trunc";
    } else if (name == "years" || name == "year") {
      transform = Transform::Year();
      suffix = "_year";
    } else if (name == "months" || name == "month") {
      transform = Transform::Month();
      suffix = "_month";
    } else if (name == "days" || name == "day") {
      transform = Transform::Day();
      suffix = "_day";
    } else if (name == "hours" || name == "hour") {
      transform = Transform::Hour();
      suffix = "_hour";
    } else {
      return InvalidArgument(
          "unknown partition transform '{}' (years, months, days, hours, bucket, truncate)", name);
    }
  }
  const NestedField* source = schema.FindField(column);
  if (source == nullptr) return InvalidArgument("partition column '{}' is not a column", column);
  return PartitionField{.source_ids = {source->id},
                        .field_id = field_id,
                        .name = column + suffix,
                        .transform = transform};
}

Result<PartitionSpecPtr> ParsePartitionBy(const std::string& text, const Schema& schema) {
  std::vector<PartitionField> fields;
  int32_t field_id = PartitionSpec::kFirstFieldId;
  for (const std::string& term : SplitTerms(text)) {
    FLOE_ASSIGN_OR_RETURN(PartitionField field, ParseTerm(term, schema, field_id++));
    fields.push_back(std::move(field));
  }
  return PartitionSpec::Make(schema, PartitionSpec::kInitialSpecId, std::move(fields));
}

// Creates the table from a file's columns, with --partition-by and --property.
Status CreateFromColumns(const AppendArgs& args, const TableRef& ref, const BatchSchema& columns) {
  FLOE_ASSIGN_OR_RETURN(SchemaPtr schema, table::SchemaFromBatchFields(columns.fields()));
  catalog::CreateTableRequest request{.schema = schema};
  FLOE_ASSIGN_OR_RETURN(request.spec, ParsePartitionBy(args.partition_by, *schema));
  FLOE_ASSIGN_OR_RETURN(request.properties, ParseKeyValues(args.table_properties, "--property"));
  FLOE_ASSIGN_OR_RETURN(bool ns_exists, ref.catalog->NamespaceExists(ref.ident.ns));
  if (!ns_exists) FLOE_RETURN_IF_ERROR(ref.catalog->CreateNamespace(ref.ident.ns, {}));
  FLOE_RETURN_IF_ERROR(ref.catalog->CreateTable(ref.ident, request));
  return Ok();
}

Status Append(const AppendArgs& args, std::FILE* out) {
  if (args.files.empty()) return InvalidArgument("no files to append");
  FLOE_ASSIGN_OR_RETURN(TableRef ref, ResolveTableRef(args.table, args.catalog_properties));
  FLOE_ASSIGN_OR_RETURN(bool exists, ref.catalog->TableExists(ref.ident));
  if (!exists && !args.create) return NotFound("table '{}' does not exist", ref.ident.ToString());
  // The first file is opened once: its columns make a new table, then its rows are written.
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<parquet::ParquetBatchReader> first,
                        OpenParquetFile(args.files.front()));
  if (!exists) FLOE_RETURN_IF_ERROR(CreateFromColumns(args, ref, *first->schema()));
  FLOE_ASSIGN_OR_RETURN(std::shared_ptr<table::Table> table,
                        table::Table::Load(ref.catalog, ref.ident));
  TableMetadataPtr metadata = table->metadata();

  const std::map<std::string, std::string> properties(metadata->properties().begin(),
                                                      metadata->properties().end());
  FLOE_ASSIGN_OR_RETURN(table::WriteProperties write, table::WriteProperties::Parse(properties));
  FLOE_ASSIGN_OR_RETURN(table::MetricsConfig metrics,
                        table::MetricsConfig::Make(properties, *metadata->current_schema()));
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> batch_fields,
                        table::ToBatchFields(*metadata->current_schema()));
  auto batch_schema = std::make_shared<const BatchSchema>(std::move(batch_fields));
  table::OutputFileFactory files(
      table::LocationProvider(metadata->location(), properties),
      table::OutputFileFactoryOptions{.operation_id = RandomUuid(),
                                      .format = std::string(table::FileFormatName(write.format))});
  table::WriterContext context;
  context.io = table->io().get();
  context.data_files = &files;
  context.properties = &write;
  context.schema = metadata->current_schema();
  context.batch_schema = batch_schema;
  context.metrics = std::move(metrics);
  if (!metadata->default_spec()->is_unpartitioned()) context.spec = metadata->default_spec();
  FLOE_ASSIGN_OR_RETURN(auto writer, table::FanoutWriter::Make(std::move(context)));

  int64_t rows = 0;
  for (size_t i = 0; i < args.files.size(); ++i) {
    const std::string& path = args.files[i];
    std::unique_ptr<parquet::ParquetBatchReader> reader = std::move(first);
    if (i > 0) {
      FLOE_ASSIGN_OR_RETURN(reader, OpenParquetFile(path));
    }
    while (true) {
      FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, reader->Next());
      if (!batch) break;
      // The file's columns, in the table's order and under the table's field ids.
      auto as_table = RecordBatch::Make(batch_schema, batch->columns(), batch->num_rows());
      if (!as_table) {
        return InvalidArgument("{}: columns ({}) do not match table {} ({})", path,
                               batch->schema()->ToString(), ref.ident.ToString(),
                               batch_schema->ToString());
      }
      FLOE_RETURN_IF_ERROR(writer->Write(*as_table));
      rows += batch->num_rows();
    }
  }
  FLOE_ASSIGN_OR_RETURN(table::WriteResult result, writer->Close());
  auto append = table->NewMergeAppend();
  for (manifest::DataFile& file : result.data_files) append->AppendFile(std::move(file));
  FLOE_RETURN_IF_ERROR(append->Commit());
  fmt::print(out, "appended {} rows in {} files to {} (snapshot {})\n", rows,
             result.data_files.size(), ref.ident.ToString(), append->snapshot_id());
  return Ok();
}

}  // namespace

int RunAppend(const AppendArgs& args, std::FILE* out, std::FILE* err) {
  Status status = Append(args, out);
  std::fflush(out);
  return status ? kExitOk : ReportBadInput(err, "append", status.error());
}

void AddAppendCommand(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "append", "Append the rows of Parquet files to an Iceberg table, as one snapshot");
  auto args = std::make_shared<AppendArgs>();
  cmd->add_option("TABLE", args->table,
                  "table folder <warehouse>/<db>/<table>, or catalog.db.table with --catalog")
      ->required();
  cmd->add_option("FILES", args->files, "Parquet files to append")->required();
  cmd->add_option("--catalog", args->catalog_properties,
                  "catalog property KEY=VALUE (catalog-type, warehouse, uri...), repeatable");
  cmd->add_option("--partition-by", args->partition_by,
                  "for a new table: \"days(ts), bucket(16, id), category\"");
  cmd->add_option("--property", args->table_properties,
                  "for a new table: table property KEY=VALUE, repeatable");
  cmd->add_flag("!--no-create", args->create, "fail when the table does not exist");
  cmd->callback([args, &exit_code] { exit_code = RunAppend(*args, stdout, stderr); });
}

}  // namespace floe::cli
