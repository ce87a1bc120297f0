// The Kafka source's readers (kafka_source.h): fetch their partitions from the offsets of their
// splits, decode the records into batches, and keep the next offset of each partition. In a
// consumer group the partitions come from the group instead, and the reader keeps per partition
// where its epoch (the reads since its last checkpoint) started too: its position is the ranges
// read (source_offsets.h).

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "floe/stream/connectors/kafka/kafka_client_internal.h"
#include "floe/stream/connectors/kafka/kafka_rows_internal.h"
#include "floe/stream/connectors/kafka/kafka_source_internal.h"
#include "floe/stream/connectors/kafka/kafka_split_internal.h"
#include "floe/stream/metrics.h"
#include "floe/stream/source_offsets.h"

namespace floe::stream {
namespace {

// Partition errors that no waiting mends: the job fails. Others (a broker away) are retried by
// librdkafka.
bool Fatal(rd_kafka_resp_err_t error) {
  switch (error) {
    case RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET:
    case RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE:
    case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
    case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR__FATAL:
      return true;
    default:
      return false;
  }
}

// A partition's name in offset ranges and maps: "topic:partition".
std::string NameOf(const TopicPartition& partition) {
  return fmt::format("{}:{}", partition.topic, partition.partition);
}

class KafkaReader : public SourceReader {
 public:
  explicit KafkaReader(std::shared_ptr<const KafkaSource> source)
      : source_(std::move(source)), options_(source_->options()) {}

  Status Open(const OperatorContext& context, SourceReaderContext& reader_context) override {
    reader_context_ = &reader_context;
    metrics_ = context.metrics;
    skipped_metric_ =
        fmt::format("{}.{}.recordsSkipped", context.operator_name, context.subtask_index);
    FLOE_ASSIGN_OR_RETURN(rows_, KafkaRows::Make(source_->schema(), options_, source_->table()));
    if (options_.consumer_group) {
      // The table, not the checkpoint, says where each partition resumes.
      FLOE_ASSIGN_OR_RETURN(consumer_,
                            KafkaConsumer::MakeMember(
                                options_.properties,
                                [this](bool given, const std::vector<TopicPartition>& partitions) {
                                  return given ? Given(partitions) : TakenAway(partitions);
                                }));
      return consumer_->Subscribe(options_.topics, options_.topic_pattern);
    }
    FLOE_ASSIGN_OR_RETURN(consumer_, KafkaConsumer::Make(options_.properties));
    for (const std::string& entry : context.restored_state) {
      auto json = Json::Parse(entry);
      if (!json) return CorruptData("kafka source reader state: {}", entry);
      auto split = SplitFromJson(*json);
      if (!split) return CorruptData("kafka source reader state: {}", entry);
      Add(std::move(*split));
    }
    return Ok();
  }

  void AddSplits(std::vector<std::any> splits) override {
    for (std::any& split : splits) Add(std::any_cast<KafkaSplit>(std::move(split)));
  }

  void NotifyNoMoreSplits() override { no_more_splits_ = true; }

  Result<PollStatus> PollNext(Output& output) override {
    if (options_.consumer_group) {
      // Polled with no partitions too: that is where the group's assignments arrive.
      FLOE_ASSIGN_OR_RETURN(size_t polled, consumer_->Poll(messages_, options_.batch_size, 0));
      FLOE_RETURN_IF_ERROR(Decode(output));
      return polled > 0 ? PollStatus::kMoreAvailable : PollStatus::kNothingNow;
    }
    if (!requested_) {
      requested_ = true;
      reader_context_->RequestSplit();
    }
    if (reassign_) FLOE_RETURN_IF_ERROR(Reassign());
    if (unfinished_ == 0) return no_more_splits_ ? PollStatus::kEnd : PollStatus::kNothingNow;
    FLOE_ASSIGN_OR_RETURN(size_t polled, consumer_->Poll(messages_, options_.batch_size, 0));
    FLOE_RETURN_IF_ERROR(Decode(output));
    if (reassign_) FLOE_RETURN_IF_ERROR(Reassign());
    return polled > 0 ? PollStatus::kMoreAvailable : PollStatus::kNothingNow;
  }

