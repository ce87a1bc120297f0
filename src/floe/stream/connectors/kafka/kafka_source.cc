#include "floe/stream/connectors/kafka/kafka_source.h"

#include "floe/stream/connectors/kafka/kafka_source_internal.h"
#include "floe/stream/connectors/kafka/kafka_rows_internal.h"

namespace floe::stream {

KafkaSource::Builder& KafkaSource::Builder::BootstrapServers(std::string servers) {
  return Set("properties.bootstrap.servers", std::move(servers));
}

KafkaSource::Builder& KafkaSource::Builder::Topics(std::vector<std::string> topics) {
  std::string list;
  for (const std::string& topic : topics) list += (list.empty() ? "" : ";") + topic;
  return Set("topic", std::move(list));
}

KafkaSource::Builder& KafkaSource::Builder::TopicPattern(std::string pattern) {
  return Set("topic-pattern", std::move(pattern));
}

KafkaSource::Builder& KafkaSource::Builder::GroupId(std::string group_id) {
  return Set("properties.group.id", std::move(group_id));
}

KafkaSource::Builder& KafkaSource::Builder::StartingOffsets(std::string mode) {
  return Set("scan.startup.mode", std::move(mode));
}

KafkaSource::Builder& KafkaSource::Builder::BoundedBy(std::string mode) {
  return Set("scan.bounded.mode", std::move(mode));
}

KafkaSource::Builder& KafkaSource::Builder::Format(std::string format) {
  return Set("format", std::move(format));
}

KafkaSource::Builder& KafkaSource::Builder::Set(std::string key, std::string value) {
  options_[std::move(key)] = std::move(value);
  return *this;
}

KafkaSource::Builder& KafkaSource::Builder::Upsert(std::vector<std::string> primary_key) {
  table_.upsert = true;
  table_.primary_key = std::move(primary_key);
  return *this;
}

KafkaSource::Builder& KafkaSource::Builder::Metadata(std::string column, std::string key) {
  table_.metadata[std::move(column)] = std::move(key);
  return *this;
}

Result<std::shared_ptr<KafkaSource>> KafkaSource::Builder::Build(BatchSchemaPtr schema) const {
  return KafkaSource::Make(std::move(schema), options_, table_);
}

Result<std::shared_ptr<KafkaSource>> KafkaSource::Make(
    BatchSchemaPtr schema, const std::map<std::string, std::string>& options, KafkaTable table) {
  if (schema == nullptr || schema->num_fields() == 0) {
    return InvalidArgument("kafka source: no columns");
  }
  auto source = std::shared_ptr<KafkaSource>(new KafkaSource());
  FLOE_ASSIGN_OR_RETURN(source->options_,
                        KafkaOptions::Parse(options, table.upsert, table.primary_key));
  const KafkaOptions& parsed = source->options_;
  for (const KafkaOffsetSpec* spec : {&parsed.startup, &parsed.bounded}) {
    if (spec->mode == KafkaOffsetSpec::Mode::kGroup && !parsed.group_id) {
      return InvalidArgument(
          "kafka: group-offsets needs 'properties.group.id' (scan.startup.mode is group-offsets "
          "unless set)");
    }
  }
  // The decoders are made once here to check the formats, their options and the columns.
  FLOE_RETURN_IF_ERROR(KafkaRows::Make(schema, parsed, table));
  source->schema_ = std::move(schema);
  source->table_ = std::move(table);
  return source;
}

Result<std::unique_ptr<SplitEnumerator>> KafkaSource::CreateEnumerator() {
  return MakeKafkaEnumerator(shared_from_this());
}

Result<std::unique_ptr<SourceReader>> KafkaSource::CreateReader(int) {
  return MakeKafkaReader(shared_from_this());
}

}  // namespace floe::stream
