#include <fmt/format.h>

#include <regex>

#include "floe/stream/connectors/kafka/kafka_client_internal.h"

namespace floe::stream {
namespace {

struct ListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* list) const {
    rd_kafka_topic_partition_list_destroy(list);
  }
};
using PartitionList = std::unique_ptr<rd_kafka_topic_partition_list_t, ListDeleter>;

PartitionList ToList(const std::vector<TopicPartition>& partitions) {
  PartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(partitions.size())));
  for (const TopicPartition& p : partitions) {
    rd_kafka_topic_partition_list_add(list.get(), p.topic.c_str(), p.partition);
  }
  return list;
}

PartitionList ToList(const PartitionOffsets& offsets) {
  PartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(offsets.size())));
  for (const auto& [p, offset] : offsets) {
    rd_kafka_topic_partition_list_add(list.get(), p.topic.c_str(), p.partition)->offset = offset;
  }
  return list;
}

Error KafkaError(rd_kafka_resp_err_t error, std::string_view what) {
  return Error(ErrorKind::kIO, fmt::format("kafka: {}: {}", what, rd_kafka_err2str(error)));
}

// Per partition of `list`, its offset, or nullopt for a negative (logical: none) one.
Result<std::map<TopicPartition, std::optional<int64_t>>> Offsets(
    const rd_kafka_topic_partition_list_t& list, std::string_view what) {
  std::map<TopicPartition, std::optional<int64_t>> offsets;
  for (int i = 0; i < list.cnt; ++i) {
    const rd_kafka_topic_partition_t& element = list.elems[i];
    TopicPartition p{element.topic, element.partition};
    if (element.err) {
      return std::unexpected(KafkaError(element.err, fmt::format("{}: {}", what, Describe(p))));
    }
    offsets[p] = element.offset >= 0 ? std::optional<int64_t>(element.offset) : std::nullopt;
  }
  return offsets;
}

}  // namespace

std::string Describe(const TopicPartition& partition) {
  return fmt::format("topic {} partition {}", partition.topic, partition.partition);
}

Result<std::unique_ptr<KafkaConsumer>> KafkaConsumer::Make(
    const std::map<std::string, std::string>& properties) {
  return Open(properties, nullptr);
}

Result<std::unique_ptr<KafkaConsumer>> KafkaConsumer::MakeMember(
    const std::map<std::string, std::string>& properties, Rebalance rebalance) {
  std::map<std::string, std::string> all = {
      {"partition.assignment.strategy", "cooperative-sticky"}};
  for (const auto& [key, value] : properties) all[key] = value;
  return Open(all, std::move(rebalance));
}

Result<std::unique_ptr<KafkaConsumer>> KafkaConsumer::Open(
    const std::map<std::string, std::string>& properties, Rebalance rebalance) {
  std::map<std::string, std::string> all = {
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      {"enable.partition.eof", "true"},
      // Assigning needs a group, even one never joined; properties.group.id replaces it.
      {"group.id", "floe-kafka-source"},
      // An offset that no longer exists fails the read instead of skipping or re-reading.
      {"auto.offset.reset", "error"},
  };
  for (const auto& [key, value] : properties) all[key] = value;
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char reason[512];
  for (const auto& [key, value] : all) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), reason, sizeof(reason)) !=
        RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return InvalidArgument("kafka property '{}': {}", key, reason);
    }
  }
  auto consumer = std::unique_ptr<KafkaConsumer>(new KafkaConsumer());
  if (rebalance) {
    consumer->rebalance_ = std::move(rebalance);
    rd_kafka_conf_set_opaque(conf, consumer.get());
    rd_kafka_conf_set_rebalance_cb(conf, &KafkaConsumer::OnRebalance);
  }
  consumer->handle_ = rd_kafka_new(RD_KAFKA_CONSUMER, conf, reason, sizeof(reason));
  if (consumer->handle_ == nullptr) {
    rd_kafka_conf_destroy(conf);
    return InvalidArgument("kafka: cannot make a consumer: {}", reason);
  }
  consumer->queue_ = rd_kafka_queue_get_consumer(consumer->handle_);
  return consumer;
}

