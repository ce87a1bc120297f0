#pragma once

// The column metrics a manifest keeps for a data or delete file (value, null and NaN counts,
// column sizes, lower and upper bounds in Appendix D's binary form), as one value per file.
// MetricsFromParquet turns what the Parquet writer measured into them, keyed by field id:
// bounds are decoded from Parquet's PLAIN form with the Iceberg type of the field (decimals become
// minimal big-endian bytes), float zero bounds are widened to -0.0 / +0.0 so that either zero
// lies inside them, and columns inside lists and maps get counts but no bounds (as Iceberg Java).
// Leaf columns without a field id, or whose id is not in the schema, are skipped.
//
// Errors: a bound whose length does not fit its type (kCorruptData).

#include "floe/format/parquet/writer/parquet_writer.h"
#include "floe/manifest/data_file.h"
#include "floe/spec/schema.h"
#include "floe/util/error.h"

namespace floe::table {

struct FileMetrics {
  manifest::CountMap column_sizes;
  manifest::CountMap value_counts;
  manifest::CountMap null_value_counts;
  manifest::CountMap nan_value_counts;
  manifest::BoundMap lower_bounds;
  manifest::BoundMap upper_bounds;

  // Copies the maps into a DataFile.
  void MoveInto(manifest::DataFile& file) &&;
};

Result<FileMetrics> MetricsFromParquet(const parquet::WriteResult& result, const Schema& schema);

}  // namespace floe::table
