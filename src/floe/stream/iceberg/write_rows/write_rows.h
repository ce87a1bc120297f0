#pragma once

// WriteRows (Beam's IcebergIO.WriteRows, the Flink connector's dynamic sink): one stream of rows
// into many Iceberg tables of one catalog, created and evolved as rows arrive, exactly once per
// table on the runtime's checkpoints.
//
//   FLOE_ASSIGN_OR_RETURN(DataStream snapshots,
//                         WriteRows::Of(rows)
//                             .Catalog("lake", {{"catalog-type", "hadoop"}, {"warehouse", wh}})
//                             .To("db.events_{region}_{kind}")   // or a TableIdentifier, or
//                                                                // DynamicDestinations
//                             .PartitionFields({"day(ts)", "bucket(id, 16)"})
//                             .WithTriggeringFrequency(std::chrono::seconds(60))
//                             .WithDistributionMode(DistributionMode::kHash)
//                             .WithAutosharding()
//                             .Apply());
//
// The result is the stream of committed snapshots (dynamic_committer.h's CommittedSnapshotSchema),
// as Beam's IcebergWriteResult. Rows are routed to writer subtasks by the distribution mode
// (NONE: forwarded; HASH: by destination and partition, dynamic_selector.h), written by
// DynamicWriter and committed by DynamicCommitter, which reuse the IcebergSink's writer and
// committer per table. Batches may carry other columns than the stream declares: a new column or
// a wider type evolves the destination's table (destination_tables.h).
//
// Refused at Apply (kInvalidArgument): no catalog or destination, RANGE distribution (as in Beam),
// autosharding without HASH, a triggering frequency on bounded input, unbounded input without a
// triggering frequency or without checkpoints, more than one of keep/drop/only, template fields
// the input lacks, builder-level destination options together with custom DynamicDestinations.

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "floe/stream/data_stream.h"
#include "floe/stream/iceberg/sink_options.h"
#include "floe/stream/iceberg/write_rows/write_rows_spec.h"

namespace floe::stream {

class WriteRows {
 public:
  static WriteRows Of(DataStream input) { return WriteRows(std::move(input)); }

  WriteRows& Catalog(std::string name, StringMap properties);
  WriteRows& To(catalog::TableIdentifier table);
  // A table template: "db.events_{region}_{kind}" (destinations.h).
  WriteRows& To(std::string table_template);
  WriteRows& To(DynamicDestinations destinations);

  WriteRows& WithTriggeringFrequency(std::chrono::milliseconds frequency);
  WriteRows& WithDirectWriteByteLimit(int64_t bytes);
  WriteRows& WithDistributionMode(DistributionMode mode);
  WriteRows& WithAutosharding();

  // Field filters (one of them): which row fields are written.
  WriteRows& Keep(std::vector<std::string> fields);
  WriteRows& Drop(std::vector<std::string> fields);
  WriteRows& Only(std::string record_field);

  // Options of the tables created by a fixed or template destination.
  WriteRows& PartitionFields(std::vector<std::string> fields);
  WriteRows& SortFields(std::vector<std::string> fields);
  WriteRows& TableProperties(std::map<std::string, std::string> properties);
  WriteRows& ToBranch(std::string branch);
  WriteRows& Upsert(std::vector<std::string> equality_fields);

  // IcebergSink write options for every table (write-format, target-file-size-bytes...).
  WriteRows& Set(std::string key, std::string value);
  WriteRows& WriteParallelism(int parallelism);
  WriteRows& SinkId(std::string sink_id);
  WriteRows& MetadataRefreshInterval(std::chrono::milliseconds interval);
  WriteRows& DropUnusedColumns(bool drop = true);
  // The clock of the triggering frequency and metadata refresh (epoch ms); for tests.
  WriteRows& Clock(std::function<int64_t()> clock);

  // Adds the router, writers and committer to the job graph; returns the committed snapshots.
  Result<DataStream> Apply();

  // Whether every source upstream of the input is bounded.
  bool InputBounded() const;

 private:
  explicit WriteRows(DataStream input) : input_(std::move(input)) {}

  DataStream input_;
  WriteRowsSpec spec_;
  std::optional<catalog::TableIdentifier> table_;
  std::optional<std::string> template_;
  std::optional<DynamicDestinations> custom_;
  Destination defaults_;
  bool defaults_set_ = false;
  bool catalog_set_ = false;
  std::optional<std::chrono::milliseconds> frequency_;
  int64_t direct_write_byte_limit_ = 0;
  DistributionMode distribution_ = DistributionMode::kNone;
  bool autosharding_ = false;
  int write_parallelism_ = 0;
};

}  // namespace floe::stream
