#pragma once

// Hands batches to and from any Arrow implementation in the same process through the Arrow C Data
// Interface, without depending on Arrow: the two ABI structs are declared here from the interface's
// description (guarded as the interface recommends, so they coexist with Arrow's own header).
//
// Export is zero-copy: the ArrowArray keeps floe's buffers alive until its release callback runs.
// Import is zero-copy too and takes ownership ("moves" the struct, leaving the source released);
// the imported buffers call the producer's release when the last floe Array using them goes. Field
// ids travel as the field metadata key "PARQUET:field_id", as Arrow's Parquet reader does. Row
// kinds are not part of Arrow and are not exported. Types outside floe's set (date64, time32,
// second/millisecond timestamps, large lists, dictionaries, unions...) fail to import with
// kUnsupported. Imported arrays are checked with Array::Validate(), but the interface carries no
// buffer sizes, so a producer's wrong pointers cannot be detected.

#include <cstdint>

#include "floe/batch/array.h"
#include "floe/batch/data_type.h"
#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

extern "C" {

struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

}  // extern "C"

#endif  // ARROW_C_DATA_INTERFACE

namespace floe {

// The format string of a type: "l", "tsu:UTC", "d:10,2", "+m"...
std::string ArrowFormat(const DataType& type);

// Fill *out (which the caller owns and must release with out->release). On error *out is untouched.
Status ExportField(const Field& field, ArrowSchema* out);
Status ExportType(const DataType& type, ArrowSchema* out);
Status ExportArray(const Array& array, ArrowArray* out);
// A batch is exported as a non-null struct array with one child per column; schema may be null.
Status ExportRecordBatch(const RecordBatch& batch, ArrowSchema* schema, ArrowArray* array);

// Import and release the schema (also on error).
Result<Field> ImportField(ArrowSchema* schema);
Result<DataTypePtr> ImportType(ArrowSchema* schema);
// Take ownership of the array (also on error, when it is released) and view it as type.
Result<Array> ImportArray(ArrowArray* array, const DataTypePtr& type);
// A struct array and its struct schema as a batch; takes ownership of both.
Result<RecordBatch> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema);

}  // namespace floe
