#pragma once

// Merge-on-read equality deletes (spec "Equality Delete Files"): a data row is deleted when its
// values of the delete file's equality fields equal one of the delete file's rows. Both sides are
// read by field id and projected to the table schema first, so a promoted column (int -> long)
// compares by value; a null in a key matches a null; floating-point keys compare by value with all
// NaNs equal and -0 distinct from 0 (as Iceberg's Java comparators do).
//
// A set holds one delete file's keys (so a data file can be tested against files with different
// equality-id sets): a single integer-like key column (int, long, date, time, timestamps) as
// integers in a flat hash set, with the smallest and largest key so that a data file whose column
// bounds lie outside them is not probed at all; other keys as encoded byte strings. Errors:
// equality ids that are not primitive fields of the schema reached through structs only
// (kInvalidArgument), and the delete file's read errors.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "floe/batch/record_batch.h"
#include "floe/io/file_io.h"
#include "floe/manifest/data_file.h"
#include "floe/spec/schema.h"
#include "floe/table/scan/name_mapping.h"
#include "floe/util/error.h"

namespace floe::table {

class IntKeySet;

class EqualityDeleteSet {
 public:
  // Reads the keys of an equality delete file (its equality_ids projected from schema).
  static Result<std::shared_ptr<const EqualityDeleteSet>> Load(io::FileIO& io,
                                                               const manifest::DataFile& file,
                                                               const SchemaPtr& schema,
                                                               const NameMapping* name_mapping);
  // A set from batches already in memory (columns of schema's fields by id), for tests and
  // writers.
  static Result<std::shared_ptr<const EqualityDeleteSet>> FromBatches(
      std::vector<int32_t> field_ids, const std::vector<RecordBatch>& batches,
      const Schema& schema);

  const std::vector<int32_t>& field_ids() const { return field_ids_; }
  size_t size() const;
  // What the keys take in memory, roughly.
  size_t memory_bytes() const;

  // False when no row of data_file can hold one of the keys, by its column bounds (an integer
  // key without nulls only; true otherwise).
  bool MayMatch(const manifest::DataFile& data_file, const Schema& schema) const;

  // Clears keep[i] for each row i of batch (columns by field id, of schema's types) whose key is
  // in the set.
  Status ClearDeleted(const RecordBatch& batch, const Schema& schema, uint8_t* keep) const;

  EqualityDeleteSet(std::vector<int32_t> field_ids, const Schema& schema);
  ~EqualityDeleteSet();

 private:
  Status Add(const RecordBatch& batch, const Schema& schema);

  std::vector<int32_t> field_ids_;
  std::unordered_set<std::string> keys_;
  // The integer form: keys, a null among them, and their range.
  std::unique_ptr<IntKeySet> int_keys_;
  bool int_null_ = false;
  int64_t int_min_ = INT64_MAX;
  int64_t int_max_ = INT64_MIN;
};

}  // namespace floe::table
