#pragma once

// The options of a Kafka source, spelt as Flink's Kafka SQL connector spells them:
//
//   topic                          one topic, or several separated by ';'
//   topic-pattern                  a regular expression (ECMAScript) over topic names, instead
//   properties.bootstrap.servers   required
//   properties.group.id            the consumer group: offsets are committed to it after each
//                                  checkpoint the sinks committed (for lag monitoring only)
//   properties.*                   passed to librdkafka as they are (security.protocol, sasl.*...)
//   scan.startup.mode              earliest-offset | latest-offset | group-offsets (default) |
//                                  timestamp | specific-offsets
//   scan.startup.specific-offsets  'partition:0,offset:42;partition:1,offset:300'
//   scan.startup.timestamp-millis  for timestamp: the first record at or after it
//   scan.bounded.mode              unbounded (default) | latest-offset | group-offsets |
//                                  timestamp | specific-offsets: where each partition ends
//   scan.bounded.specific-offsets, scan.bounded.timestamp-millis   as for the start
//   scan.topic-partition-discovery.interval   with topic-pattern: how often new topics are
//                                  looked for (default 5 min; '0' or 'disabled': never)
//   scan.partition-assignment      enumerator (default: the job's enumerator deals out every
//                                  partition to its readers) | consumer-group (each reader joins
//                                  properties.group.id and reads the partitions the group gives
//                                  it: several processes share a topic, docs/scale-out.md)
//   format / value.format          json | csv | raw | avro | debezium-json | canal-json
//                                  (record_decoder.h), with the format's own options
//                                  (json.ignore-parse-errors, or value.json.ignore-parse-errors)
//   key.format                     the format of the records' keys (json, csv, raw, avro), with its
//                                  options as key.json.ignore-parse-errors...
//   key.fields                     'a;b': the columns read from the key (required with
//                                  key.format in kafka; upsert-kafka's key is the primary key)
//   key.fields-prefix              the columns of the key are named with it (the key format sees
//                                  the names without it); needs value.fields-include EXCEPT_KEY
//   value.fields-include           ALL (default: the value holds every column, the key columns
//                                  too) | EXCEPT_KEY (the value holds the other columns only)
//   batch-size                     rows per emitted batch (default 4096)
//
// Specific offsets name partitions of the one topic (Flink's form), or 'topic:t,partition:0,
// offset:42;...' across topics. Offsets are where a partition starts (the next record read) or
// ends (exclusive). group-offsets starts where the group committed, else where
// properties.auto.offset.reset (earliest or latest) says, else fails naming the partition.
//
// The upsert-kafka connector (Parse with upsert) takes the same options but key.fields: its key
// columns are the table's primary key, a record with a null value deletes its key, and reads
// start at the earliest offset unless scan.startup.mode says otherwise.
//
// Errors: Parse fails with kInvalidArgument naming the option: unknown or missing options, both
// or neither of topic and topic-pattern, bad modes, offsets, timestamps or durations, key.fields
// without key.format (or the reverse), a changelog key format.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/util/error.h"

namespace floe::stream {

// Where partitions start or end.
struct KafkaOffsetSpec {
  enum class Mode { kNone, kEarliest, kLatest, kGroup, kTimestamp, kSpecific };
  Mode mode = Mode::kNone;
  int64_t timestamp_ms = 0;  // kTimestamp
  // kSpecific: by topic (empty for "the one topic"), then partition.
  std::map<std::string, std::map<int32_t, int64_t>> offsets;
};

struct KafkaOptions {
  std::vector<std::string> topics;
  std::optional<std::string> topic_pattern;
  std::map<std::string, std::string> properties;  // librdkafka's, without the prefix
  std::optional<std::string> group_id;
  KafkaOffsetSpec startup{.mode = KafkaOffsetSpec::Mode::kGroup};
  KafkaOffsetSpec bounded;                        // kNone: unbounded
  int64_t discovery_interval_ms = 5 * 60 * 1000;  // 0: no discovery
  std::string format;
  std::map<std::string, std::string>
      format_options;  // "<format>.x", also given as value.<format>.x
  std::optional<std::string> key_format;
  std::map<std::string, std::string> key_format_options;  // "<key format>.x" from key.<format>.x
  std::vector<std::string> key_fields;                    // the table's column names
  std::string key_fields_prefix;
  bool value_except_key = false;  // value.fields-include EXCEPT_KEY
  bool upsert = false;            // the upsert-kafka connector
  int64_t batch_size = 4096;
  bool consumer_group = false;  // scan.partition-assignment = consumer-group

  // Where properties.auto.offset.reset (librdkafka's names) says to start: kEarliest, kLatest,
  // or nullopt when it says neither.
  std::optional<KafkaOffsetSpec::Mode> OffsetReset() const;

  // `primary_key`: the table's, which upsert-kafka's key columns are.
  static Result<KafkaOptions> Parse(const std::map<std::string, std::string>& options,
                                    bool upsert = false,
                                    const std::vector<std::string>& primary_key = {});
};

}  // namespace floe::stream
