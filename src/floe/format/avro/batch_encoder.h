#pragma once

// The columnar write path: encodes the rows of RecordBatches as Avro records straight into a
// ContainerWriter's block, with no per-value Datum tree. BatchEncoder::Make compiles one writer per
// column for an Avro record schema and a batch schema (matched by position), checking once that
// every column type fits its Avro type: the inverse of batch_decoder's ToBatchType, so records to
// structs, ["null", T] unions to nullable columns, arrays to lists, maps (and arrays of key/value
// records with logicalType "map") to maps, fixed to fixed-size binary, and logical types from
// their batch counterparts (decimals from decimal128, as bytes or as fixed of the schema's size).
//
// Errors: kInvalidArgument at Make for a column that does not fit (naming the field path), and at
// Write for a null where the Avro type has no null branch or a decimal too wide for its fixed;
// the rows before the failing one stay written, the failing row is dropped.

#include <memory>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/format/avro/container.h"
#include "floe/format/avro/schema.h"

namespace floe::avro {

class ValueWriter;

class BatchEncoder {
 public:
  // record must be an Avro record with one field per batch column, in the same order.
  static Result<std::unique_ptr<BatchEncoder>> Make(const Node& record, const BatchSchema& schema);

  // Appends every row of batch to writer; batch must have the schema Make was given.
  Status Write(const RecordBatch& batch, ContainerWriter& writer);

  ~BatchEncoder();
  BatchEncoder(const BatchEncoder&) = delete;
  BatchEncoder& operator=(const BatchEncoder&) = delete;

 private:
  BatchEncoder() = default;
  std::vector<std::unique_ptr<ValueWriter>> columns_;
};

}  // namespace floe::avro
