// The Kafka source's enumerator (kafka_source.h): finds partitions, resolves where each starts
// and ends to offsets, and hands each to its reader subtask.

#include <set>

#include "floe/stream/connectors/kafka/kafka_client_internal.h"
#include "floe/stream/connectors/kafka/kafka_source_internal.h"
#include "floe/stream/connectors/kafka/kafka_split_internal.h"

namespace floe::stream {
namespace {

using Mode = KafkaOffsetSpec::Mode;

class KafkaEnumerator : public SplitEnumerator {
 public:
  explicit KafkaEnumerator(std::shared_ptr<const KafkaSource> source)
      : source_(std::move(source)), options_(source_->options()) {}

  Status Start(SplitEnumeratorContext& context, std::optional<std::string> restored) override {
    context_ = &context;
    pending_.resize(context.parallelism());
    // In a consumer group the group deals the partitions out, not the enumerator.
    if (options_.consumer_group) return Ok();
    FLOE_ASSIGN_OR_RETURN(consumer_, KafkaConsumer::Make(options_.properties));
    if (restored) return Restore(*restored);
    FLOE_ASSIGN_OR_RETURN(auto partitions,
                          consumer_->Partitions(options_.topics, options_.topic_pattern));
    return AddPartitions(partitions, true);
  }

  Status HandleSplitRequest(int subtask) override {
    Hand(subtask);
    // Bounded reads discover nothing later: a reader is done once its partitions end.
    if (source_->bounded()) context_->SignalNoMoreSplits(subtask);
    return Ok();
  }

  Status Tick(int64_t now_ms) override {
    if (source_->bounded() || options_.consumer_group || options_.discovery_interval_ms == 0) {
      return Ok();
    }
    if (last_discovery_ms_ == 0) last_discovery_ms_ = now_ms;
    if (now_ms - last_discovery_ms_ < options_.discovery_interval_ms) return Ok();
    last_discovery_ms_ = now_ms;
    FLOE_ASSIGN_OR_RETURN(auto partitions,
                          consumer_->Partitions(options_.topics, options_.topic_pattern));
    std::vector<TopicPartition> added;
    for (TopicPartition& partition : partitions) {
      if (!known_.contains(partition)) added.push_back(std::move(partition));
    }
    if (added.empty()) return Ok();
    FLOE_RETURN_IF_ERROR(AddPartitions(added, false));
    for (int subtask = 0; subtask < context_->parallelism(); ++subtask) Hand(subtask);
    return Ok();
  }

  Result<std::string> SnapshotState(int64_t) override {
    Json state = Json::MakeObject();
    Json known = Json::MakeArray();
    for (const TopicPartition& partition : known_) {
      Json item = Json::MakeArray();
      item.Push(partition.topic);
      item.Push(int64_t{partition.partition});
      known.Push(std::move(item));
    }
    Json pending = Json::MakeArray();
    for (const auto& splits : pending_) {
      for (const KafkaSplit& split : splits) pending.Push(SplitToJson(split));
    }
    state.Set("known", std::move(known));
    state.Set("pending", std::move(pending));
    return state.Dump();
  }

 private:
  void Hand(int subtask) {
    if (pending_[subtask].empty()) return;
    std::vector<std::any> splits;
    for (KafkaSplit& split : pending_[subtask]) splits.emplace_back(std::move(split));
    pending_[subtask].clear();
    context_->AssignSplits(subtask, std::move(splits));
  }

  Status Restore(const std::string& text) {
    auto state = Json::Parse(text);
    auto bad = [&] { return CorruptData("kafka source enumerator state: {}", text); };
    if (!state || !state->is_object()) return bad();
    auto known = state->GetArray("known");
    auto pending = state->GetArray("pending");
    if (!known || !pending) return bad();
    for (const Json& item : **known) {
      if (!item.is_array() || item.as_array().size() != 2 || !item.as_array()[0].is_string() ||
          !item.as_array()[1].is_int()) {
        return bad();
      }
      known_.insert(TopicPartition{item.as_array()[0].as_string(),
                                   static_cast<int32_t>(item.as_array()[1].as_int())});
    }
    for (const Json& item : **pending) {
      auto split = SplitFromJson(item);
      if (!split) return bad();
      pending_[OwnerOf(split->partition, context_->parallelism())].push_back(std::move(*split));
    }
    return Ok();
  }

