#pragma once

// Event time for any source: a Source whose readers are those of another source, each followed by
// a watermark generator over one timestamp column. After every batch a reader emits, its watermark
// is the greatest time it has emitted less the allowed out-of-orderness (Flink SQL's `WATERMARK
// FOR ts AS ts - INTERVAL ...`), sent when it advances. A reader that has had nothing to read for
// `idle_timeout_ms` (`table.exec.source.idle-timeout`) reports itself idle until its next batch.
// Watermarks are per reader subtask: the splits a reader holds share its watermark.

#include <cstdint>
#include <memory>
#include <string>

#include "floe/stream/source.h"

namespace floe::stream {

struct WatermarkStrategy {
  std::string time_column;  // a TIMESTAMP or TIMESTAMP_LTZ column of the source's schema
  int64_t out_of_orderness_ms = 0;
  int64_t idle_timeout_ms = 0;  // 0: never idle
};

// kInvalidArgument when the column is missing or not a timestamp, or a duration is negative.
Result<std::shared_ptr<Source>> WithWatermarks(std::shared_ptr<Source> source,
                                               WatermarkStrategy strategy);

}  // namespace floe::stream
