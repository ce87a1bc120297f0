#pragma once

// The IcebergSink builder (the Flink connector's FlinkSink/IcebergSink builder): adds parallel
// writers and one committer for a stream of rows to the job graph.
//
//   FLOE_RETURN_IF_ERROR(IcebergSink::ForRows(rows)
//                            .TableLoader(TableLoader::FromFolder("/lake/db/events"))
//                            .Upsert(true)
//                            .EqualityFieldColumns({"id"})
//                            .Set("write-format", "avro")
//                            .Append());
//
// Options are those of sink_options.h. Distribution: `none` keys rows by the equality fields
// when there are some (rows of one key must meet in one writer), else forwards them (rebalances
// when the write parallelism differs from the input's); `hash` sends rows by partition (by the
// equality fields when the table is unpartitioned or not all partition sources are equality
// fields); `range` adds a statistics operator before the writers and sends rows by sort-key ranges
// balanced from the previous checkpoint's statistics (range_shuffle.h; as `none` with equality
// fields or on an unsorted unpartitioned table). The sink id (SinkId, else the job name and the
// committer's operator name) must stay the same across restarts of a job.
//
// What can go wrong (Append): no table loader, a table that cannot be loaded, bad options (see
// SinkOptions::Resolve), input columns that do not match the table's columns in order and type.

#include <map>
#include <string>
#include <vector>

#include "floe/stream/data_stream.h"
#include "floe/stream/iceberg/sink_options.h"
#include "floe/stream/iceberg/table_loader.h"

namespace floe::stream {

class IcebergSink {
 public:
  class Builder {
   public:
    explicit Builder(DataStream input) : input_(std::move(input)) {}

    Builder& TableLoader(stream::TableLoader loader);
    Builder& Overwrite(bool overwrite = true);
    Builder& Upsert(bool upsert = true);
    Builder& EqualityFieldColumns(std::vector<std::string> columns);
    Builder& Set(std::string key, std::string value);
    Builder& SetAll(const std::map<std::string, std::string>& options);
    Builder& WriteParallelism(int parallelism);
    Builder& DistributionMode(stream::DistributionMode mode);
    Builder& ToBranch(std::string branch);
    Builder& SinkId(std::string sink_id);

    // Adds the writers and the committer to the job graph.
    Status Append();

   private:
    DataStream input_;
    std::optional<stream::TableLoader> loader_;
    std::map<std::string, std::string> options_;
    std::vector<std::string> equality_columns_;
    std::string sink_id_;
  };

  static Builder ForRows(DataStream input) { return Builder(std::move(input)); }
};

}  // namespace floe::stream
