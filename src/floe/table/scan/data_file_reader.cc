#include "floe/table/scan/data_file_reader.h"

#include <algorithm>
#include <cctype>

#include "floe/format/orc/batch_reader.h"
#include "floe/format/parquet/file_reader.h"
#include "floe/format/parquet/reader/batch_reader.h"
#include "floe/format/parquet/reader/input_file_source.h"
#include "floe/format/parquet/reader/schema_mapping.h"
#include "floe/manifest/avro_data_file.h"
#include "floe/table/scan/batch_types.h"
#include "floe/table/scan/parquet_predicates.h"
#include "floe/table/scan/schema_projection.h"
#include "floe/util/strings.h"

namespace floe::table {

DataFileReader::DataFileReader(std::string location, SchemaPtr read_schema,
                               DataFileReadOptions options)
    : location_(std::move(location)),
      read_schema_(std::move(read_schema)),
      options_(std::move(options)) {}

DataFileReader::~DataFileReader() = default;

Result<std::unique_ptr<DataFileReader>> DataFileReader::Open(io::FileIO& io,
                                                             const std::string& location,
                                                             std::string_view format,
                                                             SchemaPtr read_schema,
                                                             DataFileReadOptions options) {
  auto reader =
      std::make_unique<DataFileReader>(location, std::move(read_schema), std::move(options));
  FLOE_ASSIGN_OR_RETURN(std::vector<Field> fields, ToBatchFields(*reader->read_schema_));
  reader->schema_ = std::make_shared<BatchSchema>(std::move(fields));
  const std::string kind = AsciiLower(format);
  if (kind == "parquet") {
    auto opened = reader->OpenParquet(io);
    if (!opened) return std::unexpected(std::move(opened.error().AddContext(location)));
    return reader;
  }
  if (kind == "avro") {
    auto opened = reader->OpenAvro(io);
    if (!opened) return std::unexpected(std::move(opened.error().AddContext(location)));
    return reader;
  }
  if (kind == "orc") {
    auto opened = reader->OpenOrc(io);
    if (!opened) return std::unexpected(std::move(opened.error().AddContext(location)));
    return reader;
  }
  return Unsupported("{}: reading {} data files is not supported", location, format);
}

Result<std::unique_ptr<io::InputFile>> DataFileReader::OpenInput(io::FileIO& io) const {
  if (options_.file_size) return io.NewInputFileOfSize(location_, *options_.file_size);
  return io.NewInputFile(location_);
}

Status DataFileReader::OpenAvro(io::FileIO& io) {
  FLOE_ASSIGN_OR_RETURN(avro_file_, OpenInput(io));
  FLOE_ASSIGN_OR_RETURN(avro_, manifest::AvroDataReader::Open(*avro_file_, read_schema_));
  // Avro files are read whole, by the split that starts at byte 0; other splits read nothing.
  avro_done_ = options_.byte_range && options_.byte_range->first != 0;
  return Ok();
}

Result<std::optional<DataFileReader::Batch>> DataFileReader::NextAvro() {
  if (avro_done_) return std::nullopt;
  auto next = avro_->Next();
  if (!next) return std::unexpected(std::move(next.error().AddContext(location_)));
  if (!*next) return std::nullopt;
  const RecordBatch& raw = **next;
  const int64_t first = avro_position_;
  avro_position_ += raw.num_rows();
  if (raw.schema()->Equals(*schema_)) return Batch{raw, first};
  // The Avro reader's batch types are its own; bring them to this reader's by field id.
  std::vector<Array> columns;
  const auto fields = read_schema_->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const int index = raw.schema()->FindFieldIndexById(fields[i].id);
    Result<Array> column = index >= 0 ? ProjectArray(raw.column(index), raw.field(index), fields[i])
                                      : MissingArray(fields[i], raw.num_rows());
    if (!column) return std::unexpected(std::move(column.error().AddContext(location_)));
    columns.push_back(std::move(*column));
  }
  auto batch = RecordBatch::Make(schema_, std::move(columns), raw.num_rows());
  if (!batch) return std::unexpected(std::move(batch.error().AddContext(location_)));
  return Batch{std::move(*batch), first};
}

bool DataFileReader::HasIds(const std::vector<Field>& fields) {
  return std::any_of(fields.begin(), fields.end(), [](const Field& f) { return f.field_id; });
}

std::vector<Field> DataFileReader::MappedFields(std::vector<Field> fields, bool has_ids) const {
  if (has_ids) return fields;
  const NameMapping fallback = options_.name_mapping ? NameMapping{} : NameMappingOf(*read_schema_);
  const NameMapping& mapping = options_.name_mapping ? *options_.name_mapping : fallback;
  for (Field& field : fields) field = ApplyNameMapping(field, mapping);
  return fields;
}

