#pragma once

// A Kafka source's split is one partition, from the next offset to read to an optional end
// (exclusive: bounded reads). Readers keep one state entry per split, the enumerator the
// partitions it has found and the splits it has not handed out yet; all as JSON.
//
// A reader's position (what sinks commit, docs/kafka.md) is `topic:partition:offset` per split,
// comma separated, in partition order: the next offset of each (every record before it is
// emitted). Topic names cannot hold ':' or ','.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/stream/connectors/kafka/kafka_client_internal.h"
#include "floe/util/json.h"

namespace floe::stream {

struct KafkaSplit {
  TopicPartition partition;
  int64_t offset = 0;
  std::optional<int64_t> end;

  bool finished() const { return end.has_value() && offset >= *end; }
};

Json SplitToJson(const KafkaSplit& split);
Result<KafkaSplit> SplitFromJson(const Json& json);

std::string EncodePosition(const std::vector<KafkaSplit>& splits);
// kCorruptData for text that is not a position.
Result<PartitionOffsets> ParsePosition(std::string_view text);

// Which reader subtask a partition goes to: a partition's place stays stable as partitions are
// added, and a topic's partitions spread over all subtasks.
int OwnerOf(const TopicPartition& partition, int parallelism);

}  // namespace floe::stream