  Result<std::vector<std::string>> SnapshotState(int64_t checkpoint_id) override {
    if (options_.consumer_group) return SnapshotEpoch(checkpoint_id);
    std::vector<std::string> entries;
    PartitionOffsets offsets;
    for (const KafkaSplit& split : splits_) {
      entries.push_back(SplitToJson(split).Dump());
      offsets[split.partition] = split.offset;
    }
    if (options_.group_id) to_commit_[checkpoint_id] = std::move(offsets);
    return entries;
  }

  // Done with checkpoint N everywhere (the sinks committed it): the group hears of its offsets.
  Status NotifyCheckpointComplete(int64_t checkpoint_id) override {
    auto last = to_commit_.upper_bound(checkpoint_id);
    if (last == to_commit_.begin()) return Ok();
    Status committed = consumer_->CommitAsync(std::prev(last)->second);
    to_commit_.erase(to_commit_.begin(), last);
    return committed;
  }

  std::optional<std::string> Position() const override {
    if (options_.consumer_group) return ranges_;
    if (splits_.empty()) return std::nullopt;
    return EncodePosition(splits_);
  }

 private:
  Status Decode(Output& output) {
    for (KafkaMessage& message : messages_) FLOE_RETURN_IF_ERROR(Handle(*message));
    messages_.clear();
    if (metrics_ != nullptr && rows_->skipped() != skipped_reported_) {
      metrics_->Add(skipped_metric_, rows_->skipped() - skipped_reported_);
      skipped_reported_ = rows_->skipped();
    }
    FLOE_ASSIGN_OR_RETURN(std::optional<RecordBatch> batch, rows_->Finish());
    if (batch) FLOE_RETURN_IF_ERROR(output.Emit(std::move(*batch)));
    return Ok();
  }

  // The group gives partitions: each starts where this reader left it in this epoch (taken away
  // and given back before a checkpoint), else at the table's committed offset, else by
  // scan.startup.mode; the epoch starts there.
  Result<PartitionOffsets> Given(const std::vector<TopicPartition>& partitions) {
    NamedOffsets committed;
    if (source_->committed_offsets()) {
      FLOE_ASSIGN_OR_RETURN(std::optional<std::string> text, source_->committed_offsets()());
      if (text) {
        FLOE_ASSIGN_OR_RETURN(committed, ParseOffsets(*text));
      }
    }
    PartitionOffsets starts;
    std::vector<TopicPartition> unresolved;
    for (const TopicPartition& partition : partitions) {
      if (auto left = taken_away_.find(partition); left != taken_away_.end()) {
        starts[partition] = left->second;
        taken_away_.erase(left);
      } else if (auto at = committed.find(NameOf(partition)); at != committed.end()) {
        starts[partition] = at->second;
        epoch_from_[partition] = at->second;
      } else {
        unresolved.push_back(partition);
        epoch_from_[partition] = std::nullopt;
      }
    }
    FLOE_ASSIGN_OR_RETURN(PartitionOffsets resolved, StartOf(unresolved));
    starts.merge(resolved);
    for (const auto& [partition, offset] : starts) {
      auto at = std::lower_bound(
          splits_.begin(), splits_.end(), partition,
          [](const KafkaSplit& s, const TopicPartition& p) { return s.partition < p; });
      splits_.insert(at, KafkaSplit{.partition = partition, .offset = offset});
    }
    last_ = nullptr;
    return starts;
  }