std::vector<Field> DataFileReader::SelectFields(const std::vector<Field>& file_fields,
                                                bool has_ids) {
  std::vector<Field> select;
  for (const NestedField& wanted : read_schema_->fields()) {
    const Field* found = nullptr;
    for (const Field& f : file_fields) {
      if (f.field_id == wanted.id) {
        found = &f;
        break;
      }
    }
    if (found) {
      source_columns_.push_back(static_cast<int>(select.size()));
      // Select by the file's own name: ids may come from the mapping, not the file.
      select.push_back(Field{found->name, nullptr, true, has_ids ? found->field_id : std::nullopt});
      sources_.push_back(*found);
    } else {
      source_columns_.push_back(-1);
      sources_.push_back(std::nullopt);
    }
  }
  if (select.empty()) {
    // Only missing columns: read one real column to learn the row counts.
    select.push_back(file_fields.empty() ? Field{"", nullptr, true, std::nullopt}
                                         : Field{file_fields[0].name, nullptr, true,
                                                 has_ids ? file_fields[0].field_id : std::nullopt});
  }
  return select;
}

Status DataFileReader::OpenOrc(io::FileIO& io) {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<io::InputFile> input, OpenInput(io));
  FLOE_ASSIGN_OR_RETURN(
      auto source, parquet::MakeInputFileSource(std::shared_ptr<io::InputFile>(std::move(input))));
  FLOE_ASSIGN_OR_RETURN(auto file, orc::OrcFileReader::Open(std::move(source)));
  const bool has_ids = HasIds(file->schema()->fields());
  const std::vector<Field> file_fields = MappedFields(file->schema()->fields(), has_ids);
  orc::ReadOptions read;
  read.batch_rows = options_.batch_rows;
  read.byte_range = options_.byte_range;
  read.select = SelectFields(file_fields, has_ids);
  FLOE_ASSIGN_OR_RETURN(orc_, orc::OrcBatchReader::Open(std::move(file), read));
  return Ok();
}

Status DataFileReader::OpenParquet(io::FileIO& io) {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<io::InputFile> input, OpenInput(io));
  FLOE_ASSIGN_OR_RETURN(
      auto source, parquet::MakeInputFileSource(std::shared_ptr<io::InputFile>(std::move(input))));
  FLOE_ASSIGN_OR_RETURN(auto file, parquet::FileReader::Open(std::move(source)));
  FLOE_ASSIGN_OR_RETURN(std::vector<parquet::ReadNode> nodes,
                        parquet::MapSchema(file->schema(), parquet::MappingOptions{}));
  std::vector<Field> fields;
  for (const auto& node : nodes) fields.push_back(node.field);
  const bool has_ids = HasIds(fields);
  const std::vector<Field> file_fields = MappedFields(std::move(fields), has_ids);
  parquet::ReadOptions read;
  read.batch_rows = options_.batch_rows;
  read.byte_range = options_.byte_range;
  if (options_.filter) {
    std::unordered_map<int32_t, ParquetColumn> columns;
    for (size_t i = 0; i < nodes.size(); ++i) {
      const std::optional<int32_t> id = file_fields[i].field_id;
      if (nodes[i].kind != parquet::ReadNode::Kind::kLeaf || !id) continue;
      const bool nan_free =
          std::find(options_.nan_free_field_ids.begin(), options_.nan_free_field_ids.end(), *id) !=
          options_.nan_free_field_ids.end();
      columns.try_emplace(*id, ParquetColumn{file_fields[i].name, has_ids ? id : std::nullopt,
                                             nodes[i].conversion, nodes[i].field.type, nan_free});
    }
    read.predicates = ToParquetPredicates(*options_.filter, columns);
  }
  read.select = SelectFields(file_fields, has_ids);
  FLOE_ASSIGN_OR_RETURN(parquet_, parquet::ParquetBatchReader::Open(std::move(file), read));
  return Ok();
}

int64_t DataFileReader::row_groups_skipped() const {
  return parquet_ ? parquet_->row_groups_skipped() : 0;
}

int64_t DataFileReader::rows_skipped_by_page_index() const {
  return parquet_ ? parquet_->rows_skipped_by_page_index() : 0;
}

Result<std::optional<DataFileReader::Batch>> DataFileReader::Next() {
  if (avro_) return NextAvro();
  auto next = orc_ ? orc_->Next() : parquet_->Next();
  if (!next) return std::unexpected(std::move(next.error().AddContext(location_)));
  if (!*next) return std::nullopt;
  const RecordBatch& raw = **next;
  const int64_t rows = raw.num_rows();
  std::vector<Array> columns;
  const auto fields = read_schema_->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const NestedField& target = fields[i];
    Result<Array> column;
    if (source_columns_[i] >= 0 && raw.column(source_columns_[i]).kind() != TypeKind::kNull) {
      column = ProjectArray(raw.column(source_columns_[i]), *sources_[i], target);
    } else {
      auto constant = options_.constants.find(target.id);
      column = MissingArray(target, rows,
                            constant == options_.constants.end() ? nullptr : &constant->second);
    }
    if (!column) return std::unexpected(std::move(column.error().AddContext(location_)));
    columns.push_back(std::move(*column));
  }
  auto batch = RecordBatch::Make(schema_, std::move(columns), rows);
  if (!batch) return std::unexpected(std::move(batch.error().AddContext(location_)));
  return Batch{std::move(*batch),
               orc_ ? orc_->batch_row_position() : parquet_->batch_row_position()};
}

}  // namespace floe::table
