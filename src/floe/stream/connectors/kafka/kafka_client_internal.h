#pragma once

// The Kafka source's one use of librdkafka: a consumer handle that looks up partitions and offsets
// (the enumerator) and fetches assigned partitions from given offsets (a reader). Partitions are
// assigned by the enumerator, and a group is only told the offsets the job has committed (for lag
// monitoring), except with scan.partition-assignment consumer-group: then each reader subscribes
// to the group, which gives it its partitions (a Rebalance handler says where each starts).
// Blocking calls wait at most kTimeoutMs.

#include <librdkafka/rdkafka.h>

#include <compare>
#include <cstdint>
#include <functional>
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

  // A member of the group of `properties` (group.id), assigned partitions by it
  // (cooperative-sticky unless partition.assignment.strategy says otherwise). The handler is
  // called inside Poll when the group gives partitions (`given` true: it returns the offsets to
  // fetch them from) or takes them away (its offsets are ignored); its error is Poll's.
  using Rebalance = std::function<Result<std::map<TopicPartition, int64_t>>(
      bool given, const std::vector<TopicPartition>& partitions)>;
  static Result<std::unique_ptr<KafkaConsumer>> MakeMember(
      const std::map<std::string, std::string>& properties, Rebalance rebalance);
  // Joins the group for the topics, or every topic whose whole name matches `pattern`.
  Status Subscribe(const std::vector<std::string>& topics,
                   const std::optional<std::string>& pattern);
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
  static Result<std::unique_ptr<KafkaConsumer>> Open(
      const std::map<std::string, std::string>& properties, Rebalance rebalance);
  static void OnRebalance(rd_kafka_t* handle, rd_kafka_resp_err_t event,
                          rd_kafka_topic_partition_list_t* partitions, void* opaque);
  Status HandleRebalance(rd_kafka_resp_err_t event, rd_kafka_topic_partition_list_t* partitions);

  Rebalance rebalance_;
  Status rebalance_error_;
  rd_kafka_t* handle_ = nullptr;
  rd_kafka_queue_t* queue_ = nullptr;
  std::vector<rd_kafka_message_t*> raw_;
};

// "topic [partition]", for messages.
std::string Describe(const TopicPartition& partition);

}  // namespace floe::stream
