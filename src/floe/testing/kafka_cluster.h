#pragma once

// A Kafka cluster for tests: librdkafka's mock cluster (3 brokers speaking the real Kafka
// protocol on loopback ports), hosted in the test process, started at the first use in a test
// binary and stopped when it exits. NewTopic creates topics with kPartitions partitions; a topic
// first named by a client is made with the mock's 4. Records are produced by independent clients,
// not floe's: kcat (where kcat is missing, tests skip with reason()) or kafkajs (npm, installed by
// ../shared/peers/setup). The mock keeps at most 5 MiB of (compressed) record batches per
// partition and deletes the oldest beyond that, so both clients compress, and Produce fails when
// a partition no longer holds every record ever produced into it.

#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::testing {

class KafkaCluster {
 public:
  static constexpr int kPartitions = 8;

  static const KafkaCluster& Get();

  bool running() const { return !bootstrap_.empty(); }
  // "127.0.0.1:PORT,...", for properties.bootstrap.servers.
  const std::string& bootstrap() const { return bootstrap_; }
  const std::string& reason() const { return reason_; }

  enum class Client { kKcat, kKafkaJs };

  struct ProduceOptions {
    Client client = Client::kKcat;
    // Non-zero: each record is "key<delimiter>value" (an empty key is a null key).
    char key_delimiter = 0;
    // "name=value" headers, given to every record.
    std::vector<std::string> headers;
    // An Avro schema (JSON) for kafkajs: each value (and with key_avro_schema, each key) is a
    // JSON datum of it, produced as plain Avro binary encoded by avsc.
    std::string avro_schema;
    std::string key_avro_schema;
  };

  // Writes the records (one value each, without line ends) to a partition of the topic and
  // waits until the cluster has them. An empty record is a null value (a tombstone).
  // kResourceExhausted when the cluster has deleted records of the partition (its 5 MiB).
  Status Produce(std::string_view topic, int partition, const std::vector<std::string>& records,
                 const ProduceOptions& options) const;
  Status Produce(std::string_view topic, int partition,
                 const std::vector<std::string>& records) const {
    return Produce(topic, partition, records, ProduceOptions{});
  }

  // Options that produce even partitions with kcat and odd ones with kafkajs (kcat too when
  // kafkajs is not installed): tests that read what both clients wrote.
  static ProduceOptions EitherClient(int partition);

  // The first offset the partition holds and the offset after its last.
  Result<std::pair<int64_t, int64_t>> Watermarks(std::string_view topic, int partition) const;

  // A topic name not used before in this process, created with kPartitions partitions.
  static std::string NewTopic(std::string_view prefix);

  ~KafkaCluster();
  KafkaCluster(const KafkaCluster&) = delete;
  KafkaCluster& operator=(const KafkaCluster&) = delete;

 private:
  KafkaCluster();
  std::string bootstrap_;
  std::string reason_;
  void* handle_ = nullptr;  // the rd_kafka_t hosting the mock cluster
};

}  // namespace floe::testing

// Skips the test when no Kafka cluster can run here.
#define FLOE_REQUIRE_KAFKA()                                                                 \
  do {                                                                                       \
    if (!::floe::testing::KafkaCluster::Get().running()) {                                   \
      GTEST_SKIP() << "no Kafka cluster: " << ::floe::testing::KafkaCluster::Get().reason(); \
    }                                                                                        \
  } while (false)
