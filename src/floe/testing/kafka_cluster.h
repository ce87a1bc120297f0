#pragma once

// A Kafka cluster for tests: librdkafka's mock cluster (3 brokers speaking the real Kafka
// protocol on loopback ports) hosted by a kcat process, as ../shared/peers/kafka-broker starts
// it; started at the first use in a test binary and stopped when it exits. Topics are created on
// first use with 4 partitions. Where kcat is missing, tests skip with reason(). Records are
// produced by kcat too: an independent client, not floe's.

#include <string>
#include <string_view>
#include <vector>

#include "floe/util/error.h"

namespace floe::testing {

class KafkaCluster {
 public:
  static constexpr int kPartitions = 4;

  static const KafkaCluster& Get();

  bool running() const { return !bootstrap_.empty(); }
  // "127.0.0.1:PORT", for properties.bootstrap.servers.
  const std::string& bootstrap() const { return bootstrap_; }
  const std::string& reason() const { return reason_; }

  struct ProduceOptions {
    // Non-zero: each record is "key<delimiter>value" (an empty key is a null key).
    char key_delimiter = 0;
    // "name=value" headers, given to every record.
    std::vector<std::string> headers;
  };

  // Writes the records (one value each, without line ends) to a partition of the topic and
  // waits until the cluster has them. An empty record is a null value (a tombstone).
  Status Produce(std::string_view topic, int partition, const std::vector<std::string>& records,
                 const ProduceOptions& options) const;
  Status Produce(std::string_view topic, int partition,
                 const std::vector<std::string>& records) const {
    return Produce(topic, partition, records, ProduceOptions{});
  }

  // A topic name not used before in this process.
  static std::string NewTopic(std::string_view prefix);

  ~KafkaCluster();

 private:
  KafkaCluster();
  std::string bootstrap_;
  std::string reason_;
  int pid_ = -1;
};

}  // namespace floe::testing

// Skips the test when no Kafka cluster can run here.
#define FLOE_REQUIRE_KAFKA()                                                                \
  do {                                                                                      \
    if (!::floe::testing::KafkaCluster::Get().running()) {                                  \
      GTEST_SKIP() << "no Kafka cluster: " << ::floe::testing::KafkaCluster::Get().reason(); \
    }                                                                                       \
  } while (false)
