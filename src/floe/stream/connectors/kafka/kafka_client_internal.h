#pragma once

// The Kafka source's one use of librdkafka: a consumer handle that looks up partitions and offsets
// (the enumerator) and fetches assigned partitions from given offsets (a reader). It never
// subscribes to a group: partitions are assigned by the enumerator, and a group is only told the
// offsets the job has committed (for lag monitoring). Blocking calls wait at most kTimeoutMs.

#include <librdkafka/rdkafka.h>

#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/util/error.h"

namespace floe::stream {

struct TopicPartition {
  std::string topic;
  int32_t partition = 0;
  auto operator<=>(const TopicPartition&) const = default;
};

using PartitionOffsets = std::map<TopicPartition, int64_t>;

struct KafkaMessageDeleter {
  void operator()(rd_kafka_message_t* message) const { rd_kafka_message_destroy(message); }
};
using KafkaMessage = std::unique_ptr<rd_kafka_message_t, KafkaMessageDeleter>;

class KafkaConsumer {
 public:
  static constexpr int kTimeoutMs = 30'000;

  // `properties` go to librdkafka as they are, after floe's defaults (no automatic commits or
  // offset stores, partition ends reported); kInvalidArgument naming a property it refuses.
  static Result<std::unique_ptr<KafkaConsumer>> Make(
      const std::map<std::string, std::string>& properties);
  ~KafkaConsumer();
  KafkaConsumer(const KafkaConsumer&) = delete;
  KafkaConsumer& operator=(const KafkaConsumer&) = delete;

  // The partitions of the topics (a topic that does not exist is an error), or of every topic
  // whose whole name matches `pattern`.
  Result<std::vector<TopicPartition>> Partitions(const std::vector<std::string>& topics,
                                                 const std::optional<std::string>& pattern);
  // The earliest offset and the offset after the last record.
  Result<std::pair<int64_t, int64_t>> Watermarks(const TopicPartition& partition);
  // Per partition the first offset whose record's timestamp is at or after `timestamp_ms`, or
  // nullopt when there is none.
  Result<std::map<TopicPartition, std::optional<int64_t>>> OffsetsForTimes(
      const std::vector<TopicPartition>& partitions, int64_t timestamp_ms);
  // The group's committed offsets; nullopt for a partition with none.
  Result<std::map<TopicPartition, std::optional<int64_t>>> Committed(
      const std::vector<TopicPartition>& partitions);

  // Fetches exactly these partitions from these offsets from now on.
  Status Assign(const PartitionOffsets& offsets);
  // Up to `max` messages (or events: partition ends, errors), waiting at most timeout_ms.
  Result<size_t> Poll(std::vector<KafkaMessage>& messages, size_t max, int timeout_ms);
  // Tells the group these next offsets, without waiting for the answer.
  Status CommitAsync(const PartitionOffsets& offsets);

 private:
  KafkaConsumer() = default;
  rd_kafka_t* handle_ = nullptr;
  rd_kafka_queue_t* queue_ = nullptr;
  std::vector<rd_kafka_message_t*> raw_;
};

// "topic [partition]", for messages.
std::string Describe(const TopicPartition& partition);

}  // namespace floe::stream
