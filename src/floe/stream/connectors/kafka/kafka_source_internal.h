#pragma once

// The two halves of the Kafka source (kafka_source.h): the enumerator (kafka_enumerator.cc) and
// the readers (kafka_reader.cc).

#include <memory>

#include "floe/stream/connectors/kafka/kafka_source.h"

namespace floe::stream {

std::unique_ptr<SplitEnumerator> MakeKafkaEnumerator(std::shared_ptr<const KafkaSource> source);
std::unique_ptr<SourceReader> MakeKafkaReader(std::shared_ptr<const KafkaSource> source);

}  // namespace floe::stream