KafkaConsumer::~KafkaConsumer() {
  // Leaving the group takes the partitions away: nobody is told any more.
  rebalance_ = nullptr;
  if (queue_ != nullptr) rd_kafka_queue_destroy(queue_);
  if (handle_ != nullptr) {
    if (rd_kafka_opaque(handle_) == nullptr) rd_kafka_assign(handle_, nullptr);
    rd_kafka_consumer_close(handle_);
    rd_kafka_destroy(handle_);
  }
}

Result<std::vector<TopicPartition>> KafkaConsumer::Partitions(
    const std::vector<std::string>& topics, const std::optional<std::string>& pattern) {
  std::optional<std::regex> regex;
  if (pattern) {
    try {
      regex.emplace(*pattern);
    } catch (const std::regex_error& e) {
      return InvalidArgument("kafka option 'topic-pattern': '{}': {}", *pattern, e.what());
    }
  }
  std::vector<TopicPartition> partitions;
  auto add = [&](const rd_kafka_metadata_topic_t& topic) -> Status {
    if (topic.err) return std::unexpected(KafkaError(topic.err, "topic " + std::string(topic.topic)));
    for (int p = 0; p < topic.partition_cnt; ++p) {
      partitions.push_back(TopicPartition{topic.topic, topic.partitions[p].id});
    }
    return Ok();
  };
  auto metadata_of = [&](rd_kafka_topic_t* topic) -> Result<const rd_kafka_metadata_t*> {
    const rd_kafka_metadata_t* metadata = nullptr;
    rd_kafka_resp_err_t error =
        rd_kafka_metadata(handle_, topic == nullptr ? 1 : 0, topic, &metadata, kTimeoutMs);
    if (error) return std::unexpected(KafkaError(error, "reading metadata"));
    return metadata;
  };
  if (regex) {
    FLOE_ASSIGN_OR_RETURN(const rd_kafka_metadata_t* metadata, metadata_of(nullptr));
    Status status;
    for (int t = 0; t < metadata->topic_cnt && status; ++t) {
      if (std::regex_match(metadata->topics[t].topic, *regex)) status = add(metadata->topics[t]);
    }
    rd_kafka_metadata_destroy(metadata);
    FLOE_RETURN_IF_ERROR(status);
  } else {
    for (const std::string& name : topics) {
      rd_kafka_topic_t* topic = rd_kafka_topic_new(handle_, name.c_str(), nullptr);
      auto metadata = metadata_of(topic);
      rd_kafka_topic_destroy(topic);
      if (!metadata) return std::unexpected(metadata.error());
      Status status = (*metadata)->topic_cnt == 1
                          ? add((*metadata)->topics[0])
                          : Status(NotFound("kafka: topic {} is not in the metadata", name));
      rd_kafka_metadata_destroy(*metadata);
      FLOE_RETURN_IF_ERROR(status);
    }
  }
  std::sort(partitions.begin(), partitions.end());
  return partitions;
}

Result<std::pair<int64_t, int64_t>> KafkaConsumer::Watermarks(const TopicPartition& partition) {
  int64_t low = 0, high = 0;
  rd_kafka_resp_err_t error = rd_kafka_query_watermark_offsets(
      handle_, partition.topic.c_str(), partition.partition, &low, &high, kTimeoutMs);
  if (error) return std::unexpected(KafkaError(error, "offsets of " + Describe(partition)));
  return std::pair(low, high);
}

Result<std::map<TopicPartition, std::optional<int64_t>>> KafkaConsumer::OffsetsForTimes(
    const std::vector<TopicPartition>& partitions, int64_t timestamp_ms) {
  PartitionList list = ToList(partitions);
  for (int i = 0; i < list->cnt; ++i) list->elems[i].offset = timestamp_ms;
  rd_kafka_resp_err_t error = rd_kafka_offsets_for_times(handle_, list.get(), kTimeoutMs);
  if (error) return std::unexpected(KafkaError(error, "offsets for a timestamp"));
  return Offsets(*list, "offsets for a timestamp");
}

Result<std::map<TopicPartition, std::optional<int64_t>>> KafkaConsumer::Committed(
    const std::vector<TopicPartition>& partitions) {
  PartitionList list = ToList(partitions);
  rd_kafka_resp_err_t error = rd_kafka_committed(handle_, list.get(), kTimeoutMs);
  if (error) return std::unexpected(KafkaError(error, "the group's committed offsets"));
  return Offsets(*list, "the group's committed offsets");
}

