#pragma once

// A source reading Kafka topics through librdkafka, with the options of Flink's Kafka SQL
// connector (kafka_options.h) and the record formats of record_decoder.h:
//
//   FLOE_ASSIGN_OR_RETURN(auto source, KafkaSource::Builder()
//                                          .BootstrapServers("127.0.0.1:9092")
//                                          .Topics({"events"})
//                                          .GroupId("events-to-iceberg")
//                                          .StartingOffsets("earliest-offset")
//                                          .BoundedBy("latest-offset")   // default: unbounded
//                                          .Format("json")
//                                          .Set("json.ignore-parse-errors", "true")
//                                          .Build(schema));
//   DataStream rows = env.FromSource(source, "events");
//
// Splits are partitions: the enumerator finds them (and, unbounded, new ones every
// scan.topic-partition-discovery.interval, read from their start) and gives each to one reader
// subtask (kafka_split_internal.h, OwnerOf). Where a partition starts is resolved to an offset
// once, by the enumerator, so a checkpoint always holds concrete offsets: a reader's state is
// its partitions with their next offsets, and a restore reads each record after the last one
// emitted before the checkpoint, never one twice. On a fresh start (no checkpoint) the
// positions a sink committed with its data win over scan.startup.mode for the partitions they
// name (Source::ResumeFromCommitted; the Iceberg sink reads them from its table): the job
// resumes after the last record committed, even with its checkpoints lost.
//
// With scan.partition-assignment consumer-group, the enumerator deals out nothing: each reader
// joins properties.group.id and reads what the group gives it, so that several processes share
// the partitions (docs/scale-out.md). A partition given starts at the offset the sink's table
// committed for it (ResumesFromCommittedOffsets), else by scan.startup.mode; a reader's
// position is then the offset range it read per partition since its last checkpoint
// (source_offsets.h), which the sink fences against the table. Its checkpoint state is empty:
// after a restore, too, the table says where each partition resumes.
//
// After each completed checkpoint the readers commit their offsets of that checkpoint to
// properties.group.id, when it is set, for lag monitoring: they are never read back, except by
// scan.startup.mode group-offsets.
//
// A table's columns come from the record's value (format), or some from its key (key.format and
// key.fields; upsert-kafka: the primary key), and metadata columns from the message:
//
//   topic STRING, partition INT, offset BIGINT, timestamp TIMESTAMP_LTZ(3) (null when the
//   message has none), timestamp-type STRING (NoTimestampType, CreateTime, LogAppendTime),
//   headers MAP<STRING, BYTES>
//
// Errors: Build fails with kInvalidArgument naming the option (kafka_options.h,
// record_decoder.h). Reading fails on a record that does not decode (naming topic, partition and
// offset and the reason, unless the format ignores parse errors: then the record is skipped and
// counted in the metric `<source>.<subtask>.recordsSkipped`), on a partition whose offset is gone
// (retention) or that disappeared. A broker that cannot be reached is waited for, as librdkafka
// reconnects by itself.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/stream/connectors/kafka/kafka_options.h"
#include "floe/stream/source.h"
#include "floe/stream/source_offsets.h"

namespace floe::stream {

// What a Kafka table says beside its options.
struct KafkaTable {
  bool upsert = false;                         // the upsert-kafka connector
  std::vector<std::string> primary_key;        // upsert-kafka: the key's columns
  std::map<std::string, std::string> metadata;  // metadata column -> its key (above)
};

class KafkaSource : public Source,
                    public ResumesFromCommittedOffsets,
                    public std::enable_shared_from_this<KafkaSource> {
 public:
  class Builder {
   public:
    Builder& BootstrapServers(std::string servers);
    Builder& Topics(std::vector<std::string> topics);
    Builder& TopicPattern(std::string pattern);
    Builder& GroupId(std::string group_id);
    // scan.startup.mode and scan.bounded.mode; their companions through Set.
    Builder& StartingOffsets(std::string mode);
    Builder& BoundedBy(std::string mode);
    Builder& Format(std::string format);
    // Any option of kafka_options.h, properties.* and format options included.
    Builder& Set(std::string key, std::string value);
    // upsert-kafka: the key (key.format) holds these columns, a null value deletes the key.
    Builder& Upsert(std::vector<std::string> primary_key);
    // The column holds the message's metadata `key` (topic, partition, offset...).
    Builder& Metadata(std::string column, std::string key);
    Result<std::shared_ptr<KafkaSource>> Build(BatchSchemaPtr schema) const;

   private:
    std::map<std::string, std::string> options_;
    KafkaTable table_;
  };

  static Result<std::shared_ptr<KafkaSource>> Make(
      BatchSchemaPtr schema, const std::map<std::string, std::string>& options,
      KafkaTable table = {});

  BatchSchemaPtr schema() const override { return schema_; }
  bool bounded() const override {
    return options_.bounded.mode != KafkaOffsetSpec::Mode::kNone;
  }
  Result<std::unique_ptr<SplitEnumerator>> CreateEnumerator() override;
  Result<std::unique_ptr<SourceReader>> CreateReader(int subtask_index) override;
  void ResumeFromCommitted(CommittedPositions positions) override {
    committed_ = std::move(positions);
  }
  void ResumeFromCommittedOffsets(CommittedOffsets offsets) override {
    committed_offsets_ = std::move(offsets);
  }

  const KafkaOptions& options() const { return options_; }
  const KafkaTable& table() const { return table_; }
  const CommittedPositions& committed() const { return committed_; }
  const CommittedOffsets& committed_offsets() const { return committed_offsets_; }

 private:
  KafkaSource() = default;

  BatchSchemaPtr schema_;
  KafkaOptions options_;
  KafkaTable table_;
  CommittedPositions committed_;
  CommittedOffsets committed_offsets_;
};

}  // namespace floe::stream
