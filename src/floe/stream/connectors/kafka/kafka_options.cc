#include "floe/stream/connectors/kafka/kafka_options.h"

#include <charconv>

#include "floe/stream/connectors/record_decoder.h"

namespace floe::stream {
namespace {

Result<int64_t> ParseNumber(std::string_view option, std::string_view text, int64_t min) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min) {
    return InvalidArgument("kafka option '{}': '{}' is not a number >= {}", option, text, min);
  }
  return value;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    size_t end = text.find(separator);
    parts.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return parts;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// 'partition:0,offset:42;partition:1,offset:300', each item optionally with 'topic:t,' first.
Result<std::map<std::string, std::map<int32_t, int64_t>>> ParseSpecificOffsets(
    std::string_view option, std::string_view text) {
  std::map<std::string, std::map<int32_t, int64_t>> offsets;
  for (std::string_view item : Split(text, ';')) {
    item = Trim(item);
    if (item.empty()) continue;
    std::string topic;
    std::optional<int64_t> partition, offset;
    for (std::string_view part : Split(item, ',')) {
      size_t colon = part.find(':');
      std::string_view key = Trim(part.substr(0, colon));
      std::string_view value = colon == std::string_view::npos ? "" : Trim(part.substr(colon + 1));
      if (key == "topic" && !value.empty()) {
        topic = value;
      } else if (key == "partition") {
        FLOE_ASSIGN_OR_RETURN(partition, ParseNumber(option, value, 0));
      } else if (key == "offset") {
        FLOE_ASSIGN_OR_RETURN(offset, ParseNumber(option, value, 0));
      } else {
        return InvalidArgument(
            "kafka option '{}': '{}' is not 'partition:N,offset:M' (nor 'topic:T,partition:N,"
            "offset:M')",
            option, item);
      }
    }
    if (!partition || !offset || *partition > INT32_MAX) {
      return InvalidArgument("kafka option '{}': '{}' needs a partition and an offset", option,
                             item);
    }
    offsets[topic][static_cast<int32_t>(*partition)] = *offset;
  }
  if (offsets.empty()) return InvalidArgument("kafka option '{}' names no partition", option);
  return offsets;
}

// A duration: milliseconds, or a number with ms, s, min or h ('5 min' as Flink writes them).
Result<int64_t> ParseDuration(std::string_view option, std::string_view text) {
  if (text == "disabled") return 0;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  std::string_view unit =
      Trim(std::string_view(end, static_cast<size_t>(text.data() + text.size() - end)));
  int64_t scale = unit.empty() || unit == "ms"              ? 1
                  : unit == "s"                             ? 1000
                  : unit == "min"                           ? 60'000
                  : unit == "h"                             ? 3'600'000
                                                            : 0;
  if (ec != std::errc() || scale == 0 || value < 0 || value > INT64_MAX / scale) {
    return InvalidArgument("kafka option '{}': '{}' is not a duration (ms, s, min, h)", option,
                           text);
  }
  return value * scale;
}

// scan.startup.* or scan.bounded.*: mode and its companions, taken out of `options`.
Result<KafkaOffsetSpec> ParseOffsetSpec(std::map<std::string, std::string>& options,
                                        const std::string& prefix, bool startup) {
  KafkaOffsetSpec spec;
  spec.mode = startup ? KafkaOffsetSpec::Mode::kGroup : KafkaOffsetSpec::Mode::kNone;
  const std::string mode_key = prefix + ".mode";
  const std::string offsets_key = prefix + ".specific-offsets";
  const std::string timestamp_key = prefix + ".timestamp-millis";
  if (auto mode = options.extract(mode_key)) {
    const std::string& value = mode.mapped();
    if (value == "earliest-offset" && startup) {
      spec.mode = KafkaOffsetSpec::Mode::kEarliest;
    } else if (value == "unbounded" && !startup) {
      spec.mode = KafkaOffsetSpec::Mode::kNone;
    } else if (value == "latest-offset") {
      spec.mode = KafkaOffsetSpec::Mode::kLatest;
    } else if (value == "group-offsets") {
      spec.mode = KafkaOffsetSpec::Mode::kGroup;
    } else if (value == "timestamp") {
      spec.mode = KafkaOffsetSpec::Mode::kTimestamp;
    } else if (value == "specific-offsets") {
      spec.mode = KafkaOffsetSpec::Mode::kSpecific;
    } else {
      return InvalidArgument("kafka option '{}': '{}' is not {}", mode_key, value,
                             startup ? "earliest-offset, latest-offset, group-offsets, "
                                       "timestamp or specific-offsets"
                                     : "unbounded, latest-offset, group-offsets, timestamp or "
                                       "specific-offsets");
    }
  }
  auto offsets = options.extract(offsets_key);
  auto timestamp = options.extract(timestamp_key);
  if (spec.mode == KafkaOffsetSpec::Mode::kSpecific) {
    if (!offsets) return InvalidArgument("kafka: '{}' = 'specific-offsets' needs '{}'", mode_key,
                                         offsets_key);
    FLOE_ASSIGN_OR_RETURN(spec.offsets, ParseSpecificOffsets(offsets_key, offsets.mapped()));
  } else if (offsets) {
    return InvalidArgument("kafka: '{}' is set, but '{}' is not 'specific-offsets'", offsets_key,
                           mode_key);
  }
  if (spec.mode == KafkaOffsetSpec::Mode::kTimestamp) {
    if (!timestamp) {
      return InvalidArgument("kafka: '{}' = 'timestamp' needs '{}'", mode_key, timestamp_key);
    }
    FLOE_ASSIGN_OR_RETURN(spec.timestamp_ms, ParseNumber(timestamp_key, timestamp.mapped(), 0));
  } else if (timestamp) {
    return InvalidArgument("kafka: '{}' is set, but '{}' is not 'timestamp'", timestamp_key,
                           mode_key);
  }
  return spec;
}

// key.format, key.fields, key.fields-prefix and value.fields-include, taken out of `options`.
Status ParseKey(std::map<std::string, std::string>& options,
                const std::vector<std::string>& primary_key, KafkaOptions& parsed) {
  const char* connector = parsed.upsert ? "upsert-kafka" : "kafka";
  if (auto format = options.extract("key.format")) parsed.key_format = format.mapped();
  if (auto prefix = options.extract("key.fields-prefix")) parsed.key_fields_prefix = prefix.mapped();
  if (auto include = options.extract("value.fields-include")) {
    if (include.mapped() == "EXCEPT_KEY") {
      parsed.value_except_key = true;
    } else if (include.mapped() != "ALL") {
      return InvalidArgument("{} option 'value.fields-include': '{}' is not ALL or EXCEPT_KEY",
                             connector, include.mapped());
    }
  }
  auto fields = options.extract("key.fields");
  if (parsed.upsert) {
    if (fields) {
      return InvalidArgument(
          "upsert-kafka: no 'key.fields': the key's columns are the table's PRIMARY KEY");
    }
    if (primary_key.empty()) {
      return InvalidArgument("upsert-kafka: the table needs a PRIMARY KEY (the records' key)");
    }
    if (!parsed.key_format) return InvalidArgument("upsert-kafka: option 'key.format' is missing");
    parsed.key_fields = primary_key;
  } else if (fields) {
    for (std::string_view name : Split(fields.mapped(), ';')) {
      name = Trim(name);
      if (!name.empty()) parsed.key_fields.emplace_back(name);
    }
    if (parsed.key_fields.empty()) return InvalidArgument("kafka option 'key.fields' names no column");
  }
  if (parsed.key_format && parsed.key_fields.empty()) {
    return InvalidArgument("kafka: 'key.format' needs 'key.fields' (the columns the key holds)");
  }
  if (!parsed.key_format && !parsed.key_fields.empty()) {
    return InvalidArgument("kafka: 'key.fields' needs 'key.format' (how the key is written)");
  }
  if (!parsed.key_fields.empty() && !RecordDecoder::IsFormat(*parsed.key_format)) {
    return InvalidArgument("{} option 'key.format': unknown format '{}'", connector,
                           *parsed.key_format);
  }
  if (parsed.key_format && RecordDecoder::IsChangelogFormat(*parsed.key_format)) {
    return InvalidArgument("{} option 'key.format': '{}' is a changelog format; a key is one row",
                           connector, *parsed.key_format);
  }
  if (parsed.value_except_key && parsed.key_fields.empty()) {
    return InvalidArgument(
        "kafka: 'value.fields-include' = 'EXCEPT_KEY' needs key columns ('key.fields')");
  }
  if (!parsed.key_fields_prefix.empty()) {
    if (!parsed.value_except_key) {
      return InvalidArgument(
          "{}: 'key.fields-prefix' needs 'value.fields-include' = 'EXCEPT_KEY'", connector);
    }
    for (const std::string& field : parsed.key_fields) {
      if (!field.starts_with(parsed.key_fields_prefix)) {
        return InvalidArgument("{}: key column '{}' does not start with 'key.fields-prefix' '{}'",
                               connector, field, parsed.key_fields_prefix);
      }
    }
  }
  if (parsed.upsert && RecordDecoder::IsChangelogFormat(parsed.format)) {
    return InvalidArgument(
        "upsert-kafka option 'value.format': '{}' is a changelog format; upsert-kafka's values "
        "are rows (a null value deletes)",
        parsed.format);
  }
  return Ok();
}

}  // namespace

