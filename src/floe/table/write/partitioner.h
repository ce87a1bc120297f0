#pragma once

// Computes the partition tuple of every row of a batch from a partition spec, column at a time:
// each partition field's transform runs over its source column in one typed loop (no Literal per
// value), the transformed values of a row are packed into a short byte key, and equal keys map to
// one dense partition id. Literal tuples are built once per distinct partition. Ids stay stable
// for the life of the Partitioner, so writers can keep one open file per id.
//
// Source columns are found by field id at the top level or inside structs (a null struct makes
// its fields null). Transforms are the ones of spec/transform_values.h, so tuples equal what
// Transform::Apply computes.
//
// What can go wrong: Make fails for an unknown transform, a multi-argument field, a source column
// missing from the batch schema or of a batch type that does not hold the Iceberg type.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/spec/literal.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"

namespace floe::table {

class Partitioner {
 public:
  static Result<std::unique_ptr<Partitioner>> Make(PartitionSpecPtr spec, const Schema& schema,
                                                   const BatchSchema& batch_schema);
  ~Partitioner();

  // partition_of_row[i] = the id of row i's partition (resized to the batch's rows).
  Status Assign(const RecordBatch& batch, std::vector<uint32_t>& partition_of_row);

  // The tuple of a partition id: one transformed value per spec field (null literals for nulls).
  const std::vector<Literal>& Values(uint32_t id) const { return partitions_[id]; }
  size_t num_partitions() const { return partitions_.size(); }
  const PartitionSpecPtr& spec() const { return spec_; }

  struct FieldPlan;

 private:
  Partitioner() = default;

  PartitionSpecPtr spec_;
  std::vector<FieldPlan> fields_;
  std::unordered_map<std::string, uint32_t> ids_;
  std::vector<std::vector<Literal>> partitions_;
};

}  // namespace floe::table