Status KafkaConsumer::Subscribe(const std::vector<std::string>& topics,
                                const std::optional<std::string>& pattern) {
  // librdkafka takes a name starting with '^' as a regular expression.
  PartitionList list(rd_kafka_topic_partition_list_new(static_cast<int>(topics.size()) + 1));
  if (pattern) {
    rd_kafka_topic_partition_list_add(list.get(), ("^(" + *pattern + ")$").c_str(),
                                      RD_KAFKA_PARTITION_UA);
  }
  for (const std::string& topic : topics) {
    rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), RD_KAFKA_PARTITION_UA);
  }
  rd_kafka_resp_err_t error = rd_kafka_subscribe(handle_, list.get());
  if (error) return std::unexpected(KafkaError(error, "joining the consumer group"));
  return Ok();
}

void KafkaConsumer::OnRebalance(rd_kafka_t* /*handle*/, rd_kafka_resp_err_t event,
                                rd_kafka_topic_partition_list_t* partitions, void* opaque) {
  auto* consumer = static_cast<KafkaConsumer*>(opaque);
  Status handled = consumer->HandleRebalance(event, partitions);
  if (!handled && consumer->rebalance_error_) consumer->rebalance_error_ = handled;
}

Status KafkaConsumer::HandleRebalance(rd_kafka_resp_err_t event,
                                      rd_kafka_topic_partition_list_t* partitions) {
  const bool cooperative = std::string_view(rd_kafka_rebalance_protocol(handle_)) == "COOPERATIVE";
  const bool given = event == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS;
  std::vector<TopicPartition> changed;
  for (int i = 0; i < partitions->cnt; ++i) {
    changed.push_back(TopicPartition{partitions->elems[i].topic, partitions->elems[i].partition});
  }
  Status handled;
  if (rebalance_) {
    Result<PartitionOffsets> offsets = rebalance_(given, changed);
    if (!offsets) {
      handled = std::unexpected(offsets.error());
    } else if (given) {
      for (int i = 0; i < partitions->cnt; ++i) {
        auto at = offsets->find(changed[i]);
        if (at != offsets->end()) partitions->elems[i].offset = at->second;
      }
    }
  }
  if (given && handled) {
    if (cooperative) {
      if (rd_kafka_error_t* error = rd_kafka_incremental_assign(handle_, partitions)) {
        handled =
            IOError("kafka: taking partitions from the group: {}", rd_kafka_error_string(error));
        rd_kafka_error_destroy(error);
      }
    } else if (rd_kafka_resp_err_t error = rd_kafka_assign(handle_, partitions)) {
      handled = std::unexpected(KafkaError(error, "taking partitions from the group"));
    }
  } else if (cooperative) {
    if (rd_kafka_error_t* error = rd_kafka_incremental_unassign(handle_, partitions)) {
      rd_kafka_error_destroy(error);
    }
  } else {
    rd_kafka_assign(handle_, nullptr);
  }
  return handled;
}

Status KafkaConsumer::Assign(const PartitionOffsets& offsets) {
  PartitionList list = ToList(offsets);
  rd_kafka_resp_err_t error = rd_kafka_assign(handle_, list.get());
  if (error) return std::unexpected(KafkaError(error, "assigning partitions"));
  return Ok();
}

Result<size_t> KafkaConsumer::Poll(std::vector<KafkaMessage>& messages, size_t max,
                                   int timeout_ms) {
  raw_.resize(max);
  ssize_t n = rd_kafka_consume_batch_queue(queue_, timeout_ms, raw_.data(), max);
  if (!rebalance_error_) {
    Status error = std::exchange(rebalance_error_, Status());
    for (ssize_t i = 0; i < n; ++i) rd_kafka_message_destroy(raw_[i]);
    return std::unexpected(error.error());
  }
  if (n < 0) {
    return std::unexpected(KafkaError(rd_kafka_last_error(), "reading messages"));
  }
  messages.clear();
  for (ssize_t i = 0; i < n; ++i) messages.emplace_back(raw_[i]);
  return static_cast<size_t>(n);
}

Status KafkaConsumer::CommitAsync(const PartitionOffsets& offsets) {
  if (offsets.empty()) return Ok();
  PartitionList list = ToList(offsets);
  rd_kafka_resp_err_t error = rd_kafka_commit(handle_, list.get(), 1);
  if (error) return std::unexpected(KafkaError(error, "committing offsets to the group"));
  return Ok();
}

}  // namespace floe::stream
