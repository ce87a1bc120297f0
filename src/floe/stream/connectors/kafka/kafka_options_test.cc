#include "floe/stream/connectors/kafka/kafka_options.h"

#include <gtest/gtest.h>

#include "floe/testing/testing.h"

namespace floe::stream {
namespace {

using Mode = KafkaOffsetSpec::Mode;
using Options = std::map<std::string, std::string>;

Options Base(Options more = {}) {
  Options options = {{"topic", "events"},
                     {"properties.bootstrap.servers", "127.0.0.1:9092"},
                     {"format", "json"}};
  for (auto& [key, value] : more) options[key] = value;
  return options;
}

std::string ErrorOf(const Options& options) {
  auto parsed = KafkaOptions::Parse(options);
  return parsed ? "" : parsed.error().message();
}

TEST(KafkaOptionsTest, TakesFlinkNames) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      KafkaOptions parsed,
      KafkaOptions::Parse(Base({{"topic", "a; b"},
                                {"properties.group.id", "g"},
                                {"properties.security.protocol", "SASL_SSL"},
                                {"scan.startup.mode", "specific-offsets"},
                                {"scan.startup.specific-offsets",
                                 "topic:a,partition:0,offset:42;topic:b,partition:1,offset:300"},
                                {"scan.bounded.mode", "timestamp"},
                                {"scan.bounded.timestamp-millis", "1700000000000"},
                                {"scan.topic-partition-discovery.interval", "30 s"},
                                {"json.ignore-parse-errors", "true"}})));
  EXPECT_EQ(parsed.topics, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(parsed.group_id, "g");
  EXPECT_EQ(parsed.properties.at("security.protocol"), "SASL_SSL");
  EXPECT_EQ(parsed.properties.at("bootstrap.servers"), "127.0.0.1:9092");
  EXPECT_EQ(parsed.startup.mode, Mode::kSpecific);
  EXPECT_EQ(parsed.startup.offsets.at("a").at(0), 42);
  EXPECT_EQ(parsed.startup.offsets.at("b").at(1), 300);
  EXPECT_EQ(parsed.bounded.mode, Mode::kTimestamp);
  EXPECT_EQ(parsed.bounded.timestamp_ms, 1700000000000);
  EXPECT_EQ(parsed.discovery_interval_ms, 30000);
  EXPECT_EQ(parsed.format, "json");
  EXPECT_EQ(parsed.format_options.at("json.ignore-parse-errors"), "true");
}

TEST(KafkaOptionsTest, DefaultsAreFlinks) {
  FLOE_ASSERT_OK_AND_ASSIGN(KafkaOptions parsed, KafkaOptions::Parse(Base()));
  EXPECT_EQ(parsed.startup.mode, Mode::kGroup);
  EXPECT_EQ(parsed.bounded.mode, Mode::kNone);
  EXPECT_EQ(parsed.discovery_interval_ms, 300000);
  FLOE_ASSERT_OK_AND_ASSIGN(
      KafkaOptions one_topic,
      KafkaOptions::Parse(Base({{"scan.startup.mode", "specific-offsets"},
                                {"scan.startup.specific-offsets", "partition:0,offset:42"}})));
  EXPECT_EQ(one_topic.startup.offsets.at("").at(0), 42);
}

TEST(KafkaOptionsTest, RefusesWhatIsWrongNamingTheOption) {
  Options no_servers = Base();
  no_servers.erase("properties.bootstrap.servers");
  EXPECT_NE(ErrorOf(no_servers).find("properties.bootstrap.servers"), std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"topic-pattern", "e.*"}})).find("exactly one of"), std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"scan.startup.mode", "earliest"}})).find("scan.startup.mode"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"scan.bounded.mode", "earliest-offset"}})).find("scan.bounded.mode"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"scan.startup.mode", "specific-offsets"}}))
                .find("scan.startup.specific-offsets"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"scan.startup.mode", "specific-offsets"},
                          {"scan.startup.specific-offsets", "partition:0"}}))
                .find("needs a partition and an offset"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"scan.startup.mode", "timestamp"},
                          {"scan.startup.timestamp-millis", "soon"}}))
                .find("scan.startup.timestamp-millis"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"scan.startup.timestamp-millis", "1"}})).find("is not 'timestamp'"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"scan.topic-partition-discovery.interval", "often"}}))
                .find("duration"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"no.such", "x"}})).find("unknown option 'no.such'"), std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"key.format", "json"}})).find("key.format"), std::string::npos);
  Options no_format = Base();
  no_format.erase("format");
  EXPECT_NE(ErrorOf(no_format).find("'format' is missing"), std::string::npos);
}