  // Partitions the table has no offset for, by scan.startup.mode (earliest, latest, or the
  // group's offset and then properties.auto.offset.reset).
  Result<PartitionOffsets> StartOf(const std::vector<TopicPartition>& partitions) {
    using Mode = KafkaOffsetSpec::Mode;
    PartitionOffsets starts;
    std::map<TopicPartition, std::optional<int64_t>> group;
    if (options_.startup.mode == Mode::kGroup && !partitions.empty()) {
      FLOE_ASSIGN_OR_RETURN(group, consumer_->Committed(partitions));
    }
    for (const TopicPartition& partition : partitions) {
      if (auto at = group.find(partition); at != group.end() && at->second) {
        starts[partition] = *at->second;
        continue;
      }
      Mode mode = options_.startup.mode;
      if (mode == Mode::kGroup) {
        std::optional<Mode> reset = options_.OffsetReset();
        if (!reset) {
          return InvalidArgument(
              "kafka {}: neither the table nor group {} has a committed offset; set "
              "'properties.auto.offset.reset' to earliest or latest, or another "
              "scan.startup.mode",
              Describe(partition), *options_.group_id);
        }
        mode = *reset;
      }
      FLOE_ASSIGN_OR_RETURN(auto watermarks, consumer_->Watermarks(partition));
      starts[partition] = mode == Mode::kEarliest ? watermarks.first : watermarks.second;
    }
    return starts;
  }

  // The group takes partitions away: what was read of them in this epoch still commits with the
  // next checkpoint (its records are on their way to the sink).
  Result<PartitionOffsets> TakenAway(const std::vector<TopicPartition>& partitions) {
    for (const TopicPartition& partition : partitions) {
      auto at = std::find_if(splits_.begin(), splits_.end(),
                             [&](const KafkaSplit& s) { return s.partition == partition; });
      if (at == splits_.end()) continue;
      const std::optional<int64_t>& from = epoch_from_[partition];
      if (!from || *from != at->offset) {
        taken_away_[partition] = at->offset;
      } else {
        epoch_from_.erase(partition);
      }
      splits_.erase(at);
    }
    last_ = nullptr;
    return PartitionOffsets{};
  }

  // A checkpoint ends the epoch: the ranges read in it are the position, the next epoch starts
  // where this one ended.
  Result<std::vector<std::string>> SnapshotEpoch(int64_t checkpoint_id) {
    OffsetRanges ranges;
    PartitionOffsets offsets;
    for (const KafkaSplit& split : splits_) {
      std::optional<int64_t>& from = epoch_from_[split.partition];
      if (!from || *from != split.offset) {
        ranges[NameOf(split.partition)] = OffsetRange{.from = from, .to = split.offset};
      }
      from = split.offset;
      offsets[split.partition] = split.offset;
    }
    for (const auto& [partition, offset] : taken_away_) {
      ranges[NameOf(partition)] = OffsetRange{.from = epoch_from_[partition], .to = offset};
      epoch_from_.erase(partition);
    }
    taken_away_.clear();
    ranges_ = ranges.empty() ? std::nullopt : std::optional<std::string>(EncodeRanges(ranges));
    to_commit_[checkpoint_id] = std::move(offsets);
    return std::vector<std::string>{};
  }

  void Add(KafkaSplit split) {
    auto at = std::lower_bound(
        splits_.begin(), splits_.end(), split.partition,
        [](const KafkaSplit& s, const TopicPartition& p) { return s.partition < p; });
    splits_.insert(at, std::move(split));
    last_ = nullptr;
    reassign_ = true;
  }

  // Fetches the unfinished splits from their offsets.
  Status Reassign() {
    reassign_ = false;
    PartitionOffsets offsets;
    for (const KafkaSplit& split : splits_) {
      if (!split.finished()) offsets[split.partition] = split.offset;
    }
    unfinished_ = offsets.size();
    return consumer_->Assign(offsets);
  }

  KafkaSplit* Find(const rd_kafka_message_t& message) {
    const char* topic = rd_kafka_topic_name(message.rkt);
    if (last_ != nullptr && last_->partition.partition == message.partition &&
        last_topic_ == topic) {
      return last_;
    }
    for (KafkaSplit& split : splits_) {
      if (split.partition.partition == message.partition && split.partition.topic == topic) {
        last_ = &split;
        last_topic_ = topic;
        return last_;
      }
    }
    return nullptr;
  }

