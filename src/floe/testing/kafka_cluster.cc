#include "floe/testing/kafka_cluster.h"

#include <fmt/core.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "floe/testing/peers.h"

namespace floe::testing {

const KafkaCluster& KafkaCluster::Get() {
  static KafkaCluster cluster;
  return cluster;
}

KafkaCluster::KafkaCluster() {
  if (std::system("command -v kcat >/dev/null 2>&1") != 0) {
    reason_ = "kcat is not installed (Debian package kcat; scripts/bootstrap installs it)";
    return;
  }
  auto started = RunPeer("kafka-broker", {"3"});
  if (!started) {
    reason_ = "../shared/peers/kafka-broker failed: " + started.error().message();
    return;
  }
  std::istringstream words(*started);
  std::string address;
  words >> address >> pid_;
  if (address.empty() || pid_ <= 0) {
    reason_ = "../shared/peers/kafka-broker printed '" + *started + "'";
    pid_ = -1;
    return;
  }
  bootstrap_ = address;
}

KafkaCluster::~KafkaCluster() {
  // kcat takes SIGTERM as "flush and stop", then waits on its input, which never ends: it stays.
  if (pid_ > 0) ::kill(pid_, SIGKILL);
}

Status KafkaCluster::Produce(std::string_view topic, int partition,
                             const std::vector<std::string>& records,
                             const ProduceOptions& options) const {
  if (!running()) return IOError("no Kafka cluster: {}", reason_);
  std::string command = fmt::format("kcat -P -Z -b {} -t {} -p {}", bootstrap_, topic, partition);
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
  command += " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "w");
  if (pipe == nullptr) return IOError("cannot run {}", command);
  for (const std::string& record : records) {
    std::fwrite(record.data(), 1, record.size(), pipe);
    std::fputc('\n', pipe);
  }
  int status = ::pclose(pipe);
  if (status != 0) return IOError("{} exited with status {}", command, status);
  return Ok();
}

std::string KafkaCluster::NewTopic(std::string_view prefix) {
  static std::atomic<int> next{0};
  return fmt::format("{}-{}-{}", prefix, ::getpid(), next++);
}

}  // namespace floe::testing
