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
//   format / value.format          json | csv | raw | debezium-json (record_decoder.h), with
//                                  the format's own options (json.ignore-parse-errors...)
//   batch-size                     rows per emitted batch (default 4096)
//
// Specific offsets name partitions of the one topic (Flink's form), or 'topic:t,partition:0,
// offset:42;...' across topics. Offsets are where a partition starts (the next record read) or
// ends (exclusive). group-offsets starts where the group committed, else where
// properties.auto.offset.reset (earliest or latest) says, else fails naming the partition.
//
// Errors: Parse fails with kInvalidArgument naming the option: unknown or missing options, both
// or neither of topic and topic-pattern, bad modes, offsets, timestamps or durations, key.format
// (a record's key is not read yet).

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
  KafkaOffsetSpec bounded;  // kNone: unbounded
  int64_t discovery_interval_ms = 5 * 60 * 1000;  // 0: no discovery
  std::string format;
  std::map<std::string, std::string> format_options;  // every option starting with the format
  int64_t batch_size = 4096;
  bool consumer_group = false;  // scan.partition-assignment = consumer-group

  // Where properties.auto.offset.reset (librdkafka's names) says to start: kEarliest, kLatest,
  // or nullopt when it says neither.
  std::optional<KafkaOffsetSpec::Mode> OffsetReset() const;

  static Result<KafkaOptions> Parse(const std::map<std::string, std::string>& options);
};

}  // namespace floe::stream
