#include <charconv>

#include "floe/stream/connectors/kafka/kafka_split_internal.h"

namespace floe::stream {

Json SplitToJson(const KafkaSplit& split) {
  Json json = Json::MakeObject();
  json.Set("topic", split.partition.topic);
  json.Set("partition", int64_t{split.partition.partition});
  json.Set("offset", split.offset);
  if (split.end) json.Set("end", *split.end);
  return json;
}

Result<KafkaSplit> SplitFromJson(const Json& json) {
  KafkaSplit split;
  FLOE_ASSIGN_OR_RETURN(split.partition.topic, json.GetString("topic"));
  FLOE_ASSIGN_OR_RETURN(int64_t partition, json.GetInt("partition"));
  FLOE_ASSIGN_OR_RETURN(split.offset, json.GetInt("offset"));
  FLOE_ASSIGN_OR_RETURN(split.end, json.GetOptionalInt("end"));
  if (partition < 0 || partition > INT32_MAX || split.offset < 0) {
    return CorruptData("kafka split: {}", json.Dump());
  }
  split.partition.partition = static_cast<int32_t>(partition);
  return split;
}

std::string EncodePosition(const std::vector<KafkaSplit>& splits) {
  std::string text;
  for (const KafkaSplit& split : splits) {
    if (!text.empty()) text += ',';
    text += split.partition.topic;
    text += ':';
    text += std::to_string(split.partition.partition);
    text += ':';
    text += std::to_string(split.offset);
  }
  return text;
}

Result<PartitionOffsets> ParsePosition(std::string_view text) {
  PartitionOffsets offsets;
  auto bad = [&] { return CorruptData("'{}' is not a Kafka source position", text); };
  std::string_view rest = text;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    size_t last = item.rfind(':');
    size_t middle = last == std::string_view::npos ? last : item.rfind(':', last - 1);
    if (middle == std::string_view::npos || middle == 0) return bad();
    int32_t partition = 0;
    int64_t offset = 0;
    std::string_view p = item.substr(middle + 1, last - middle - 1);
    std::string_view o = item.substr(last + 1);
    auto [pe, pec] = std::from_chars(p.data(), p.data() + p.size(), partition);
    auto [oe, oec] = std::from_chars(o.data(), o.data() + o.size(), offset);
    if (pec != std::errc() || pe != p.data() + p.size() || oec != std::errc() ||
        oe != o.data() + o.size() || partition < 0 || offset < 0) {
      return bad();
    }
    offsets[TopicPartition{std::string(item.substr(0, middle)), partition}] = offset;
  }
  return offsets;
}

int OwnerOf(const TopicPartition& partition, int parallelism) {
  // FNV-1a of the topic: the same in every process and build.
  uint32_t hash = 2166136261u;
  for (char c : partition.topic) hash = (hash ^ static_cast<uint8_t>(c)) * 16777619u;
  return static_cast<int>((hash % static_cast<uint32_t>(parallelism) +
                           static_cast<uint32_t>(partition.partition)) %
                          static_cast<uint32_t>(parallelism));
}

}  // namespace floe::stream
