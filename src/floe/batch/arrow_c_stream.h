#pragma once

// A stream of batches through the Arrow C Stream Interface (ArrowArrayStream), the form that
// Python's Arrow PyCapsule protocol (`__arrow_c_stream__`) and C consumers take a sequence of
// record batches in. Each batch is exported as ExportRecordBatch does: zero-copy, the exported
// array holding floe's buffers until its release runs.
//
// The struct is declared from the interface's description, guarded as the interface recommends.
// get_next pulls the next batch from the producer function on the consumer's thread; after the
// producer fails, get_next returns EIO and get_last_error its message. Row kinds are not
// exported (Arrow has none). Batches whose schema differs from the stream's fail with EINVAL.

#include <functional>
#include <optional>

#include "floe/batch/arrow_c.h"
#include "floe/batch/record_batch.h"
#include "floe/util/error.h"

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

extern "C" {

struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

}  // extern "C"

#endif  // ARROW_C_STREAM_INTERFACE

namespace floe {

// The next batch, nullopt at the end. Called from whichever thread the consumer reads on.
using BatchProducer = std::function<Result<std::optional<RecordBatch>>()>;

// Fills *out (owned by the caller, released with out->release, which also destroys `next`).
void ExportBatchStream(BatchSchemaPtr schema, BatchProducer next, ArrowArrayStream* out);

// Reads a whole stream into batches and releases it (also on error): the import side, for
// Python's write_rows and tests. Batches import zero-copy (ImportRecordBatch).
Result<std::vector<RecordBatch>> ImportBatchStream(ArrowArrayStream* stream, BatchSchemaPtr* schema);

}  // namespace floe