std::optional<KafkaOffsetSpec::Mode> KafkaOptions::OffsetReset() const {
  auto reset = properties.find("auto.offset.reset");
  if (reset == properties.end()) return std::nullopt;
  const std::string& value = reset->second;
  if (value == "earliest" || value == "smallest" || value == "beginning") {
    return KafkaOffsetSpec::Mode::kEarliest;
  }
  if (value == "latest" || value == "largest" || value == "end") {
    return KafkaOffsetSpec::Mode::kLatest;
  }
  return std::nullopt;
}

Result<KafkaOptions> KafkaOptions::Parse(const std::map<std::string, std::string>& given,
                                         bool upsert,
                                         const std::vector<std::string>& primary_key) {
  std::map<std::string, std::string> options = given;
  KafkaOptions parsed;
  parsed.upsert = upsert;
  if (upsert && !options.contains("scan.startup.mode")) {
    options["scan.startup.mode"] = "earliest-offset";
  }
  if (auto topic = options.extract("topic")) {
    for (std::string_view name : Split(topic.mapped(), ';')) {
      name = Trim(name);
      if (!name.empty()) parsed.topics.emplace_back(name);
    }
    if (parsed.topics.empty()) return InvalidArgument("kafka option 'topic' names no topic");
  }
  if (auto pattern = options.extract("topic-pattern")) parsed.topic_pattern = pattern.mapped();
  if (parsed.topics.empty() == !parsed.topic_pattern.has_value()) {
    return InvalidArgument("kafka: set exactly one of 'topic' and 'topic-pattern'");
  }
  FLOE_ASSIGN_OR_RETURN(parsed.startup, ParseOffsetSpec(options, "scan.startup", true));
  FLOE_ASSIGN_OR_RETURN(parsed.bounded, ParseOffsetSpec(options, "scan.bounded", false));
  for (const KafkaOffsetSpec* spec : {&parsed.startup, &parsed.bounded}) {
    if (spec->offsets.contains("") && parsed.topics.size() != 1) {
      return InvalidArgument(
          "kafka: specific offsets without 'topic:' need exactly one topic in 'topic'");
    }
  }
  if (auto interval = options.extract("scan.topic-partition-discovery.interval")) {
    FLOE_ASSIGN_OR_RETURN(parsed.discovery_interval_ms,
                          ParseDuration(interval.key(), interval.mapped()));
  }
  if (auto size = options.extract("batch-size")) {
    FLOE_ASSIGN_OR_RETURN(parsed.batch_size, ParseNumber("batch-size", size.mapped(), 1));
  }
  auto assignment = options.extract("scan.partition-assignment");
  auto format = options.extract("format");
  auto value_format = options.extract("value.format");
  if (format && value_format) {
    return InvalidArgument("kafka: set one of 'format' and 'value.format', not both");
  }
  if (!format && !value_format) return InvalidArgument("kafka: option 'format' is missing");
  parsed.format = format ? format.mapped() : value_format.mapped();
  FLOE_RETURN_IF_ERROR(ParseKey(options, primary_key, parsed));
  const std::string format_prefix = parsed.format + ".";
  for (auto it = options.begin(); it != options.end();) {
    const std::string& key = it->first;
    if (key.starts_with("properties.")) {
      std::string property = key.substr(std::string_view("properties.").size());
      if (property == "group.id") parsed.group_id = it->second;
      parsed.properties[property] = it->second;
    } else if (key.starts_with(format_prefix)) {
      parsed.format_options[key] = it->second;
    } else if (key.starts_with("value." + format_prefix)) {
      parsed.format_options[key.substr(std::string_view("value.").size())] = it->second;
    } else if (parsed.key_format && key.starts_with("key." + *parsed.key_format + ".")) {
      parsed.key_format_options[key.substr(std::string_view("key.").size())] = it->second;
    } else {
      return InvalidArgument("kafka: unknown option '{}'", key);
    }
    it = options.erase(it);
  }
  if (!parsed.properties.contains("bootstrap.servers")) {
    return InvalidArgument("kafka: option 'properties.bootstrap.servers' is missing");
  }
  if (assignment) {
    if (assignment.mapped() == "consumer-group") {
      parsed.consumer_group = true;
    } else if (assignment.mapped() != "enumerator") {
      return InvalidArgument(
          "kafka option 'scan.partition-assignment': '{}' is not enumerator or consumer-group",
          assignment.mapped());
    }
  }
  if (parsed.consumer_group) {
    using Mode = KafkaOffsetSpec::Mode;
    if (!parsed.group_id) {
      return InvalidArgument(
          "kafka: 'scan.partition-assignment' = 'consumer-group' needs 'properties.group.id'");
    }
    if (parsed.bounded.mode != Mode::kNone) {
      return InvalidArgument(
          "kafka: 'scan.partition-assignment' = 'consumer-group' reads unbounded: a process "
          "cannot tell where the group's partitions end ('scan.bounded.mode')");
    }
    if (parsed.startup.mode != Mode::kEarliest && parsed.startup.mode != Mode::kLatest &&
        parsed.startup.mode != Mode::kGroup) {
      return InvalidArgument(
          "kafka: 'scan.partition-assignment' = 'consumer-group' starts partitions the table has "
          "not committed at earliest-offset, latest-offset or group-offsets, not by "
          "'scan.startup.mode' timestamp or specific-offsets");
    }
  }
  return parsed;
}

}  // namespace floe::stream