TEST(KafkaOptionsTest, KeyAndValueFormats) {
  FLOE_ASSERT_OK_AND_ASSIGN(
      KafkaOptions parsed,
      KafkaOptions::Parse(Base({{"key.format", "csv"},
                                {"key.fields", "k_a; k_b"},
                                {"key.fields-prefix", "k_"},
                                {"key.csv.field-delimiter", "|"},
                                {"value.fields-include", "EXCEPT_KEY"},
                                {"value.json.ignore-parse-errors", "true"}})));
  EXPECT_EQ(parsed.key_format, "csv");
  EXPECT_EQ(parsed.key_fields, (std::vector<std::string>{"k_a", "k_b"}));
  EXPECT_EQ(parsed.key_fields_prefix, "k_");
  EXPECT_TRUE(parsed.value_except_key);
  EXPECT_EQ(parsed.key_format_options,
            (std::map<std::string, std::string>{{"csv.field-delimiter", "|"}}));
  EXPECT_EQ(parsed.format_options,
            (std::map<std::string, std::string>{{"json.ignore-parse-errors", "true"}}));

  EXPECT_NE(ErrorOf(Base({{"key.fields", "a"}})).find("needs 'key.format'"), std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"key.format", "debezium-json"}, {"key.fields", "a"}}))
                .find("changelog format"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"value.fields-include", "SOME"}})).find("ALL or EXCEPT_KEY"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"value.fields-include", "EXCEPT_KEY"}})).find("needs key columns"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"key.format", "raw"}, {"key.fields", "a"}, {"key.fields-prefix", "k_"}}))
                .find("EXCEPT_KEY"),
            std::string::npos);
}

TEST(KafkaOptionsTest, UpsertKafkaKeyIsThePrimaryKey) {
  FLOE_ASSERT_OK_AND_ASSIGN(KafkaOptions parsed,
                            KafkaOptions::Parse(Base({{"key.format", "json"}}), true, {"id"}));
  EXPECT_TRUE(parsed.upsert);
  EXPECT_EQ(parsed.key_fields, std::vector<std::string>{"id"});
  EXPECT_EQ(parsed.startup.mode, KafkaOffsetSpec::Mode::kEarliest);
  auto no_key = KafkaOptions::Parse(Base({{"key.format", "json"}}), true, {});
  ASSERT_FALSE(no_key);
  EXPECT_NE(no_key.error().message().find("PRIMARY KEY"), std::string::npos);
  auto fields = KafkaOptions::Parse(Base({{"key.format", "json"}, {"key.fields", "id"}}), true,
                                    {"id"});
  ASSERT_FALSE(fields);
  EXPECT_NE(fields.error().message().find("no 'key.fields'"), std::string::npos);
  EXPECT_FALSE(KafkaOptions::Parse(Base(), true, {"id"}));  // no key.format
  auto changelog =
      KafkaOptions::Parse(Base({{"key.format", "json"}, {"format", "debezium-json"}}), true, {"id"});
  ASSERT_FALSE(changelog);
  EXPECT_NE(changelog.error().message().find("changelog"), std::string::npos);
}

TEST(KafkaOptionsTest, ConsumerGroupAssignment) {
  const Options group = {{"properties.group.id", "g"},
                         {"scan.partition-assignment", "consumer-group"}};
  FLOE_ASSERT_OK_AND_ASSIGN(KafkaOptions parsed, KafkaOptions::Parse(Base(group)));
  EXPECT_TRUE(parsed.consumer_group);
  FLOE_ASSERT_OK_AND_ASSIGN(parsed, KafkaOptions::Parse(Base()));
  EXPECT_FALSE(parsed.consumer_group);
  FLOE_ASSERT_OK_AND_ASSIGN(
      parsed, KafkaOptions::Parse(Base({{"scan.partition-assignment", "enumerator"}})));
  EXPECT_FALSE(parsed.consumer_group);

  EXPECT_NE(ErrorOf(Base({{"scan.partition-assignment", "group"}}))
                .find("'scan.partition-assignment': 'group' is not enumerator or consumer-group"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Base({{"scan.partition-assignment", "consumer-group"}}))
                .find("needs 'properties.group.id'"),
            std::string::npos);
  Options bounded = Base(group);
  bounded["scan.bounded.mode"] = "latest-offset";
  EXPECT_NE(ErrorOf(bounded).find("'scan.bounded.mode'"), std::string::npos) << ErrorOf(bounded);
  Options timestamp = Base(group);
  timestamp["scan.startup.mode"] = "timestamp";
  timestamp["scan.startup.timestamp-millis"] = "1";
  EXPECT_NE(ErrorOf(timestamp).find("not by 'scan.startup.mode' timestamp"), std::string::npos)
      << ErrorOf(timestamp);
}

}  // namespace
}  // namespace floe::stream
