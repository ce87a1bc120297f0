#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "floe/stream/connectors/kafka/kafka_rows_internal.h"
#include "floe/stream/connectors/kafka/kafka_source.h"

namespace floe::stream {
namespace {

struct MetadataKey {
  std::string_view name;
  std::string_view type;  // for errors, in SQL
};

constexpr std::array<MetadataKey, 6> kMetadataKeys = {{
    {"topic", "STRING"},
    {"partition", "INT"},
    {"offset", "BIGINT"},
    {"timestamp", "TIMESTAMP_LTZ(3) or TIMESTAMP(3)"},
    {"timestamp-type", "STRING"},
    {"headers", "MAP<STRING, BYTES>"},
}};

bool Fits(size_t key, const DataType& type) {
  switch (key) {
    case 0:
    case 4:
      return type.kind() == TypeKind::kString;
    case 1:
      return type.kind() == TypeKind::kInt32;
    case 2:
      return type.kind() == TypeKind::kInt64;
    case 3:
      return type.kind() == TypeKind::kTimestamp;
    default:
      return type.kind() == TypeKind::kMap && type.key_field().type->kind() == TypeKind::kString &&
             (type.item_field().type->kind() == TypeKind::kBinary ||
              type.item_field().type->kind() == TypeKind::kString);
  }
}

std::optional<std::string_view> Bytes(const void* data, size_t size) {
  if (data == nullptr) return std::nullopt;
  return std::string_view(static_cast<const char*>(data), size);
}

}  // namespace

Result<std::unique_ptr<KafkaRows>> KafkaRows::Make(BatchSchemaPtr schema,
                                                   const KafkaOptions& options,
                                                   const KafkaTable& table) {
  auto rows = std::unique_ptr<KafkaRows>(new KafkaRows());
  rows->upsert_ = options.upsert;
  for (const std::string& field : options.key_fields) {
    if (schema->FindFieldIndex(field) < 0) {
      return InvalidArgument("kafka: key column '{}' is not a column of the table", field);
    }
    if (table.metadata.contains(field)) {
      return InvalidArgument("kafka: key column '{}' is a metadata column", field);
    }
  }
  std::vector<Field> key_fields;
  std::vector<Field> value_fields;
  for (int c = 0; c < schema->num_fields(); ++c) {
    const Field& field = schema->field(c);
    if (auto metadata = table.metadata.find(field.name); metadata != table.metadata.end()) {
      auto key = std::ranges::find(kMetadataKeys, metadata->second, &MetadataKey::name);
      if (key == kMetadataKeys.end()) {
        return InvalidArgument(
            "kafka: column '{}': unknown metadata key '{}' (topic, partition, offset, timestamp, "
            "timestamp-type, headers)",
            field.name, metadata->second);
      }
      const size_t which = static_cast<size_t>(key - kMetadataKeys.begin());
      if (!Fits(which, *field.type)) {
        return InvalidArgument("kafka: metadata column '{}' ({}) must be of type {}", field.name,
                               key->name, key->type);
      }
      rows->columns_.push_back({From::kMetadata, static_cast<int>(rows->metadata_.size())});
      rows->metadata_.push_back(MetadataColumn{.what = static_cast<Metadata>(which),
                                               .type = field.type,
                                               .builder = MakeBuilder(field.type)});
      continue;
    }
    const bool key = std::ranges::find(options.key_fields, field.name) != options.key_fields.end();
    if (key) {
      rows->columns_.push_back({From::kKey, static_cast<int>(key_fields.size())});
      Field in_key = field;
      in_key.name = field.name.substr(options.key_fields_prefix.size());
      key_fields.push_back(std::move(in_key));
      if (options.value_except_key) continue;
    } else {
      if (options.upsert && !field.nullable) {
        return InvalidArgument(
            "upsert-kafka: column '{}' is NOT NULL, but a delete (a null value) carries only the "
            "key",
            field.name);
      }
      rows->columns_.push_back({From::kValue, static_cast<int>(value_fields.size())});
    }
    // The value's copy of a key column is read but not used: it may be null in a delete.
    Field in_value = field;
    if (key) in_value.nullable = true;
    value_fields.push_back(std::move(in_value));
  }
  // Key columns follow their order in key.fields, as the key format reads them.
  if (!key_fields.empty()) {
    std::vector<Field> ordered;
    std::vector<int> position(key_fields.size());
    for (const std::string& name : options.key_fields) {
      const std::string in_key = name.substr(options.key_fields_prefix.size());
      auto at = std::ranges::find(key_fields, in_key, &Field::name);
      position[static_cast<size_t>(at - key_fields.begin())] = static_cast<int>(ordered.size());
      ordered.push_back(*at);
    }
    for (Column& column : rows->columns_) {
      if (column.from == From::kKey) column.index = position[static_cast<size_t>(column.index)];
    }
    auto key_schema = std::make_shared<BatchSchema>(std::move(ordered));
    auto made = RecordDecoder::Make(*options.key_format, key_schema, options.key_format_options,
                                    table.primary_key);
    if (!made) {
      Error error = made.error();
      error.AddContext("key.format");
      return std::unexpected(std::move(error));
    }
    rows->key_ = std::move(*made);
  }
  if (value_fields.empty()) {
    return InvalidArgument(
        "kafka: the value holds no column (every column is a key or metadata column)");
  }
  FLOE_ASSIGN_OR_RETURN(
      rows->value_,
      RecordDecoder::Make(options.format, std::make_shared<BatchSchema>(std::move(value_fields)),
                          options.format_options, table.primary_key));
  rows->schema_ = std::move(schema);
  return rows;
}

int64_t KafkaRows::skipped() const {
  return value_->skipped() + (key_ != nullptr ? key_->skipped() : 0);
}

Status KafkaRows::DecodeKey(const rd_kafka_message_t& message) {
  std::optional<std::string_view> key = Bytes(message.key, message.key_len);
  if (!key) {
    if (upsert_) return InvalidArgument("a record without a key (upsert-kafka needs one)");
    return key_->AppendNulls(RowKind::kInsert);
  }
  Status decoded = key_->Decode(key);
  if (!decoded) return InvalidArgument("key: {}", decoded.error().message());
  return Ok();
}

Status KafkaRows::Decode(const rd_kafka_message_t& message) {
  const int64_t key_from = key_ != nullptr ? key_->rows() : 0;
  if (key_ != nullptr) {
    FLOE_RETURN_IF_ERROR(DecodeKey(message));
    // The key did not decode and its format skips such records: so is the value.
    if (key_->rows() == key_from) return Ok();
  }
  const int64_t value_from = value_->rows();
  std::optional<std::string_view> value = Bytes(message.payload, message.len);
  Status decoded =
      upsert_ && !value ? value_->AppendNulls(RowKind::kDelete) : value_->Decode(value);
  if (!decoded) {
    if (key_ != nullptr) key_->LeaveOutFrom(key_from);
    return decoded;
  }
  const int64_t rows = value_->rows() - value_from;
  if (key_ != nullptr) {
    if (rows == 0) key_->LeaveOutFrom(key_from);
    // A changelog value's update is two rows, each with the key.
    for (int64_t r = 1; r < rows; ++r) FLOE_RETURN_IF_ERROR(DecodeKey(message));
  }
  AppendMetadata(message, rows);
  rows_ += rows;
  return Ok();
}

void KafkaRows::AppendMetadata(const rd_kafka_message_t& message, int64_t rows) {
  for (int64_t r = 0; r < rows; ++r) {
    for (MetadataColumn& column : metadata_) {
      switch (column.what) {
        case Metadata::kTopic:
          static_cast<StringBuilder&>(*column.builder).Append(rd_kafka_topic_name(message.rkt));
          break;
        case Metadata::kPartition:
          static_cast<Int32Builder&>(*column.builder).Append(message.partition);
          break;
        case Metadata::kOffset:
          static_cast<Int64Builder&>(*column.builder).Append(message.offset);
          break;
        case Metadata::kTimestamp:
        case Metadata::kTimestampType: {
          rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
          const int64_t ms = rd_kafka_message_timestamp(&message, &type);
          if (column.what == Metadata::kTimestampType) {
            static_cast<StringBuilder&>(*column.builder)
                .Append(type == RD_KAFKA_TIMESTAMP_CREATE_TIME       ? "CreateTime"
                        : type == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? "LogAppendTime"
                                                                     : "NoTimestampType");
          } else if (type == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE) {
            column.builder->AppendNull();
          } else {
            const int64_t per_ms = column.type->unit() == TimeUnit::kNano ? 1'000'000 : 1'000;
            static_cast<Int64Builder&>(*column.builder).Append(ms * per_ms);
          }
          break;
        }
        case Metadata::kHeaders: {
          auto& map = static_cast<MapBuilder&>(*column.builder);
          map.Append();
          rd_kafka_headers_t* headers = nullptr;
          if (rd_kafka_message_headers(&message, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR) break;
          const char* name = nullptr;
          const void* value = nullptr;
          size_t size = 0;
          for (size_t h = 0; rd_kafka_header_get_all(headers, h, &name, &value, &size) ==
                             RD_KAFKA_RESP_ERR_NO_ERROR;
               ++h) {
            map.key_builder<StringBuilder>().Append(name);
            if (value == nullptr) {
              map.item_builder()->AppendNull();
            } else {
              map.item_builder<StringBuilder>().Append(value, static_cast<int64_t>(size));
            }
          }
          break;
        }
      }
    }
  }
}

Result<std::optional<RecordBatch>> KafkaRows::Finish() {
  FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> value, value_->Finish());
  std::optional<RecordBatch> key;
  if (key_ != nullptr) {
    FLOE_ASSIGN_OR_RETURN(key, key_->Finish());
  }
  const int64_t rows = std::exchange(rows_, 0);
  std::vector<Array> metadata;
  for (MetadataColumn& column : metadata_) {
    FLOE_ASSIGN_OR_RETURN(Array array, column.builder->Finish());
    metadata.push_back(std::move(array));
  }
  if (rows == 0) return std::optional<RecordBatch>();
  if (!value || value->num_rows() != rows ||
      (key_ != nullptr && (!key || key->num_rows() != rows))) {
    return InternalError("kafka rows: the key, value and metadata columns disagree on the rows");
  }
  if (key_ == nullptr && metadata_.empty()) return value;
  std::vector<Array> columns;
  for (const Column& column : columns_) {
    switch (column.from) {
      case From::kKey:
        columns.push_back(key->column(column.index));
        break;
      case From::kValue:
        columns.push_back(value->column(column.index));
        break;
      case From::kMetadata:
        columns.push_back(metadata[static_cast<size_t>(column.index)]);
        break;
    }
  }
  std::optional<Buffer> kinds;
  if (value->has_row_kinds()) {
    kinds = Buffer::CopyOf(value->row_kinds().data(), rows);
  }
  FLOE_ASSIGN_OR_RETURN(RecordBatch batch,
                        RecordBatch::Make(schema_, std::move(columns), rows, std::move(kinds)));
  return std::optional<RecordBatch>(std::move(batch));
}

}  // namespace floe::stream
