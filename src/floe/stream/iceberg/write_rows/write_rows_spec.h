#pragma once

// What WriteRows' operators are configured with (the builder's settings, copied into every
// subtask's factory), the message its writers hand the committer, and the field filter
// (Beam's keep / drop / only).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "floe/stream/iceberg/sink_writer.h"
#include "floe/stream/iceberg/write_rows/destination_tables.h"
#include "floe/stream/iceberg/write_rows/destinations.h"
#include "floe/stream/operator.h"

namespace floe::stream {

// Which row fields are written (the destination is computed from the whole row first, so that a
// template may use fields that are not written). At most one of the three is set.
struct FieldFilter {
  std::vector<std::string> keep;  // only these top-level fields, in this order
  std::vector<std::string> drop;  // all but these
  std::string only;               // the members of this struct field become the columns

  bool empty() const { return keep.empty() && drop.empty() && only.empty(); }
  Status Validate() const;
  // kInvalidArgument naming the field when it is not in the rows.
  Result<RecordBatch> Apply(const RecordBatch& rows) const;
};

struct WriteRowsSpec {
  std::string catalog_name;
  StringMap catalog_properties;
  DynamicDestinations destinations;
  std::map<std::string, std::string> options;  // the IcebergSink's options, for every table
  FieldFilter filter;
  DestinationTablesOptions tables;
  std::string sink_id;                  // empty: derived from the job and committer names
  int64_t triggering_frequency_ms = 0;  // 0: commit at every checkpoint
  std::function<int64_t()> clock;       // epoch ms, for the triggering frequency; tests set it
};

// The files of every destination a writer subtask wrote to since its last barrier.
struct DynamicWriteResult {
  int64_t checkpoint_id = 0;
  int subtask = 0;
  struct TableFiles {
    std::string table;  // TableIdentifier::ToString
    std::string branch;
    std::vector<std::string> equality_fields;
    bool upsert = false;
    std::shared_ptr<const table::WriteResult> files;
  };
  std::vector<TableFiles> tables;
};

// Keeps what an IcebergSink writer or committer driven by WriteRows emits (its files, or rows that
// WriteRows re-emits), instead of passing it downstream.
class CapturingOutput : public Output {
 public:
  Status Emit(RecordBatch batch) override {
    batches.push_back(std::move(batch));
    return Ok();
  }
  Status EmitMessage(Message message, int /*channel*/) override {
    messages.push_back(std::move(message));
    return Ok();
  }
  std::vector<Message> TakeMessages() { return std::exchange(messages, {}); }

  std::vector<RecordBatch> batches;
  std::vector<Message> messages;
};

// The sink spec of one destination table (the IcebergSink's writer and committer take it).
SinkSpec TableSinkSpec(const WriteRowsSpec& spec, const catalog::TableIdentifier& table,
                       const std::string& branch, const std::vector<std::string>& equality_fields,
                       bool upsert);

}  // namespace floe::stream
