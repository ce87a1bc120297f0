#include "floe/testing/kafka_cluster.h"

#include <fmt/core.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "floe/testing/peers.h"
#include "floe/testing/testing.h"

namespace floe::testing {
namespace {

constexpr int kBrokers = 3;
constexpr int kTimeoutMs = 10'000;

rd_kafka_t* Handle(void* handle) { return static_cast<rd_kafka_t*>(handle); }

// The kcat command that produces to the partition: lz4-compressed batches.
Result<std::string> KcatCommand(const std::string& bootstrap, std::string_view topic, int partition,
                                const KafkaCluster::ProduceOptions& options) {
  std::string command =
      fmt::format("kcat -P -Z -z lz4 -b {} -t {} -p {}", bootstrap, topic, partition);
  if (options.key_delimiter != 0) {
    if (options.key_delimiter == '\'' || options.key_delimiter == '\\') {
      return InvalidArgument("key delimiter {} cannot be quoted", options.key_delimiter);
    }
    command += fmt::format(" -K '{}'", options.key_delimiter);
  }
  for (const std::string& header : options.headers) {
    if (header.find('\'') != std::string::npos) {
      return InvalidArgument("header {} holds a quote", header);
    }
    command += fmt::format(" -H '{}'", header);
  }
  return command;
}

// The same with kafkajs (kafkajs_produce.js): gzip-compressed batches.
std::string KafkaJsCommand(const std::string& bootstrap, std::string_view topic, int partition,
                           const KafkaCluster::ProduceOptions& options) {
  std::string command =
      fmt::format("node {} {} {} {}", ShellQuote(FLOE_TESTING_DIR "/kafkajs_produce.js"),
                  ShellQuote(bootstrap), ShellQuote(topic), partition);
  if (options.key_delimiter != 0) {
    command += " --key-delimiter " + ShellQuote(std::string(1, options.key_delimiter));
  }
  for (const std::string& header : options.headers) command += " --header " + ShellQuote(header);
  if (!options.avro_schema.empty()) command += " --avro " + ShellQuote(options.avro_schema);
  if (!options.key_avro_schema.empty()) {
    command += " --key-avro " + ShellQuote(options.key_avro_schema);
  }
  return command;
}

}  // namespace

const KafkaCluster& KafkaCluster::Get() {
  static KafkaCluster cluster;
  return cluster;
}

KafkaCluster::KafkaCluster() {
  if (std::system("command -v kcat >/dev/null 2>&1") != 0) {
    reason_ = "kcat is not installed (Debian package kcat; scripts/bootstrap installs it)";
    return;
  }
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char error[512];
  // Warnings and errors only: not the notice that the mock cluster replaced bootstrap.servers.
  rd_kafka_conf_set(conf, "log_level", "4", error, sizeof(error));
  if (rd_kafka_conf_set(conf, "test.mock.num.brokers", std::to_string(kBrokers).c_str(), error,
                        sizeof(error)) != RD_KAFKA_CONF_OK) {
    rd_kafka_conf_destroy(conf);
    reason_ = fmt::format("librdkafka has no mock cluster: {}", error);
    return;
  }
  rd_kafka_t* handle = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
  if (handle == nullptr) {
    rd_kafka_conf_destroy(conf);
    reason_ = fmt::format("cannot start librdkafka's mock cluster: {}", error);
    return;
  }
  handle_ = handle;
  bootstrap_ = rd_kafka_mock_cluster_bootstraps(rd_kafka_handle_mock_cluster(handle));
}

KafkaCluster::~KafkaCluster() {
  if (handle_ != nullptr) rd_kafka_destroy(Handle(handle_));
}

Result<std::pair<int64_t, int64_t>> KafkaCluster::Watermarks(std::string_view topic,
                                                             int partition) const {
  if (!running()) return IOError("no Kafka cluster: {}", reason_);
  int64_t low = 0, high = 0;
  rd_kafka_resp_err_t error = rd_kafka_query_watermark_offsets(
      Handle(handle_), std::string(topic).c_str(), partition, &low, &high, kTimeoutMs);
  if (error) {
    return IOError("offsets of topic {} partition {}: {}", topic, partition,
                   rd_kafka_err2str(error));
  }
  return std::pair(low, high);
}

Status KafkaCluster::Produce(std::string_view topic, int partition,
                             const std::vector<std::string>& records,
                             const ProduceOptions& options) const {
  if (!running()) return IOError("no Kafka cluster: {}", reason_);
  const bool avro = !options.avro_schema.empty() || !options.key_avro_schema.empty();
  if (avro && options.client != Client::kKafkaJs) {
    return InvalidArgument("Avro records are produced by kafkajs only");
  }
  std::string command;
  if (options.client == Client::kKafkaJs) {
    if (!PeerInstalled("kafkajs") || (avro && !PeerInstalled("avsc"))) {
      return NotFound("kafkajs or avsc is not installed (../shared/peers/setup installs them)");
    }
    command = KafkaJsCommand(bootstrap_, topic, partition, options);
  } else {
    FLOE_ASSIGN_OR_RETURN(command, KcatCommand(bootstrap_, topic, partition, options));
  }
  command += " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "w");
  if (pipe == nullptr) return IOError("cannot run {}", command);
  for (const std::string& record : records) {
    std::fwrite(record.data(), 1, record.size(), pipe);
    std::fputc('\n', pipe);
  }
  int status = ::pclose(pipe);
  if (status != 0) return IOError("{} exited with status {}", command, status);
  FLOE_ASSIGN_OR_RETURN(auto watermarks, Watermarks(topic, partition));
  if (watermarks.first != 0) {
    return ResourceExhausted(
        "the mock cluster deleted offsets 0..{} of topic {} partition {}: it keeps 5 MiB of "
        "record batches per partition; produce fewer or smaller records, or spread them over more "
        "partitions",
        watermarks.first - 1, topic, partition);
  }
  return Ok();
}

KafkaCluster::ProduceOptions KafkaCluster::EitherClient(int partition) {
  ProduceOptions options;
  if (partition % 2 == 1 && PeerInstalled("kafkajs")) options.client = Client::kKafkaJs;
  return options;
}

std::string KafkaCluster::NewTopic(std::string_view prefix) {
  static std::atomic<int> next{0};
  std::string topic = fmt::format("{}-{}-{}", prefix, ::getpid(), next++);
  const KafkaCluster& cluster = Get();
  if (cluster.running()) {
    rd_kafka_mock_topic_create(rd_kafka_handle_mock_cluster(Handle(cluster.handle_)), topic.c_str(),
                               kPartitions, kBrokers);
  }
  return topic;
}

}  // namespace floe::testing