  // New partitions: their splits, from where they start to where they end. Partitions found at
  // the start follow scan.startup.mode (after the positions a sink committed); those found later
  // are new and read from their start.
  Status AddPartitions(const std::vector<TopicPartition>& partitions, bool initial) {
    PartitionOffsets committed;
    if (initial && source_->committed()) {
      FLOE_ASSIGN_OR_RETURN(std::vector<std::string> positions, source_->committed()());
      for (const std::string& text : positions) {
        FLOE_ASSIGN_OR_RETURN(PartitionOffsets offsets, ParsePosition(text));
        // Newest first: an older commit's offset of a partition never replaces a newer one.
        committed.merge(offsets);
      }
    }
    std::vector<TopicPartition> unresolved;
    for (const TopicPartition& partition : partitions) {
      if (!committed.contains(partition)) unresolved.push_back(partition);
    }
    KafkaOffsetSpec earliest{.mode = Mode::kEarliest};
    FLOE_ASSIGN_OR_RETURN(PartitionOffsets starts,
                          Resolve(initial ? options_.startup : earliest, unresolved, true));
    starts.merge(committed);
    PartitionOffsets ends;
    if (source_->bounded()) {
      FLOE_ASSIGN_OR_RETURN(ends, Resolve(options_.bounded, partitions, false));
    }
    for (const TopicPartition& partition : partitions) {
      KafkaSplit split{.partition = partition, .offset = starts.at(partition)};
      if (source_->bounded()) split.end = ends.at(partition);
      known_.insert(partition);
      pending_[OwnerOf(partition, context_->parallelism())].push_back(std::move(split));
    }
    return Ok();
  }

  // Offsets of the partitions by `spec`: where they start, or (`start` false) end.
  Result<PartitionOffsets> Resolve(const KafkaOffsetSpec& spec,
                                   const std::vector<TopicPartition>& partitions, bool start) {
    PartitionOffsets offsets;
    if (partitions.empty()) return offsets;
    const char* option = start ? "scan.startup.mode" : "scan.bounded.mode";
    std::map<TopicPartition, std::optional<int64_t>> found;
    if (spec.mode == Mode::kTimestamp) {
      FLOE_ASSIGN_OR_RETURN(found, consumer_->OffsetsForTimes(partitions, spec.timestamp_ms));
    } else if (spec.mode == Mode::kGroup) {
      FLOE_ASSIGN_OR_RETURN(found, consumer_->Committed(partitions));
    }
    for (const TopicPartition& partition : partitions) {
      std::optional<int64_t> offset;
      Mode fallback = start ? Mode::kEarliest : Mode::kLatest;
      if (spec.mode == Mode::kEarliest || spec.mode == Mode::kLatest) {
        fallback = spec.mode;
      } else if (spec.mode == Mode::kSpecific) {
        for (const std::string& topic : {partition.topic, std::string()}) {
          auto of_topic = spec.offsets.find(topic);
          if (of_topic == spec.offsets.end()) continue;
          auto at = of_topic->second.find(partition.partition);
          if (at != of_topic->second.end()) offset = at->second;
        }
      } else if (spec.mode == Mode::kTimestamp) {
        offset = found.at(partition);
        // No record at or after the timestamp: the partition's end.
        fallback = Mode::kLatest;
      } else {
        offset = found.at(partition);
        if (!offset) {
          std::optional<Mode> reset = start ? options_.OffsetReset() : std::nullopt;
          if (!reset) {
            return InvalidArgument(
                "kafka {}: group {} has no committed offset{}; set "
                "'properties.auto.offset.reset' to earliest or latest, or another {}",
                Describe(partition), *options_.group_id,
                start ? "" : " to end at", option);
          }
          fallback = *reset;
        }
      }
      if (!offset) {
        FLOE_ASSIGN_OR_RETURN(auto watermarks, consumer_->Watermarks(partition));
        offset = fallback == Mode::kEarliest ? watermarks.first : watermarks.second;
      }
      offsets[partition] = *offset;
    }
    return offsets;
  }

  std::shared_ptr<const KafkaSource> source_;
  const KafkaOptions& options_;
  SplitEnumeratorContext* context_ = nullptr;
  std::unique_ptr<KafkaConsumer> consumer_;
  std::set<TopicPartition> known_;
  std::vector<std::vector<KafkaSplit>> pending_;  // by owner subtask
  int64_t last_discovery_ms_ = 0;
};

}  // namespace

std::unique_ptr<SplitEnumerator> MakeKafkaEnumerator(std::shared_ptr<const KafkaSource> source) {
  return std::make_unique<KafkaEnumerator>(std::move(source));
}

}  // namespace floe::stream
