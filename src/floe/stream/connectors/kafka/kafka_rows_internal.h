#pragma once

// The rows of Kafka messages in a Kafka table's schema: the key's columns decoded by key.format,
// the value's by the format, the metadata columns from the message itself (kafka_source.h lists
// them), assembled in the table's column order. What the formats know stays in record_decoder.h;
// this knows where in a message each column is.
//
// A message gives the rows of its value (none for a tombstone, two for a changelog update), each
// with the key's columns and the metadata; in upsert-kafka a null value gives a -D row of its key.
// Key columns come from the key also when the value holds them (value.fields-include ALL).

#include <librdkafka/rdkafka.h>

#include <memory>
#include <optional>
#include <vector>

#include "floe/batch/builder.h"
#include "floe/batch/record_batch.h"
#include "floe/stream/connectors/kafka/kafka_options.h"
#include "floe/stream/connectors/record_decoder.h"

namespace floe::stream {

struct KafkaTable;

class KafkaRows {
 public:
  // kInvalidArgument naming the column or option: a key field or metadata column the schema does
  // not have, a metadata column of the wrong type, an unknown metadata key, a format that does
  // not fit its columns.
  static Result<std::unique_ptr<KafkaRows>> Make(BatchSchemaPtr schema,
                                                 const KafkaOptions& options,
                                                 const KafkaTable& table);

  // Appends the rows of one message; the error gives the reason only (the caller says where).
  Status Decode(const rd_kafka_message_t& message);
  // Messages skipped for parse errors, in all.
  int64_t skipped() const;
  // The rows decoded since the last Finish, nullopt when none.
  Result<std::optional<RecordBatch>> Finish();

 private:
  enum class From { kKey, kValue, kMetadata };
  struct Column {
    From from;
    int index;  // in the key's or the value's schema, or in metadata_
  };
  enum class Metadata { kTopic, kPartition, kOffset, kTimestamp, kTimestampType, kHeaders };
  struct MetadataColumn {
    Metadata what;
    DataTypePtr type;
    std::unique_ptr<ArrayBuilder> builder;
  };

  KafkaRows() = default;
  Status DecodeKey(const rd_kafka_message_t& message);
  void AppendMetadata(const rd_kafka_message_t& message, int64_t rows);

  BatchSchemaPtr schema_;
  bool upsert_ = false;
  std::vector<Column> columns_;  // by column of schema_
  std::unique_ptr<RecordDecoder> key_;
  std::unique_ptr<RecordDecoder> value_;
  std::vector<MetadataColumn> metadata_;
  int64_t rows_ = 0;
};

}  // namespace floe::stream