  Status Handle(const rd_kafka_message_t& message) {
    if (message.rkt == nullptr) {
      // A client-wide event: a fatal error ends the job, others (brokers down) pass.
      if (message.err == RD_KAFKA_RESP_ERR__FATAL) {
        char reason[512];
        rd_kafka_fatal_error(nullptr, reason, sizeof(reason));
        return IOError("kafka: {}", reason);
      }
      return Ok();
    }
    KafkaSplit* split = Find(message);
    if (split == nullptr || split->finished()) return Ok();
    if (message.err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
      // Every record before the end was delivered: offsets skipped by control records count.
      split->offset = std::max(split->offset, message.offset);
      Finished(*split);
      return Ok();
    }
    if (message.err) {
      if (!Fatal(message.err)) return Ok();
      if (message.err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET ||
          message.err == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE) {
        return OutOfRange(*split, message);
      }
      return IOError("kafka {} offset {}: {}", Describe(split->partition), split->offset,
                     rd_kafka_message_errstr(&message));
    }
    // Behind the split: fetched before an assignment moved it.
    if (message.offset < split->offset) return Ok();
    // Past the end of a bounded read (offsets may have gaps).
    if (split->end && message.offset >= *split->end) {
      split->offset = *split->end;
      Finished(*split);
      return Ok();
    }
    Status decoded = rows_->Decode(message);
    if (!decoded) {
      return InvalidArgument("kafka {} offset {}: {}", Describe(split->partition), message.offset,
                             decoded.error().message());
    }
    split->offset = message.offset + 1;
    Finished(*split);
    return Ok();
  }

  // The partition no longer holds the offset to read from (retention deleted it, or it is past
  // the end): never skipped silently, the records in between would be lost.
  Status OutOfRange(const KafkaSplit& split, const rd_kafka_message_t& message) {
    auto watermarks = consumer_->Watermarks(split.partition);
    std::string holds =
        watermarks ? fmt::format("offsets {}..{}", watermarks->first, watermarks->second - 1)
                   : watermarks.error().message();
    return IOError(
        "kafka {} offset {}: out of range, the partition holds {} (records deleted by retention "
        "before the job read them?); 'properties.auto.offset.reset' = 'earliest' or 'latest' "
        "would skip to there: {}",
        Describe(split.partition), split.offset, holds, rd_kafka_message_errstr(&message));
  }

  void Finished(const KafkaSplit& split) {
    if (split.finished()) reassign_ = true;
  }

  std::shared_ptr<const KafkaSource> source_;
  const KafkaOptions& options_;
  SourceReaderContext* reader_context_ = nullptr;
  MetricGroup* metrics_ = nullptr;
  std::string skipped_metric_;
  int64_t skipped_reported_ = 0;
  std::unique_ptr<KafkaConsumer> consumer_;
  std::unique_ptr<KafkaRows> rows_;
  std::vector<KafkaSplit> splits_;  // in partition order
  size_t unfinished_ = 0;
  KafkaSplit* last_ = nullptr;  // the split of the last message, and its topic name's pointer
  const char* last_topic_ = nullptr;
  std::vector<KafkaMessage> messages_;
  std::map<int64_t, PartitionOffsets> to_commit_;  // by checkpoint
  // In a consumer group: per partition read in this epoch, the offset it started from (nullopt:
  // the table had none); the partitions taken away in it, with their next offsets; the ranges of
  // the last checkpoint.
  std::map<TopicPartition, std::optional<int64_t>> epoch_from_;
  PartitionOffsets taken_away_;
  std::optional<std::string> ranges_;
  bool requested_ = false;
  bool no_more_splits_ = false;
  bool reassign_ = false;
};

}  // namespace

std::unique_ptr<SourceReader> MakeKafkaReader(std::shared_ptr<const KafkaSource> source) {
  return std::make_unique<KafkaReader>(std::move(source));
}

}  // namespace floe::stream
